package api_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// heldList holds every read of the connections list while held, and
// counts the reads that reached the server and those whose client gave up.
type heldList struct {
	arrived   chan struct{}
	cancelled chan struct{}
	reads     atomic.Int32
	mu        sync.Mutex
	release   chan struct{} // closed while reads go through
}

func newHeldList() *heldList {
	return &heldList{arrived: make(chan struct{}, 8), cancelled: make(chan struct{}, 8), release: make(chan struct{})}
}

// open lets the held reads, and every read after, go through.
func (h *heldList) open() {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.release)
}

// hold holds the reads that come from now on.
func (h *heldList) hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release = make(chan struct{})
}

func (h *heldList) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/rest/connections" {
			h.mu.Lock()
			release := h.release
			h.mu.Unlock()
			h.reads.Add(1)
			h.arrived <- struct{}{}
			select {
			case <-release:
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

// listPaths runs a list read on a goroutine of its own and hands over the
// paths it listed.
func listPaths[E any](read func() ([]E, error), path func(E) string) <-chan listed {
	out := make(chan listed, 1)
	go func() {
		list, err := read()
		var paths []string
		for _, e := range list {
			paths = append(paths, path(e))
		}
		out <- listed{paths, err}
	}()
	return out
}

func connectionPath(e model.ConnectionEntry) string { return e.Path }

// TestReadsInFlightShareOneRequest: the connections pane's list and the
// folders pane's file index read the same list at the same moments; while
// one read is in flight, the other waits for its answer instead of asking
// the server again, and each decodes it into its own shape.
func TestReadsInFlightShareOneRequest(t *testing.T) {
	held := newHeldList()
	url := servertest.Start(t, server.Config{DemoData: true}, held.wrap).URL
	admin := api.New(url, "admin", "admin")
	ctx := t.Context()

	entries := listPaths(func() ([]model.ConnectionEntry, error) { return admin.Connections(ctx) }, connectionPath)
	receive(t, "the first read", held.arrived)
	files := listPaths(func() ([]model.FileEntry, error) { return admin.FilesOfKind(ctx, model.KindConnection) },
		func(e model.FileEntry) string { return e.Path })
	waitFor(t, "the second read to join the first", func() bool { return api.ReadWaiters(admin, "/rest/connections") == 2 })
	held.open()
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
		return listPaths(func() ([]model.ConnectionEntry, error) { return admin.Connections(ctx) }, connectionPath)
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
	held.open()
	if got := <-stayed; got.err != nil || len(got.paths) == 0 {
		t.Errorf("the caller who stayed got %q, %v", got.paths, got.err)
	}
	if got := <-after; got.err != nil {
		t.Errorf("the read after the write: %v", got.err)
	}
	if n := held.reads.Load(); n != 2 {
		t.Errorf("the server was asked %d times, want twice (once before the write, once after)", n)
	}

	held.hold()
	alone, leave := context.WithCancel(ctx)
	lone := read(alone)
	receive(t, "a read nobody shares", held.arrived)
	leave()
	<-lone
	receive(t, "the server to see the request end", held.cancelled)
}
