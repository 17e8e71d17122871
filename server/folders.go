package server

import "net/http"

func (s *Server) registerFolderRoutes(mux *http.ServeMux) {}
