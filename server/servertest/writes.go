package servertest

import (
	"net/http"
	"slices"
	"strings"
	"sync"
)

// WriteRecorder remembers every request that reached the platform and may
// change something: any method but GET and HEAD, the POST of a backup of
// chosen files aside. Its Wrap goes to Start.
type WriteRecorder struct {
	mu     sync.Mutex
	writes []string
}

// Wrap records the writes of the requests it passes to next.
func (w *WriteRecorder) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !strings.HasSuffix(r.URL.Path, "/backup") {
			w.mu.Lock()
			w.writes = append(w.writes, r.Method+" "+r.URL.Path)
			w.mu.Unlock()
		}
		next.ServeHTTP(rw, r)
	})
}

// Writes returns the writes recorded so far, as "METHOD path".
func (w *WriteRecorder) Writes() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.writes)
}
