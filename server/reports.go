package server

import (
	"net/http"

	"github.com/dapconsole/dapconsole/model"
)

// dashboardsPath lists dashboards, which the platform's infographics
// replaced: the list is theirs, so that monitors of older releases find it.
const dashboardsPath = "/rest/dashboard"

func (s *Server) registerReportRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+dashboardsPath, func(w http.ResponseWriter, r *http.Request) {
		s.listKind(w, r, []model.Kind{model.KindInfographic})
	})
	mux.HandleFunc("GET /rest/job-configuration/volume-report/{id}", s.volumeReport)
}

// volumeReport answers, for a job the caller may read, every execution
// newest first with the bytes it imported, from the engine's history.
func (s *Server) volumeReport(w http.ResponseWriter, r *http.Request) {
	id, ok := s.readableJobConfiguration(w, r)
	if !ok {
		return
	}
	report, err := s.jobs.Volume(r.Context(), id)
	if err != nil {
		jobError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, report)
}
