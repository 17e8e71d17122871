package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/dapconsole/dapconsole/model"
)

// JobAPI is the generation of job endpoints a server offers.
type JobAPI int32

const (
	// JobAPIUnknown: no job endpoint has answered yet.
	JobAPIUnknown JobAPI = iota
	// JobAPIV2: /api/job-execution/… (the REST-v2 plug-in, release 7.2.5 on).
	JobAPIV2
	// JobAPILegacy: the older forms, which address a job by configuration
	// id: /rest/job-configuration/job-status/<id>,
	// /rest/job-execution?configuration=<id>, /rest/job-execution/job-kill/<execution id>,
	// /rest/jobs/list-running.
	JobAPILegacy
)

func (g JobAPI) String() string {
	switch g {
	case JobAPIV2:
		return "REST-v2 jobs"
	case JobAPILegacy:
		return "older /rest jobs"
	}
	return "jobs API not asked yet"
}

// JobAPI returns the generation of job endpoints the server has answered
// with so far: the client starts with /api/job-execution/ and falls back to
// the older forms for good once that answers 404.
func (c *Client) JobAPI() JobAPI { return JobAPI(c.jobs.generation.Load()) }

// viaJobAPI runs the REST-v2 form of a job call, or the older one when the
// server has no REST-v2 job endpoints (a 404, 405 or 501 there).
func (c *Client) viaJobAPI(v2, legacy func() error) error {
	if c.JobAPI() != JobAPILegacy {
		err := v2()
		if !errors.Is(unsupported(err), ErrUnsupported) {
			var e *Error
			if err == nil || errors.As(err, &e) && e.Status != 0 { // an answer came from the endpoint
				c.jobs.generation.CompareAndSwap(int32(JobAPIUnknown), int32(JobAPIV2))
			}
			return err
		}
		c.jobs.generation.Store(int32(JobAPILegacy))
	}
	return legacy()
}

// jobIndex is what the client learns of configuration ids, for the older
// job endpoints that address a job by it rather than by file id, UUID or path.
type jobIndex struct {
	generation atomic.Int32
	mu         sync.Mutex
	configIDs  map[Ref]int64 // by file id, UUID and path
}

func (x *jobIndex) lookup(ref Ref) (int64, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	id, ok := x.configIDs[ref]
	return id, ok
}

func (x *jobIndex) learn(configID int64, refs ...Ref) {
	if configID <= 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.configIDs == nil {
		x.configIDs = map[Ref]int64{}
	}
	for _, r := range refs {
		if !r.IsZero() {
			x.configIDs[r] = configID
		}
	}
}

// runnableKinds are the kinds whose lists the older job calls search for a
// configuration id.
var runnableKinds = []model.Kind{model.KindImportJob, model.KindDataLink, model.KindWorkbook, model.KindExportJob}

// ConfigurationID finds the configuration id of the job a ref names: from
// list-running answers seen before (their dapJobConfigurationId), else from
// the lists of runnable files (by path or UUID; a file id is first read as
// a file, where the server offers that). The older job endpoints address
// jobs by it, and a history is found by it where job details carry none.
func (c *Client) ConfigurationID(ctx context.Context, ref Ref) (int64, error) {
	if id, ok := c.jobs.lookup(ref); ok {
		return id, nil
	}
	want := ref
	if ref.kind == refByFileID {
		f, err := c.File(ctx, ref)
		if err != nil {
			return 0, fmt.Errorf("configuration id of file %s (the older job endpoints need it): %w", ref, err)
		}
		want = UUID(f.UUID)
	}
	files, _, err := c.ListFiles(ctx, runnableKinds...)
	if err != nil {
		return 0, err
	}
	for _, e := range files {
		c.jobs.learn(e.ID, Path(e.Path), UUID(e.UUID))
	}
	if id, ok := c.jobs.lookup(want); ok {
		c.jobs.learn(id, ref)
		return id, nil
	}
	return 0, &Error{Op: "find job " + ref.String(), Status: http.StatusOK, failureBody: true,
		Reason: "File doesn't exist or isn't accessible with current permissions"}
}

func (c *Client) legacyJobStatus(ctx context.Context, job Ref) (model.JobStatus, error) {
	id, err := c.ConfigurationID(ctx, job)
	if err != nil {
		return model.JobStatus{}, err
	}
	var legacy model.LegacyJobStatus
	if err := c.read(ctx, http.MethodGet, "/rest/job-configuration/job-status/"+strconv.FormatInt(id, 10), "", nil, &legacy); err != nil {
		return model.JobStatus{}, err
	}
	st := model.JobStatus{Status: model.StatusSuccess, JobStatus: legacy.JobStatus}
	if legacy.ID == 0 {
		st.JobStatus = model.StateNone
	} else {
		st.JobExecutionID = &legacy.ID
	}
	if job.kind == refByFileID {
		st.FileID = &job.id
	}
	return st, nil
}

// legacyTriggered is a trigger answer of an older release: the newer shape,
// or only the execution's id.
type legacyTriggered struct {
	model.Triggered
	ID int64 `json:"id"`
}

func (c *Client) legacyTrigger(ctx context.Context, job Ref) (model.Triggered, error) {
	id, err := c.ConfigurationID(ctx, job)
	if err != nil {
		return model.Triggered{}, err
	}
	var t legacyTriggered
	if err := c.read(ctx, http.MethodPost, "/rest/job-execution", "configuration="+strconv.FormatInt(id, 10), nil, &t); err != nil {
		return model.Triggered{}, err
	}
	if t.JobExecutionID == 0 {
		t.JobExecutionID = t.ID
	}
	if t.Status == "" {
		t.Status = model.StatusSuccess
	}
	return t.Triggered, nil
}

// legacyStop kills every queued or running execution of the job, as the
// newer stop does.
func (c *Client) legacyStop(ctx context.Context, job Ref) error {
	id, err := c.ConfigurationID(ctx, job)
	if err != nil {
		return err
	}
	running, err := c.legacyRunningJobs(ctx)
	if err != nil {
		return err
	}
	killed := 0
	for _, r := range running {
		if r.DapJobConfigurationID != id {
			continue
		}
		if _, err := c.call(ctx, http.MethodPost, "/rest/job-execution/job-kill/"+strconv.FormatInt(r.JobExecutionID, 10), "", nil, nil, false); err != nil {
			return err
		}
		killed++
	}
	if killed == 0 {
		return &Error{Op: "stop " + job.String(), Status: http.StatusOK, failureBody: true,
			Reason: job.String() + " has no queued or running execution to stop"}
	}
	return nil
}

func (c *Client) legacyRunningJobs(ctx context.Context) ([]model.RunningJob, error) {
	var running []model.RunningJob
	if err := c.read(ctx, http.MethodGet, "/rest/jobs/list-running", "", nil, &running); err != nil {
		return nil, err
	}
	c.learnRunning(running)
	return running, nil
}

// learnRunning keeps the configuration ids list-running names, so the
// older job calls on those files need no list read.
func (c *Client) learnRunning(running []model.RunningJob) {
	for _, r := range running {
		c.jobs.learn(r.DapJobConfigurationID, FileID(r.FileID), UUID(r.UUID))
	}
}
