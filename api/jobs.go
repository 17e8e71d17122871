package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

const jobExecutionPath = "/api/job-execution/"

// JobStatus reads the status of the job a file holds. A file that does not
// exist or is not accessible is an *Error with the server's reason (the
// platform answers it with HTTP 200 and a failure body; IsFailure is true).
// On a server without REST-v2 job endpoints it reads the older job-status,
// which tells the state and execution id only.
func (c *Client) JobStatus(ctx context.Context, job Ref) (model.JobStatus, error) {
	var st model.JobStatus
	path, err := refPath(jobExecutionPath, job, "/status")
	if err != nil {
		return st, fmt.Errorf("job status of %s: %w", job, err)
	}
	err = c.viaJobAPI(
		func() error { return c.read(ctx, http.MethodGet, path, "", nil, &st) },
		func() (err error) { st, err = c.legacyJobStatus(ctx, job); return err })
	return st, err
}

// JobHistory reads a window of a job configuration's executions: length
// results from start. A length of 0 or less sends neither parameter and
// takes the server's defaults.
func (c *Client) JobHistory(ctx context.Context, configID int64, start, length int) ([]model.HistoryEntry, error) {
	page, err := c.JobHistoryPage(ctx, configID, start, length)
	return page.Entries, err
}

// HistoryPage is a window of a job's history and, when the server says
// (the embedded platform's X-Total-Count), how many executions there are.
type HistoryPage struct {
	Entries []model.HistoryEntry
	Total   int // -1: the server did not say
}

// JobHistoryPage is JobHistory with the total the server gives.
func (c *Client) JobHistoryPage(ctx context.Context, configID int64, start, length int) (HistoryPage, error) {
	page := HistoryPage{Total: -1}
	query := ""
	if length > 0 {
		query = "start=" + strconv.Itoa(start) + "&length=" + strconv.Itoa(length)
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	r := request{method: http.MethodGet, path: "/rest/job-configuration/job-history/" + strconv.FormatInt(configID, 10),
		query: query, length: -1, accept: "application/json"}
	resp, err := c.send(ctx, r)
	if err != nil {
		return page, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer))
	if err != nil {
		return page, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer cut short", Err: err}
	}
	if _, err := c.decode(r.op(), resp, body, &page.Entries, true); err != nil {
		return page, err
	}
	if n, err := strconv.Atoi(resp.Header.Get(model.HistoryTotalHeader)); err == nil && n >= 0 {
		page.Total = n
	}
	return page, nil
}

// JobDetails reads the details of one execution: times, counts and counters.
func (c *Client) JobDetails(ctx context.Context, executionID int64) (model.JobDetails, error) {
	var d model.JobDetails
	err := c.read(ctx, http.MethodGet, "/rest/job-execution/job-details/"+strconv.FormatInt(executionID, 10), "", nil, &d)
	return d, err
}

// RunningJobs lists the active jobs (from /rest/jobs/list-running on a
// server without REST-v2 job endpoints).
func (c *Client) RunningJobs(ctx context.Context) ([]model.RunningJob, error) {
	var running []model.RunningJob
	err := c.viaJobAPI(
		func() error {
			err := c.read(ctx, http.MethodGet, jobExecutionPath+"list-running", "", nil, &running)
			c.learnRunning(running)
			return err
		},
		func() (err error) { running, err = c.legacyRunningJobs(ctx); return err })
	return running, err
}

// TriggerJob starts the job a file holds and returns the new execution
// (with POST /rest/job-execution?configuration=<id> on a server without
// REST-v2 job endpoints).
func (c *Client) TriggerJob(ctx context.Context, job Ref) (model.Triggered, error) {
	var t model.Triggered
	path, err := refPath(jobExecutionPath, job, "/trigger")
	if err != nil {
		return t, fmt.Errorf("trigger %s: %w", job, err)
	}
	err = c.viaJobAPI(
		func() error { return c.read(ctx, http.MethodPost, path, "", nil, &t) },
		func() (err error) { t, err = c.legacyTrigger(ctx, job); return err })
	return t, err
}

// TriggerSequence triggers the given files and all their downstream
// dependencies in sequence, setting workbook variables; the answer is the
// execution plan. variables may be nil; nil slices and maps go out as
// empty JSON arrays and objects, never null.
func (c *Client) TriggerSequence(ctx context.Context, fileIDs []int64, variables map[string]string) (model.ExecutionPlan, error) {
	if variables == nil {
		variables = map[string]string{}
	}
	if fileIDs == nil {
		fileIDs = []int64{}
	}
	var plan model.ExecutionPlan
	err := c.read(ctx, http.MethodPost, jobExecutionPath+"sequential-trigger", "",
		model.SequentialTrigger{Variables: variables, FileIDs: fileIDs}, &plan)
	return plan, err
}

// StopJob stops the queued and running executions of the job a file holds
// (killing each with /rest/job-execution/job-kill/<execution id> on a
// server without REST-v2 job endpoints).
func (c *Client) StopJob(ctx context.Context, job Ref) error {
	path, err := refPath(jobExecutionPath, job, "/stop")
	if err != nil {
		return fmt.Errorf("stop %s: %w", job, err)
	}
	return c.viaJobAPI(
		func() error { _, err := c.call(ctx, http.MethodPost, path, "", nil, nil, false); return err },
		func() error { return c.legacyStop(ctx, job) })
}

// DeleteJobData marks a job's data for deletion. Its three answers stay
// apart: Outcome DeletionMarked (now marked), DeletionAlreadyMarked (already
// deleted or marked), and the failure answer (unknown id), which comes back
// as an *Error carrying the reason together with Outcome DeletionFailed and
// the same Reason, so callers may look at either.
func (c *Client) DeleteJobData(ctx context.Context, dataID int64) (model.DataDeletion, error) {
	var d model.DataDeletion
	err := c.read(ctx, http.MethodDelete, "/rest/data/"+strconv.FormatInt(dataID, 10), "", nil, &d)
	if err != nil {
		d = model.DataDeletion{Outcome: model.DeletionFailed, Reason: reasonOf(err)}
	}
	return d, err
}

// maxJobLog caps a job log read into memory; the console shows the end of
// a longer one.
const maxJobLog = 8 << 20

// JobLog reads an execution's log as text (the platform's
// GET /file-job?jobExecutionId=<id>): while the job runs, what it logged so
// far. A log longer than maxJobLog comes back cut to its last part, with
// cut set.
func (c *Client) JobLog(ctx context.Context, executionID int64) (text string, cut bool, err error) {
	r := request{method: http.MethodGet, path: "/file-job", query: "jobExecutionId=" + strconv.FormatInt(executionID, 10),
		length: -1, accept: "text/plain"}
	resp, err := c.send(ctx, r)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	body, cut, err := readTail(resp.Body, maxJobLog)
	if err != nil {
		return "", false, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer cut short", Err: err}
	}
	if isJSON(resp.Header.Get("Content-Type")) {
		if _, err := c.decode(r.op(), resp, body, nil, true); err != nil {
			return "", false, err
		}
	}
	return strings.ToValidUTF8(string(body), "?"), cut, nil
}

// readTail reads r to its end and keeps at most the last limit bytes, so a
// server sending without end costs bounded memory.
func readTail(r io.Reader, limit int) (tail []byte, cut bool, err error) {
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		tail = append(tail, chunk[:n]...)
		if len(tail) > 2*limit {
			tail, cut = append(tail[:0], tail[len(tail)-limit:]...), true
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	if len(tail) > limit {
		tail, cut = tail[len(tail)-limit:], true
	}
	return tail, cut, nil
}
