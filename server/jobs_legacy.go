package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// registerLegacyJobRoutes adds the job endpoints of releases before 7.2.5
// (and of platforms without the REST-v2 plug-in), which address a job by
// its configuration id and an execution by its own id. The console falls
// back to them when /api/job-execution/ answers 404; they follow the same
// rule as the newer ones (HTTP 200 with a failure body for a job the caller
// may not use).
func (s *Server) registerLegacyJobRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /rest/job-configuration/job-status/{id}", s.legacyJobStatus)
	mux.HandleFunc("POST /rest/job-execution", s.legacyTrigger)
	mux.HandleFunc("POST /rest/job-execution/job-kill/{id}", s.legacyKill)
	mux.HandleFunc("GET /rest/jobs/list-running", s.listRunning)
}

// legacyJobFile finds the file of a configuration id the caller may use as
// n needs; otherwise it answers as the platform does and returns false.
func (s *Server) legacyJobFile(w http.ResponseWriter, r *http.Request, raw string, n need) (store.File, bool) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("job configuration id %q is not a positive whole number", raw))
		return store.File{}, false
	}
	f, err := s.store.FileByConfigID(r.Context(), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		jobFailure(w, notAccessible)
		return store.File{}, false
	case err != nil:
		jobError(w, err)
		return store.File{}, false
	}
	return f, s.jobFileAllowed(w, r, f.ID, n, notAccessible)
}

// legacyJobStatus answers {id, jobStatus} of the newest execution, {} for a
// job that never ran.
func (s *Server) legacyJobStatus(w http.ResponseWriter, r *http.Request) {
	f, ok := s.legacyJobFile(w, r, r.PathValue("id"), needRead)
	if !ok {
		return
	}
	st, err := s.jobs.Status(r.Context(), f.ID)
	if err != nil {
		jobError(w, err)
		return
	}
	var legacy model.LegacyJobStatus
	if st.JobExecutionID != nil {
		legacy = model.LegacyJobStatus{ID: *st.JobExecutionID, JobStatus: st.JobStatus}
	}
	writeJSON(w, http.StatusOK, legacy)
}

// legacyTrigger starts the job ?configuration=<id> names.
func (s *Server) legacyTrigger(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.legacyJobFile(w, r, r.URL.Query().Get("configuration"), needExecute); ok {
		s.trigger(w, r, f)
	}
}

// legacyKill cancels one execution and answers with no body once it has ended.
func (s *Server) legacyKill(w http.ResponseWriter, r *http.Request) {
	id, _, ok := s.executionFor(w, r, needExecute)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	err := s.jobs.Kill(ctx, id)
	switch {
	case errors.Is(err, jobs.ErrNotRunning):
		jobFailure(w, fmt.Sprintf("job execution %d is neither queued nor running", id))
	case err != nil:
		jobError(w, err)
	default:
		w.WriteHeader(http.StatusOK)
	}
}
