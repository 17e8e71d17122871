package server

import "net/http"

func (s *Server) registerConnectionRoutes(mux *http.ServeMux) {}
