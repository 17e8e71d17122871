package api_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// heldList holds every read of the connections list until released, and
// counts the reads that reached the server and those whose client gave up.
type heldList struct {
	arrived   chan struct{}
	release   chan struct{}
	reads     atomic.Int32
	cancelled chan struct{}
}

func newHeldList() *heldList {
	return &heldList{arrived: make(chan struct{}, 8), release: make(chan struct{}), cancelled: make(chan struct{}, 8)}
}

func (h *heldList) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/rest/connections" {
			h.reads.Add(1)
			h.arrived <- struct{}{}
			select {
			case <-h.release:
			case <-r.Context().Done():
				h.cancelled <- struct{}{}
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// waitFor waits until cond holds, for at most 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s", what)
		}
	}
}

func receive(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("waited 20 s for %s", what)
	}
}

type listed struct {
	paths []string
	err   error
}

// TestReadsInFlightShareOneRequest: the connections pane's list and the
// folders pane's file index read the same list at the same moments; while
// one read is in flight, the other waits for its answer instead of asking
// the server again, and each decodes it into its own shape.
func TestReadsInFlightShareOneRequest(t *testing.T) {
	held := newHeldList()
	url := servertest.Start(t, server.Config{DemoData: true}, held.wrap).URL
	admin := api.New(url, "admin", "admin")
	ctx := t.Context()

	entries, files := make(chan listed, 1), make(chan listed, 1)
	go func() {
		list, err := admin.Connections(ctx)
		var paths []string
		for _, e := range list {
			paths = append(paths, e.Path)
		}
		entries <- listed{paths, err}
	}()
	receive(t, "the first read", held.arrived)
	go func() {
		list, err := admin.FilesOfKind(ctx, model.KindConnection)
		var paths []string
		for _, e := range list {
			paths = append(paths, e.Path)
		}
		files <- listed{paths, err}
	}()
	waitFor(t, "the second read to join the first", func() bool { return api.ReadWaiters(admin, "/rest/connections") == 2 })
	close(held.release)
	a, b := <-entries, <-files
	if a.err != nil || b.err != nil {
		t.Fatalf("answers: %v, %v", a.err, b.err)
	}
	if len(a.paths) == 0 || len(a.paths) != len(b.paths) {
		t.Errorf("the connections pane read %q, the file index %q", a.paths, b.paths)
	}
	if n := held.reads.Load(); n != 1 {
		t.Errorf("the server was asked %d times, want once", n)
	}
}

// TestSharedReadRules: a caller who gives up leaves the others their
// answer; a read that starts after a write does not take the answer of one
// that began before it; when every caller has given up, the request ends.
func TestSharedReadRules(t *testing.T) {
	held := newHeldList()
	url := servertest.Start(t, server.Config{DemoData: true}, held.wrap).URL
	admin := api.New(url, "admin", "admin")
	ctx := t.Context()

	read := func(ctx context.Context) <-chan listed {
		out := make(chan listed, 1)
		go func() {
			list, err := admin.Connections(ctx)
			var paths []string
			for _, e := range list {
				paths = append(paths, e.Path)
			}
			out <- listed{paths, err}
		}()
		return out
	}

	quitter, quit := context.WithCancel(ctx)
	gaveUp := read(quitter)
	receive(t, "the first read", held.arrived)
	stayed := read(ctx)
	waitFor(t, "the second read to join the first", func() bool { return api.ReadWaiters(admin, "/rest/connections") == 2 })
	quit()
	if got := <-gaveUp; !errors.Is(got.err, context.Canceled) {
		t.Errorf("the caller who gave up got %v, want context.Canceled", got.err)
	}

	if _, err := admin.CreateFolder(ctx, api.Path("/Data"), "Written"); err != nil {
		t.Fatal(err)
	}
	after := read(ctx)
	receive(t, "the read after the write, at the server", held.arrived)
	close(held.release)
	if got := <-stayed; got.err != nil || len(got.paths) == 0 {
		t.Errorf("the caller who stayed got %q, %v", got.paths, got.err)
	}
	if got := <-after; got.err != nil {
		t.Errorf("the read after the write: %v", got.err)
	}
	if n := held.reads.Load(); n != 2 {
		t.Errorf("the server was asked %d times, want twice (once before the write, once after)", n)
	}

	held.release = make(chan struct{}) // hold again
	alone, leave := context.WithCancel(ctx)
	lone := read(alone)
	receive(t, "a read nobody shares", held.arrived)
	leave()
	<-lone
	receive(t, "the server to see the request end", held.cancelled)
}
