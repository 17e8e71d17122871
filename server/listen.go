package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
)

// Running is a server accepting connections on a TCP address.
type Running struct {
	Server *Server
	// URL is the base address clients use, e.g. http://127.0.0.1:41234.
	URL  string
	http *http.Server
	done chan error
}

// Start opens a server on cfg and serves it on addr ("127.0.0.1:0" picks a
// free port; URL tells which). It returns once connections are accepted.
// The console's --demo and the serve command both start here.
func Start(cfg Config, addr string) (*Running, error) {
	srv, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	r := &Running{
		Server: srv,
		URL:    "http://" + ln.Addr().String(),
		http:   cfg.Timeouts.httpServer(srv.Handler()),
		done:   make(chan error, 1),
	}
	go func() {
		err := r.http.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// Shutdown stops accepting, lets requests in flight finish until ctx ends,
// then closes what is left and the server (job engine and store).
func (r *Running) Shutdown(ctx context.Context) error {
	err := r.http.Shutdown(ctx)
	if err != nil {
		r.http.Close()
	}
	if serveErr := <-r.done; err == nil {
		err = serveErr
	}
	if closeErr := r.Server.Close(); err == nil {
		err = closeErr
	}
	return err
}
