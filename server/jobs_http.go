package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// notAccessible is the platform's own reason for a job request on a file
// that does not exist or that the user may not use that way.
const notAccessible = "File doesn't exist or isn't accessible with current permissions"

// demoSchedule is how often the demo's jobs are triggered again, and
// demoScheduled the jobs, so that list-running is never empty in a demo.
const demoSchedule = time.Minute

var demoScheduled = []string{
	"/Data/ImportJobs/Events.imp", "/Data/ImportJobs/Orders.imp",
	"/Data/ImportJobs/Customers.imp", "/Data/ImportJobs/Products.imp",
}

// registerJobRoutes adds the job execution endpoints of spec section 4.5.
// Following the spec, they answer HTTP 200 with a failure body when the file
// (or execution) does not exist or may not be used by the caller; malformed
// input (a non-numeric id, a bad body) is 400.
func (s *Server) registerJobRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/job-execution/list-running", s.listRunning)
	mux.HandleFunc("POST /api/job-execution/sequential-trigger", s.sequentialTrigger)
	mux.HandleFunc("GET /api/job-execution/{ref}/status", s.jobStatus)
	mux.HandleFunc("POST /api/job-execution/{ref}/trigger", s.triggerJob)
	mux.HandleFunc("POST /api/job-execution/{ref}/stop", s.stopJob)
	mux.HandleFunc("GET /rest/job-configuration/job-history/{id}", s.jobHistory)
	mux.HandleFunc("GET /rest/job-execution/job-details/{id}", s.jobDetails)
	mux.HandleFunc("DELETE /rest/data/{id}", s.deleteJobData)
	mux.HandleFunc("GET /file-job", s.jobLog)
	mux.HandleFunc("GET /job/download-trace/{id}", s.downloadTrace)
	s.registerLegacyJobRoutes(mux)
}

// startJobs opens the job engine over the server's database; with demo data
// it also triggers the demo's jobs every minute.
func (s *Server) startJobs() error {
	ctx := context.Background()
	e, err := jobs.Open(ctx, s.store.DB(), jobs.Config{
		Catalog:        storeCatalog{s.store},
		FileRoots:      s.cfg.FileRoots,
		MaxConcurrent:  s.cfg.MaxConcurrentJobs,
		MaxRunsPerUser: s.cfg.MaxRunsPerUser, MaxWorkbookBytes: s.cfg.MaxWorkbookBytes,
		MaxQueryTime: s.cfg.MaxQueryTime, MaxRunningPerUser: s.cfg.MaxRunningPerUser,
	})
	if err != nil {
		return err
	}
	s.jobs = e
	if !s.cfg.DemoData {
		return nil
	}
	var scheduled []jobs.File
	for _, path := range demoScheduled {
		f, err := s.store.FileByPath(ctx, path)
		if errors.Is(err, store.ErrNotFound) {
			continue // a data directory seeded by an older demo, or changed since
		}
		if err != nil {
			return err
		}
		jf, err := storeCatalog{s.store}.jobFile(ctx, f)
		if err != nil {
			return err
		}
		scheduled = append(scheduled, jf)
	}
	e.Schedule(scheduled, demoSchedule, "admin")
	return nil
}

// stopJobs cancels queued and running executions and waits for the engine.
func (s *Server) stopJobs() {
	if s.jobs != nil {
		s.jobs.Close()
	}
}

// storeCatalog lets the engine read the file tree from the store.
type storeCatalog struct{ st *store.Store }

func (c storeCatalog) jobFile(ctx context.Context, f store.File) (jobs.File, error) {
	cfg, err := c.st.Configuration(ctx, f)
	if err != nil {
		return jobs.File{}, notFoundToJobs(err)
	}
	return jobs.File{ID: f.ID, ConfigurationID: f.ConfigID, UUID: f.UUID, Path: f.Path,
		Name: f.BaseName(), Kind: f.Kind, Config: cfg}, nil
}

func (c storeCatalog) File(ctx context.Context, id int64) (jobs.File, error) {
	f, err := c.st.FileByID(ctx, id)
	if err != nil {
		return jobs.File{}, notFoundToJobs(err)
	}
	return c.jobFile(ctx, f)
}

func (c storeCatalog) Source(ctx context.Context, ref model.SourceRef) (jobs.File, error) {
	f, err := c.st.ResolveSource(ctx, ref)
	if err != nil {
		return jobs.File{}, notFoundToJobs(err)
	}
	return c.jobFile(ctx, f)
}

func (c storeCatalog) Dependents(ctx context.Context, id int64) ([]jobs.File, error) {
	deps, err := c.st.Dependents(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]jobs.File, 0, len(deps))
	for _, d := range deps {
		jf, err := c.jobFile(ctx, d)
		if err != nil {
			return nil, err
		}
		out = append(out, jf)
	}
	return out, nil
}

// MayRead answers whether a run's user may read an input and, for a
// workbook, its data (mayReadData); for a user removed since the run was
// triggered: no.
func (c storeCatalog) MayRead(ctx context.Context, user string, jf jobs.File) (bool, error) {
	u, err := c.st.UserByName(ctx, user)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	f, err := c.st.FileByID(ctx, jf.ID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	rights, visible, err := c.st.Access(ctx, u, f)
	if err != nil || !visible || !needRead.allowedBy(rights) {
		return false, err
	}
	return mayReadData(ctx, c.st, u, f)
}

func notFoundToJobs(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %w", jobs.ErrNotFound, err)
	}
	return err
}

// jobFailure answers a job request with HTTP 200 and a failure body, as the spec does.
func jobFailure(w http.ResponseWriter, reason string) {
	writeFailure(w, http.StatusOK, reason)
}

// jobError answers an unexpected error: 500, logged.
func jobError(w http.ResponseWriter, err error) {
	log.Printf("job endpoint: %v", err)
	writeFailure(w, http.StatusInternalServerError, "internal error")
}

// jobFileFor resolves the {ref} of a job request and checks the caller's
// rights; on failure it answers and returns false.
func (s *Server) jobFileFor(w http.ResponseWriter, r *http.Request, n need) (store.File, bool) {
	f, rights, err := s.resolve(r, r.PathValue("ref"))
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrBadInput):
		jobFailure(w, notAccessible)
		return store.File{}, false
	case err != nil:
		jobError(w, err)
		return store.File{}, false
	case !n.allowedBy(rights):
		jobFailure(w, notAccessible) // as the platform words it for a file the caller may see but not run
		return store.File{}, false
	}
	return f, true
}

// fileAllows reports whether the caller may see a file and has what n needs on it.
func (s *Server) fileAllows(r *http.Request, fileID int64, n need) (store.File, bool, error) {
	f, err := s.store.FileByID(r.Context(), fileID)
	if errors.Is(err, store.ErrNotFound) {
		return store.File{}, false, nil
	}
	if err != nil {
		return store.File{}, false, err
	}
	rights, visible, err := s.store.Access(r.Context(), userFrom(r), f)
	if err != nil {
		return store.File{}, false, err
	}
	return f, visible && n.allowedBy(rights), nil
}

// jobFileAllowed checks fileAllows for a job request; when the caller may
// not, it answers with the failure reason (or a 500) and returns false.
func (s *Server) jobFileAllowed(w http.ResponseWriter, r *http.Request, fileID int64, n need, reason string) bool {
	_, allowed, err := s.fileAllows(r, fileID, n)
	switch {
	case err != nil:
		jobError(w, err)
	case !allowed:
		jobFailure(w, reason)
	}
	return err == nil && allowed
}

func pathID(w http.ResponseWriter, r *http.Request, what string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s %q is not a positive whole number", what, r.PathValue("id")))
		return 0, false
	}
	return id, true
}

func (s *Server) jobStatus(w http.ResponseWriter, r *http.Request) {
	f, ok := s.jobFileFor(w, r, needRead)
	if !ok {
		return
	}
	st, err := s.jobs.Status(r.Context(), f.ID)
	if err == nil {
		err = s.hideUnseen(r.Context(), userFrom(r), f, &st.Reason)
	}
	if err != nil {
		jobError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) triggerJob(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.jobFileFor(w, r, needExecute); ok {
		s.trigger(w, r, f)
	}
}

// trigger starts an execution of a file the caller may run and answers it.
func (s *Server) trigger(w http.ResponseWriter, r *http.Request, f store.File) {
	jf, err := storeCatalog{s.store}.jobFile(r.Context(), f)
	if errors.Is(err, jobs.ErrNotFound) {
		jobFailure(w, fmt.Sprintf("%s is not a job", f.Path))
		return
	}
	if err != nil {
		jobError(w, err)
		return
	}
	if err := s.mayUseConnection(r.Context(), userFrom(r), jf); err != nil {
		jobFailure(w, fmt.Sprintf("%s: %v", f.Path, err))
		return
	}
	user := userFrom(r).Name
	ex, err := s.jobs.Trigger(r.Context(), jf, user, model.TriggerRESTAPI, nil)
	switch {
	case errors.Is(err, jobs.ErrNotJob):
		jobFailure(w, fmt.Sprintf("%s is not a job: only import jobs, data links, workbooks and export jobs run", f.Path))
	case errors.Is(err, jobs.ErrClosed):
		writeFailure(w, http.StatusServiceUnavailable, "the server is shutting down")
	case err != nil:
		jobError(w, err)
	default:
		writeJSON(w, http.StatusOK, model.Triggered{Status: model.StatusSuccess, JobExecutionID: ex.ID,
			JobExecutionUser: ex.User, JobExecutionTrigger: ex.Trigger})
	}
}

// stopJob cancels the file's queued and running executions; it answers with
// no body once they have ended.
func (s *Server) stopJob(w http.ResponseWriter, r *http.Request) {
	f, ok := s.jobFileFor(w, r, needExecute)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	err := s.jobs.Stop(ctx, f.ID)
	switch {
	case errors.Is(err, jobs.ErrNotRunning):
		jobFailure(w, fmt.Sprintf("%s has no queued or running execution to stop", f.Path))
	case err != nil:
		jobError(w, err)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

// jobHistory answers a window of a configuration's executions, newest
// first: `start` (default 0) skips, `length` (default 10) bounds.
func (s *Server) jobHistory(w http.ResponseWriter, r *http.Request) {
	start, ok := queryInt(w, r, "start", jobs.DefaultHistoryStart)
	if !ok {
		return
	}
	length, ok := queryInt(w, r, "length", jobs.DefaultHistoryLength)
	if !ok {
		return
	}
	id, ok := s.readableJobConfiguration(w, r)
	if !ok {
		return
	}
	history, err := s.jobs.History(r.Context(), id, start, length)
	if err != nil {
		jobError(w, err)
		return
	}
	total, err := s.jobs.HistoryTotal(r.Context(), id)
	if err != nil {
		jobError(w, err)
		return
	}
	w.Header().Set(model.HistoryTotalHeader, strconv.Itoa(total))
	writeJSON(w, http.StatusOK, history)
}

// readableJobConfiguration resolves the configuration id in the path to a
// file the caller may read; otherwise it answers as job endpoints do (200
// with the failure body when missing or not accessible) and returns false.
func (s *Server) readableJobConfiguration(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(w, r, "job configuration id")
	if !ok {
		return 0, false
	}
	f, err := s.store.FileByConfigID(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		jobFailure(w, notAccessible)
		return 0, false
	}
	if err != nil {
		jobError(w, err)
		return 0, false
	}
	return id, s.jobFileAllowed(w, r, f.ID, needRead, notAccessible)
}

func queryInt(w http.ResponseWriter, r *http.Request, name string, fallback int) (int, bool) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return fallback, true
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 0 {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s %q is not a whole number of 0 or more", name, raw))
		return 0, false
	}
	return n, true
}

func (s *Server) jobDetails(w http.ResponseWriter, r *http.Request) {
	if _, d, ok := s.executionFor(w, r, needRead); ok {
		writeJSON(w, http.StatusOK, d)
	}
}

// executionFor reads the execution the {id} of a job request names, whose
// file the caller may use as n needs; on failure it answers and returns false.
func (s *Server) executionFor(w http.ResponseWriter, r *http.Request, n need) (int64, model.JobDetails, bool) {
	id, ok := pathID(w, r, "job execution id")
	if !ok {
		return 0, model.JobDetails{}, false
	}
	missing := fmt.Sprintf("Job execution %d doesn't exist or isn't accessible with current permissions", id)
	d, err := s.jobs.Details(r.Context(), id)
	if errors.Is(err, jobs.ErrNotFound) {
		jobFailure(w, missing)
		return 0, model.JobDetails{}, false
	}
	if err != nil {
		jobError(w, err)
		return 0, model.JobDetails{}, false
	}
	return id, d, s.jobFileAllowed(w, r, d.File.ID, n, missing)
}

// jobLog answers an execution's log as plain text, the real platform's
// GET /file-job?jobExecutionId=<id>: while it runs, what it logged so far.
// An unknown execution, or one of a file the caller may not read, is 404.
func (s *Server) jobLog(w http.ResponseWriter, r *http.Request) {
	s.answerJobLog(w, r, "jobExecutionId", r.URL.Query().Get("jobExecutionId"), false)
}

// downloadTrace answers an execution's log as a download, as the
// platform's `/job/download-trace/<execution id>` does.
func (s *Server) downloadTrace(w http.ResponseWriter, r *http.Request) {
	s.answerJobLog(w, r, "execution id", r.PathValue("id"), true)
}

// answerJobLog answers the log of the execution whose id raw (named so in
// a refusal) is, to who may read its file, as an attachment when asked;
// others learn nothing of it (404).
func (s *Server) answerJobLog(w http.ResponseWriter, r *http.Request, name, raw string, attachment bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s %q is not a positive whole number", name, raw))
		return
	}
	missing := fmt.Sprintf("Job execution %d doesn't exist or isn't accessible with current permissions", id)
	text, fileID, err := s.jobs.Log(r.Context(), id)
	if errors.Is(err, jobs.ErrNotFound) {
		writeFailure(w, http.StatusNotFound, missing)
		return
	}
	if err != nil {
		jobError(w, err)
		return
	}
	f, allowed, err := s.fileAllows(r, fileID, needRead)
	switch {
	case err != nil:
		jobError(w, err)
		return
	case !allowed:
		writeFailure(w, http.StatusNotFound, missing)
		return
	}
	if err := s.hideUnseen(r.Context(), userFrom(r), f, &text); err != nil {
		jobError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if attachment {
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="job-%d-trace.log"`, id))
	}
	_, _ = io.WriteString(w, text)
}

// listRunning answers the queued and running executions of the files the
// caller may see.
func (s *Server) listRunning(w http.ResponseWriter, r *http.Request) {
	running := s.jobs.Running()
	u := userFrom(r)
	if u.Admin {
		writeJSON(w, http.StatusOK, running)
		return
	}
	vis, err := s.store.NewVisibility(r.Context(), u)
	if err != nil {
		jobError(w, err)
		return
	}
	seen := map[int64]bool{}
	visible := make([]model.RunningJob, 0, len(running))
	for _, job := range running {
		ok, judged := seen[job.FileID]
		if !judged {
			f, err := s.store.FileByID(r.Context(), job.FileID)
			if err == nil {
				ok, err = vis.Visible(r.Context(), f)
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				jobError(w, err)
				return
			}
			seen[job.FileID] = ok
		}
		if ok {
			visible = append(visible, job)
		}
	}
	writeJSON(w, http.StatusOK, visible)
}

// maxSequenceFiles caps the file ids of one sequential trigger (after
// duplicates are dropped): each costs a lookup and an access check.
const maxSequenceFiles = 1000

// sequentialTrigger queues the given files and their downstream dependents
// in dependency order (see jobs.Engine.Sequence). Ids are deduplicated and
// capped (maxSequenceFiles), and access is judged once per folder, so a
// large body is cheap to refuse. Dependents the caller may not see are left
// out of the plan, which says how many.
func (s *Server) sequentialTrigger(w http.ResponseWriter, r *http.Request) {
	var req model.SequentialTrigger
	if !s.decodeJSON(w, r, &req) {
		return
	}
	ids := uniqueInOrder(req.FileIDs)
	switch {
	case len(ids) == 0:
		writeFailure(w, http.StatusBadRequest, "fileIds names no file")
		return
	case len(ids) > maxSequenceFiles:
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("fileIds names %d files, at most %d allowed", len(ids), maxSequenceFiles))
		return
	}
	vis, err := s.store.NewVisibility(r.Context(), userFrom(r))
	if err != nil {
		jobError(w, err)
		return
	}
	// allows reports whether the caller sees f and has what n needs on it.
	allows := func(f store.File, n need) (bool, error) {
		visible, err := vis.Visible(r.Context(), f)
		if err != nil || !visible {
			return false, err
		}
		rights, err := vis.Rights(r.Context(), f)
		return n.allowedBy(rights), err
	}
	cat := storeCatalog{s.store}
	var start []jobs.File
	for _, id := range ids {
		f, err := s.store.FileByID(r.Context(), id)
		allowed := err == nil
		if allowed {
			allowed, err = allows(f, needRead)
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			jobError(w, err)
			return
		}
		if !allowed {
			jobFailure(w, fmt.Sprintf("file %d: %s", id, notAccessible))
			return
		}
		jf, err := cat.jobFile(r.Context(), f)
		if errors.Is(err, jobs.ErrNotFound) {
			jobFailure(w, fmt.Sprintf("%s is a folder, not a job", f.Path))
			return
		}
		if err != nil {
			jobError(w, err)
			return
		}
		start = append(start, jf)
	}
	judge := func(f jobs.File, n need) (bool, error) {
		sf, err := s.store.FileByID(r.Context(), f.ID)
		if err != nil {
			return false, err
		}
		return allows(sf, n)
	}
	sees := func(f jobs.File) (bool, error) { return judge(f, needRead) }
	mayRun := func(f jobs.File) error {
		allowed, err := judge(f, needExecute)
		if err != nil {
			return err
		}
		if !allowed {
			return errors.New("execute permission required")
		}
		return s.mayUseConnection(r.Context(), userFrom(r), f)
	}
	plan, err := s.jobs.Sequence(r.Context(), start, userFrom(r).Name, req.Variables, sees, mayRun)
	var refused *jobs.RefusedError
	switch {
	case errors.As(err, &refused):
		jobFailure(w, refused.Reason)
	case errors.Is(err, jobs.ErrClosed):
		writeFailure(w, http.StatusServiceUnavailable, "the server is shutting down")
	case err != nil:
		jobError(w, err)
	default:
		writeJSON(w, http.StatusOK, plan)
	}
}

// uniqueInOrder returns ids without repeats, in the order first given.
func uniqueInOrder(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// deleteJobData removes the data an execution produced (its id is the data
// id); the caller needs write permission on the job's file.
func (s *Server) deleteJobData(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r, "data id")
	if !ok {
		return
	}
	missing := fmt.Sprintf("Job data with id %d doesn't exist or isn't accessible with current permissions", id)
	fileID, err := s.jobs.DataOwner(r.Context(), id)
	if errors.Is(err, jobs.ErrNotFound) {
		jobFailure(w, missing)
		return
	}
	if err != nil {
		jobError(w, err)
		return
	}
	if !s.jobFileAllowed(w, r, fileID, needWrite, missing) {
		return
	}
	outcome, err := s.jobs.DeleteData(r.Context(), id)
	if err != nil {
		jobError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.DataDeletion{Outcome: outcome})
}
