// Package servertest runs the embedded platform behind a loopback HTTP
// server for the tests of the packages that talk to it.
package servertest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/server"
	"golang.org/x/crypto/bcrypt"
)

// Platform is the embedded platform serving on a loopback address.
type Platform struct {
	URL    string
	Server *server.Server
	http   *httptest.Server
	once   sync.Once
	err    error
}

// Start runs the platform on cfg, with wrap (when not nil) in front of its
// handler. An empty DataDir takes a directory of the test's own; a zero
// PasswordCost takes bcrypt's minimum (TestConfig). The
// platform stops when the test ends, if Close has not stopped it before.
func Start(t testing.TB, cfg server.Config, wrap func(http.Handler) http.Handler) *Platform {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	srv, err := server.New(TestConfig(cfg))
	if err != nil {
		t.Fatalf("start the platform: %v", err)
	}
	h := srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	p := &Platform{Server: srv, http: httptest.NewServer(h)}
	p.URL = p.http.URL
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("stop the platform: %v", err)
		}
	})
	return p
}

// TestConfig is cfg with bcrypt's minimum cost for passwords unless cfg
// sets one: the default cost takes seconds a check under the race
// detector, paid by every user's first request to every test's server.
func TestConfig(cfg server.Config) server.Config {
	if cfg.PasswordCost == 0 {
		cfg.PasswordCost = bcrypt.MinCost
	}
	return cfg
}

// Close stops serving, then closes the platform; later calls only return
// the first call's error.
func (p *Platform) Close() error {
	p.once.Do(func() {
		p.http.Close()
		p.err = p.Server.Close()
	})
	return p.err
}

// Lacking returns a wrap for Start that makes the platform answer like an
// older release or one without a plug-in: requests whose path starts with
// one of the prefixes get 404 with a body that is not the platform's
// failure JSON, as a servlet container sends for an unknown address.
func Lacking(prefixes ...string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, p := range prefixes {
				if strings.HasPrefix(r.URL.Path, p) {
					w.Header().Set("Content-Type", "text/html")
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte("<html><body>Not Found</body></html>"))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// LackingPostBackup is a wrap for Start that makes the platform answer as
// a release before 7.2.6, which backs up a whole folder (GET) but not
// chosen files: a POST to a backup address gets 405, as a servlet
// container answers a method the resource lacks.
func LackingPostBackup(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/backup") {
			w.Header().Set("Allow", "GET")
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusMethodNotAllowed)
			w.Write([]byte("<html><body>Method Not Allowed</body></html>"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// TakingNoPaths is a wrap for Start that makes the platform answer a path
// in the folder and file families with 404, as the real platform does:
// they take a file id or a UUID there; backup, restore and the job
// endpoints take paths too.
func TakingNoPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.EscapedPath()
		for _, family := range []string{"/api/filesystem/folders/%2F", "/api/filesystem/files/%2F"} {
			if strings.HasPrefix(p, family) && !strings.HasSuffix(p, "/backup") && !strings.HasSuffix(p, "/restore") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(`{"status":"failure","reason":"not found"}`))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
