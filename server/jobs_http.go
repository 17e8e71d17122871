package server

import "net/http"

// registerJobRoutes adds the job execution endpoints (owned by the job engine's engineer).
func (s *Server) registerJobRoutes(mux *http.ServeMux) {}

// startJobs starts the job engine.
func (s *Server) startJobs() error { return nil }

// stopJobs stops the job engine.
func (s *Server) stopJobs() {}
