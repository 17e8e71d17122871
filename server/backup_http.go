package server

import "net/http"

// registerBackupRoutes adds the backup and restore endpoints (owned by the backup engineer).
func (s *Server) registerBackupRoutes(mux *http.ServeMux) {}
