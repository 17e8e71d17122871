package server

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/dapconsole/dapconsole/server/archive"
)

// Timeouts bound how long a client may hold a connection. A request's
// headers must arrive within Header and its body within Read, and its answer
// be written within Write; a connection waits Idle for the next request.
// Backup downloads and restore uploads are long by nature: they have their
// deadlines pushed on as long as they move (progressWriter, progressReader),
// and a restore body must keep arriving at MinUploadRate bytes a second
// (after the first Read of time) or is cut off.
type Timeouts struct {
	Header, Read, Write, Idle time.Duration
	MinUploadRate             int64
}

// DefaultTimeouts are the timeouts a zero Timeouts field takes.
var DefaultTimeouts = Timeouts{Header: 10 * time.Second, Read: time.Minute, Write: time.Minute,
	Idle: 2 * time.Minute, MinUploadRate: 16 << 10}

// WithDefaults fills the zero fields from DefaultTimeouts.
func (t Timeouts) WithDefaults() Timeouts {
	d := DefaultTimeouts
	return Timeouts{Header: cmp.Or(t.Header, d.Header), Read: cmp.Or(t.Read, d.Read), Write: cmp.Or(t.Write, d.Write),
		Idle: cmp.Or(t.Idle, d.Idle), MinUploadRate: cmp.Or(t.MinUploadRate, d.MinUploadRate)}
}

// httpServer is the http.Server of a handler under the timeouts.
func (t Timeouts) httpServer(h http.Handler) *http.Server {
	t = t.WithDefaults()
	return &http.Server{Handler: h, ReadHeaderTimeout: t.Header, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}

// progressWriter pushes the connection's write deadline on by the write
// timeout at every write, so a long download runs as long as the client
// takes it, and a client that stops taking it is cut off.
type progressWriter struct {
	w       io.Writer
	rc      *http.ResponseController
	timeout time.Duration
}

func (p progressWriter) Write(b []byte) (int, error) {
	// An error means the connection cannot take deadlines (a test
	// recorder): the server's own WriteTimeout still holds.
	_ = p.rc.SetWriteDeadline(time.Now().Add(p.timeout))
	return p.w.Write(b)
}

// errUploadTooSlow is a restore upload cut off below the minimum rate: 408.
var errUploadTooSlow = errors.New("the upload came too slowly")

// progressReader reads a restore upload: each read pushes the read
// deadline on by the read timeout, and once the upload has waited for the
// client longer than the read timeout it must have come at the minimum
// rate, or it is cut off (a body at 1 byte every 2.5 s held its connection
// and spool for good). Only the time spent waiting for the client counts:
// a server slow to take the body in does not cut it off.
type progressReader struct {
	r      io.Reader
	rc     *http.ResponseController
	t      Timeouts
	waited time.Duration
	n      int64
}

func (p *progressReader) Read(b []byte) (int, error) {
	_ = p.rc.SetReadDeadline(time.Now().Add(p.t.Read))
	start := time.Now()
	n, err := p.r.Read(b)
	p.waited += time.Since(start)
	p.n += int64(n)
	if p.waited > p.t.Read && float64(p.n) < float64(p.t.MinUploadRate)*p.waited.Seconds() {
		return n, fmt.Errorf("%w: it came at %.0f bytes a second, slower than %d", errUploadTooSlow, float64(p.n)/p.waited.Seconds(), p.t.MinUploadRate)
	}
	return n, err
}

// uploads counts each user's restore uploads in progress and the bytes
// they have spooled, to cap both.
type uploads struct {
	mu     sync.Mutex
	active map[string]int
	spool  map[string]int64
}

// DefaultMaxUploadsPerUser is how many restore uploads one user may have
// in progress at once; past it: 429.
const DefaultMaxUploadsPerUser = 2

// DefaultMaxSpoolPerUser is how many bytes one user's restore uploads in
// progress may have spooled together; past it the upload is cut off: 413.
// It is below the two uploads' caps together, so that two large uploads
// cannot both take their whole allowance at once.
const DefaultMaxSpoolPerUser = 768 << 20

// begin takes one of the user's upload slots; it reports false when the
// user has max in progress already. end gives it back.
func (u *uploads) begin(user string, max int) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.active == nil {
		u.active, u.spool = make(map[string]int), make(map[string]int64)
	}
	if u.active[user] >= max {
		return false
	}
	u.active[user]++
	return true
}

func (u *uploads) end(user string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.active[user]--; u.active[user] <= 0 {
		delete(u.active, user)
	}
}

// spooled adds n bytes (negative: gives them back) to what the user's
// uploads hold; it reports false, adding nothing, when that would pass max.
func (u *uploads) spooled(user string, n, max int64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if n > 0 && u.spool[user]+n > max {
		return false
	}
	if u.spool[user] += n; u.spool[user] <= 0 {
		delete(u.spool, user)
	}
	return true
}

// spoolReader counts an upload's bytes against its user's spool allowance
// (uploads.spooled); release gives them back when the upload is done.
type spoolReader struct {
	r    io.Reader
	u    *uploads
	user string
	max  int64
	n    int64
}

func (s *spoolReader) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if n > 0 && !s.u.spooled(s.user, int64(n), s.max) {
		return 0, fmt.Errorf("%w: %s's restore uploads in progress would spool more than %d bytes together; wait for one to end",
			archive.ErrTooLarge, s.user, s.max)
	}
	s.n += int64(n)
	return n, err
}

func (s *spoolReader) release() { s.u.spooled(s.user, -s.n, s.max) }
