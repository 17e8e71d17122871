package server

import "context"

func (s *Server) seedDemo(ctx context.Context) error { return nil }
