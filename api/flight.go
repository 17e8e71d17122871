package api

import (
	"context"
	"net/http"
	"sync"
)

// flights lets reads of the same resource that are in flight at the same
// time share one request: the console's panes read the same lists at the
// same moments (at start, and on every watch tick, the folders pane's file
// index and the connections pane both read every connection, megabytes on
// a large platform). Each caller decodes the shared answer itself. A read
// never joins one that began before a write of this client's started or
// ended, so that what a caller reads after its write shows that write.
type flights struct {
	mu       sync.Mutex
	writes   uint64 // writes that started or ended
	inFlight map[string]*flight
}

// flight is one shared read; resp, body and err are set before done closes.
type flight struct {
	key     string
	writes  uint64
	waiters int
	cancel  context.CancelFunc
	done    chan struct{}
	resp    *http.Response // status and header only; its body is body
	body    []byte
	err     error
}

// wrote notes that a write started or ended: reads from now on start
// their own flight.
func (fs *flights) wrote() {
	fs.mu.Lock()
	fs.writes++
	fs.mu.Unlock()
}

// read returns the answer to the read r, sharing it with the callers that
// ask for the same while it is in flight. fetch performs the request; it
// runs on a context of its own that ends when every caller has gone, so
// that one caller giving up does not fail the others.
func (fs *flights) read(ctx context.Context, r request, fetch func(context.Context, request) (*http.Response, []byte, error)) (*http.Response, []byte, error) {
	key := r.path + "?" + r.query + "\x00" + r.accept
	fs.mu.Lock()
	f := fs.inFlight[key]
	if f == nil || f.writes != fs.writes {
		flightCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{key: key, writes: fs.writes, cancel: cancel, done: make(chan struct{})}
		if fs.inFlight == nil {
			fs.inFlight = map[string]*flight{}
		}
		fs.inFlight[key] = f
		go func() {
			f.resp, f.body, f.err = fetch(flightCtx, r)
			fs.mu.Lock()
			fs.forget(f)
			fs.mu.Unlock()
			cancel()
			close(f.done)
		}()
	}
	f.waiters++
	fs.mu.Unlock()

	select {
	case <-f.done:
		return f.resp, f.body, f.err
	case <-ctx.Done():
		fs.mu.Lock()
		if f.waiters--; f.waiters == 0 {
			fs.forget(f) // a caller who comes now must not join a cancelled read
			f.cancel()
		}
		fs.mu.Unlock()
		return nil, nil, &Error{Op: r.op(), Err: ctx.Err()}
	}
}

// forget takes f out of the reads that may be joined, if it is still there.
func (fs *flights) forget(f *flight) {
	if fs.inFlight[f.key] == f {
		delete(fs.inFlight, f.key)
	}
}
