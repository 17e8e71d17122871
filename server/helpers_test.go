package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// demo starts a server with the demo data over real HTTP.
func demo(t testing.TB) (*server.Server, *platform) {
	t.Helper()
	return start(t, server.Config{DataDir: t.TempDir(), DemoData: true})
}

// entriesOnDisk, set by TestRestoresOnDisk around the tests it runs again,
// has start's servers keep every restore's entries on disk.
var entriesOnDisk bool

func start(t testing.TB, cfg server.Config) (*server.Server, *platform) {
	t.Helper()
	cfg.BackupHooks.EntriesOnDisk = cfg.BackupHooks.EntriesOnDisk || entriesOnDisk
	pl := servertest.Start(t, cfg, nil)
	return pl.Server, &platform{t: t, base: pl.URL}
}

// platform calls the server as the demo users, whose passwords are their names.
type platform struct {
	t    testing.TB
	base string
}

// answer is a response: status, headers and the raw body.
type answer struct {
	code   int
	header http.Header
	body   []byte
}

// call sends a request as user (password = user name; "" sends no
// credentials). A string body goes as it is, anything else as JSON.
func (p *platform) call(user, method, path string, body any) answer {
	p.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			p.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, p.base+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	if user != "" {
		req.SetBasicAuth(user, user)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	return answer{code: resp.StatusCode, header: resp.Header, body: raw}
}

// get calls and wants 200, decoding the body into out.
func (p *platform) get(user, path string, out any) {
	p.t.Helper()
	p.want(p.call(user, http.MethodGet, path, nil), http.StatusOK, out)
}

// want checks the status and decodes the body into out (when not nil).
func (p *platform) want(a answer, code int, out any) {
	p.t.Helper()
	if a.code != code {
		p.t.Fatalf("status %d, want %d; body %s", a.code, code, a.body)
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			p.t.Fatalf("decode %s: %v", a.body, err)
		}
	}
}

// wantFailure checks a failure answer: status, the failure body, and a
// reason containing fragment.
func (p *platform) wantFailure(a answer, code int, fragment string) model.Failure {
	p.t.Helper()
	var f model.Failure
	p.want(a, code, &f)
	if f.Status != model.StatusFailure || !strings.Contains(f.Reason, fragment) {
		p.t.Fatalf("failure body %s, want status failure and a reason with %q", a.body, fragment)
	}
	return f
}

// connectionID returns the configuration id of the connection at path, as admin lists it.
func (p *platform) connectionID(path string) int64 {
	p.t.Helper()
	var list []model.ConnectionEntry
	p.get("admin", "/rest/connections", &list)
	for _, e := range list {
		if e.Path == path {
			return e.ID
		}
	}
	p.t.Fatalf("no connection %s in %v", path, list)
	return 0
}
