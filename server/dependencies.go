package server

import "net/http"

func (s *Server) registerDependencyRoutes(mux *http.ServeMux) {}
