// Package servertest runs the embedded platform behind a loopback HTTP
// server for the tests of the packages that talk to it.
package servertest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/server"
	"github.com/google/uuid"
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

// TakingNoPaths is a wrap for Start that makes the platform answer 404
// where the real platform takes a file id or a UUID only, and the embedded
// one takes a path too: in the folder and file families (permissions,
// commands and creates included) and the v2 workbooks; backup, restore and
// the job endpoints take paths. A path is any ref that is neither digits
// nor a UUID, "%2FData" as well as "Data". The folder family's permission
// and rename/move addresses also answer 404 for a file that is no folder:
// the real platform addresses a file's under /api/filesystem/files/ (the
// files' permission link; what it answers under folders/ is inferred).
func TakingNoPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if takesNoPath(r.URL.EscapedPath()) || !folderAddressed(next, r) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"status":"failure","reason":"not found"}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

const foldersFamily = "/api/filesystem/folders/"

// takesNoPath reports whether an escaped request path names a file by
// path where the real platform takes none.
func takesNoPath(p string) bool {
	for _, family := range []string{foldersFamily, "/api/filesystem/files/", "/api/workbooks/", "/api/filesystem/workbooks/"} {
		rest, ok := strings.CutPrefix(p, family)
		if !ok {
			continue
		}
		seg, tail, _ := strings.Cut(rest, "/")
		if family == foldersFamily && (tail == "backup" || tail == "restore") ||
			family == "/api/workbooks/" && seg == "rollback" {
			return false
		}
		ref, err := url.PathUnescape(seg)
		if err != nil {
			return true
		}
		if _, err := strconv.ParseInt(ref, 10, 64); err == nil {
			return false
		}
		return len(ref) != 36 || uuid.Validate(ref) != nil
	}
	return false
}

// folderAddressed reports whether a request below a folder's address
// (other than backup and restore) names a folder the caller may read, by
// reading it as the caller; any other request passes.
func folderAddressed(next http.Handler, r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), foldersFamily)
	if !ok {
		return true
	}
	seg, tail, _ := strings.Cut(rest, "/")
	if tail == "" || tail == "backup" || tail == "restore" {
		return true
	}
	read := httptest.NewRequestWithContext(r.Context(), http.MethodGet, foldersFamily+seg, nil)
	read.Header.Set("Authorization", r.Header.Get("Authorization"))
	answer := httptest.NewRecorder()
	next.ServeHTTP(answer, read)
	return answer.Code == http.StatusOK
}
