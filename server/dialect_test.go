package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// send calls as user with a raw body and the given Content-Type ("" sends
// none), as curl and the platform's scripts do.
func (p *platform) send(user, method, path, contentType, body string) answer {
	p.t.Helper()
	req, err := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.SetBasicAuth(user, user)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
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

// TestLenientBodies sends the bodies the platform's documentation and its
// clients send (unquoted, `=`, no JSON Content-Type): each is read as the
// platform reads it; a body that is not an object, or not readable even
// leniently, is refused with the failure body and changes nothing.
func TestLenientBodies(t *testing.T) {
	const owner = "/api/filesystem/folders/%2FAnalytics/permission/owner"
	const others = "/api/filesystem/folders/%2FAnalytics/permission/others"
	tests := []struct {
		name, path, contentType, body string
		code                          int
		fragment                      string // of the failure reason
		wantOwner                     string
		wantOthers                    model.Flags
	}{
		{"documented unquoted owner, curl -d", owner, "application/x-www-form-urlencoded", `{owner:analyst}`, 200, "", "analyst", model.Flags{Readable: true}},
		{"equals and single quotes, no Content-Type", owner, "", `{owner='viewer'}`, 200, "", "viewer", model.Flags{Readable: true}},
		{"unquoted flags with semicolons", others, "text/plain", `{readable:true;writable:TRUE;executable=false}`, 200, "", "admin", model.Flags{Readable: true, Writable: true}},
		{"strings for booleans, as Gson reads them", others, "", `{readable:"true",writable:'false',executable:false}`, 200, "", "admin", model.Flags{Readable: true}},
		{"a number for a name, as Gson reads it", owner, "", `{owner:12}`, 400, `unknown user "12"`, "admin", model.Flags{Readable: true}},
		{"a string no boolean", others, "", `{readable:yes}`, 400, "bad JSON body", "admin", model.Flags{Readable: true}},
		{"strict JSON still", owner, "application/json", `{"owner":"analyst"}`, 200, "", "analyst", model.Flags{Readable: true}},
		{"a bare name is not an object", owner, "", `analyst`, 400, "request body is a string, not a JSON object", "admin", model.Flags{Readable: true}},
		{"an array is not an object", owner, "", `[owner,analyst]`, 400, "request body is an array", "admin", model.Flags{Readable: true}},
		{"unreadable even leniently", owner, "", `{owner analyst}`, 400, "malformed JSON body", "admin", model.Flags{Readable: true}},
		{"two objects", owner, "", `{owner:analyst}{owner:viewer}`, 400, "data after the JSON value", "admin", model.Flags{Readable: true}},
		{"unknown member", owner, "", `{owner:analyst, boss:viewer}`, 400, "unknown field", "admin", model.Flags{Readable: true}},
		{"empty", owner, "", ``, 400, "request body is empty", "admin", model.Flags{Readable: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := demo(t)
			a := p.send("admin", http.MethodPut, tt.path, tt.contentType, tt.body)
			if tt.code != http.StatusOK {
				p.wantFailure(a, tt.code, tt.fragment)
			} else {
				p.want(a, http.StatusOK, nil)
			}
			var o model.Owner
			p.get("admin", owner, &o)
			var f model.OthersPermission
			p.get("admin", others, &f)
			if o.Owner != tt.wantOwner || (model.Flags{Executable: f.Executable, Readable: f.Readable, Writable: f.Writable}) != tt.wantOthers {
				t.Errorf("after %s: owner %q, others %+v; want %q, %+v", tt.body, o.Owner, f, tt.wantOwner, tt.wantOthers)
			}
		})
	}
}

// TestTrailingSlashRoutesAsWithout: every route answers a path with a
// trailing slash, or doubled slashes, as the path without, the root ref
// `%2F` included.
func TestTrailingSlashRoutesAsWithout(t *testing.T) {
	_, p := demo(t)
	for _, path := range []string{
		"/api/filesystem/folders/%2FAnalytics/permission",
		"/rest/connections",
		"/api/filesystem/folders/%2F",
		"/api/filesystem/root-folder",
		"/rest/user-management/logged-in-user",
	} {
		want := p.call("admin", http.MethodGet, path, nil)
		p.want(want, http.StatusOK, nil)
		for _, slashed := range []string{path + "/", path + "//", "/" + path, strings.Replace(path, "/", "//", 2)} {
			got := p.call("admin", http.MethodGet, slashed, nil)
			if got.code != http.StatusOK || string(got.body) != string(want.body) {
				t.Errorf("GET %s: %d %s; want as %s: %s", slashed, got.code, got.body, path, want.body)
			}
		}
	}
	// A write too, and an unknown path stays unknown.
	p.want(p.send("admin", http.MethodPut, "/api/filesystem/folders/%2FAnalytics/permission/owner/", "", `{owner:analyst}`), http.StatusOK, nil)
	p.wantFailure(p.call("admin", http.MethodGet, "/rest/no-such/", nil), http.StatusNotFound, "no such endpoint")
}
