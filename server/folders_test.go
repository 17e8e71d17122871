package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/store"
)

func fileID(t testing.TB, srv *server.Server, path string) int64 {
	t.Helper()
	f, err := srv.Store().FileByPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f.ID
}

func folderPath(id int64) string { return fmt.Sprintf("/api/filesystem/folders/%d", id) }

func TestAuthentication(t *testing.T) {
	_, p := demo(t)
	cases := []struct {
		name     string
		user     string
		password string
		code     int
	}{
		{"no credentials", "", "", http.StatusUnauthorized},
		{"wrong password", "admin", "nimda", http.StatusUnauthorized},
		{"unknown user", "nobody", "nobody", http.StatusUnauthorized},
		{"right password", "viewer", "viewer", http.StatusOK},
		{"right password again (cached)", "viewer", "viewer", http.StatusOK},
		{"wrong password after a right one", "viewer", "viewer2", http.StatusUnauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, p.base+"/api/filesystem/root-folder", nil)
			if tc.user != "" {
				req.SetBasicAuth(tc.user, tc.password)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.code {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.code)
			}
			if tc.code == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") != `Basic realm="dap"` {
				t.Fatalf("WWW-Authenticate %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	// Every route asks for credentials, unknown ones too, with a failure body.
	for _, path := range []string{"/rest/connections", "/api/connections/1/dependencies", "/no/such/route"} {
		p.wantFailure(p.call("", http.MethodGet, path, nil), http.StatusUnauthorized, "credentials")
	}
	p.wantFailure(p.call("admin", http.MethodGet, "/no/such/route", nil), http.StatusNotFound, "no such endpoint")
	wrongMethod := p.call("admin", http.MethodDelete, "/rest/connections", nil)
	p.wantFailure(wrongMethod, http.StatusMethodNotAllowed, "GET, POST")
	if wrongMethod.header.Get("Allow") != "GET, POST" {
		t.Fatalf("Allow %q", wrongMethod.header.Get("Allow"))
	}
}

func TestRootFolder(t *testing.T) {
	srv, p := demo(t)
	var root model.Folder
	p.get("admin", "/api/filesystem/root-folder", &root)
	if root.Name != "/" || root.Links.Href("self") != "/api/filesystem/root-folder" ||
		root.Links.Href("permission") != "/api/filesystem/folders/1/permission" || root.Links.Href("parent") != "" {
		t.Fatalf("root %+v", root)
	}
	names := map[string]int64{}
	for _, f := range root.Embedded.Folders {
		names[f.Name] = f.ID()
	}
	for _, want := range []string{"Users", "Data", "Analytics", "Visualization", "Exports", ".system"} {
		if names[want] != fileID(t, srv, "/"+want) {
			t.Errorf("root lists %s as %d, want %d", want, names[want], fileID(t, srv, "/"+want))
		}
	}
	// The viewer sees the root without the folders it may not read.
	var viewerRoot model.Folder
	p.get("viewer", "/api/filesystem/root-folder", &viewerRoot)
	for _, f := range viewerRoot.Embedded.Folders {
		if f.Name == "Exports" {
			t.Fatalf("viewer sees /Exports in %+v", viewerRoot)
		}
	}
	// The %2F path ref and the id both name the root.
	for _, ref := range []string{"%2F", "%2f", "1", root.UUID} {
		var f model.Folder
		p.get("viewer", "/api/filesystem/folders/"+ref, &f)
		if f.UUID != root.UUID || f.Links.Href("self") != "/api/filesystem/root-folder" {
			t.Errorf("ref %s: %+v", ref, f)
		}
	}
}

func TestReadFolder(t *testing.T) {
	srv, p := demo(t)
	ctx := context.Background()
	for _, path := range []string{"/Data/My Projects", "/Data/My Projects/Q1 2026", "/Data/My Projects/Q1 2026/Drafts+Notes"} {
		if _, err := srv.Store().CreateFile(ctx, store.NewFile{Path: path, OwnerID: 1}); err != nil {
			t.Fatal(err)
		}
	}
	data := fileID(t, srv, "/Data")
	deep := fileID(t, srv, "/Data/My Projects/Q1 2026")
	dataUUID := func() string {
		f, _ := srv.Store().FileByID(ctx, data)
		return f.UUID
	}()
	cases := []struct {
		name, user, ref string
		wantID          int64
		code            int
	}{
		{"by id", "admin", fmt.Sprint(data), data, 200},
		{"by uuid", "viewer", dataUUID, data, 200},
		{"by path", "viewer", url.PathEscape("/Data"), data, 200},
		{"by path without leading slash", "viewer", "Data", data, 200},
		{"path with spaces, several levels", "admin", "%2FData%2FMy%20Projects%2FQ1%202026", deep, 200},
		{"spaces written as +", "admin", "%2FData%2FMy+Projects%2FQ1+2026", deep, 200},
		{"a literal + in a name", "admin", "%2FData%2FMy%20Projects%2FQ1%202026%2FDrafts%2BNotes", fileID(t, srv, "/Data/My Projects/Q1 2026/Drafts+Notes"), 200},
		{"unknown id", "admin", "99999", 0, 404},
		{"unknown uuid", "admin", "0b4fd5b8-7d02-4a9c-8b48-9f0f6a1e2c3d", 0, 404},
		{"unknown path", "admin", "%2FData%2FNope", 0, 404},
		{"dot-dot", "admin", "%2FData%2F..%2FExports", 0, 400},
		{"empty segment", "admin", "%2FData%2F%2FConnections", 0, 400},
		{"trailing slash", "admin", "%2FData%2F", 0, 400},
		{"a file, not a folder", "admin", fmt.Sprint(fileID(t, srv, "/Data/Connections/Warehouse.dst")), 0, 404},
		{"private folder seen by viewer", "viewer", fmt.Sprint(fileID(t, srv, "/Exports")), 0, 404},
		{"private sub-folder seen by viewer", "viewer", "%2FAnalytics%2FFinance", 0, 404},
		{"private folder seen by its group", "analyst", fmt.Sprint(fileID(t, srv, "/Exports")), fileID(t, srv, "/Exports"), 200},
		{"someone's home seen by viewer", "viewer", "%2FUsers%2Fanalyst", 0, 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := p.call(tc.user, http.MethodGet, "/api/filesystem/folders/"+tc.ref, nil)
			if tc.code != 200 {
				p.wantFailure(a, tc.code, "")
				return
			}
			var f model.Folder
			p.want(a, 200, &f)
			if f.ID() != tc.wantID {
				t.Fatalf("read %d, want %d: %s", f.ID(), tc.wantID, a.body)
			}
			if f.Embedded.Folders == nil {
				t.Fatalf("_embedded.folders missing: %s", a.body)
			}
		})
	}
	// An invisible folder answers exactly like a missing one.
	hidden := p.call("viewer", http.MethodGet, folderPath(fileID(t, srv, "/Exports")), nil)
	missing := p.call("viewer", http.MethodGet, folderPath(99999), nil)
	if hidden.code != missing.code || len(hidden.header.Values("Content-Type")) != len(missing.header.Values("Content-Type")) {
		t.Fatalf("hidden %d %s, missing %d %s", hidden.code, hidden.body, missing.code, missing.body)
	}
	// Links of a folder: self, parent, permission; children listed with self links.
	var f model.Folder
	p.get("admin", folderPath(data), &f)
	if f.Name != "Data" || f.Links.Href("self") != folderPath(data) || f.Links.Href("parent") != folderPath(1) ||
		f.Links.Href("permission") != folderPath(data)+"/permission" {
		t.Fatalf("links %+v", f.Links)
	}
	children := map[string]bool{}
	for _, c := range f.Embedded.Folders {
		children[c.Name] = c.Links.Href("self") == folderPath(fileID(t, srv, "/Data/"+c.Name))
	}
	for _, want := range []string{"Connections", "ImportJobs", "DataLinks", "My Projects"} {
		if !children[want] {
			t.Errorf("child %s missing or mislinked in %+v", want, f.Embedded.Folders)
		}
	}
}

func TestPermissionReads(t *testing.T) {
	srv, p := demo(t)
	data := fileID(t, srv, "/Data")
	base := folderPath(data) + "/permission"

	var perm model.Permission
	p.get("viewer", base, &perm)
	if perm.Owner != "admin" || !perm.Others.Readable || perm.Others.Writable {
		t.Fatalf("permission %+v", perm)
	}
	for name, href := range map[string]string{"folder": folderPath(data), "self": base, "others": base + "/others",
		"owner": base + "/owner", "groups": base + "/groups"} {
		if perm.Links.Href(name) != href {
			t.Errorf("link %s = %q, want %q", name, perm.Links.Href(name), href)
		}
	}

	var groups model.GroupPermissions
	p.get("viewer", base+"/groups", &groups)
	got := map[string]model.Flags{}
	for _, g := range groups.Embedded.Groups {
		got[g.Name] = g.Flags
		if g.Links.Href("self") != base+"/groups/"+g.Name || g.Links.Href("permission") != base {
			t.Errorf("group %s links %+v", g.Name, g.Links)
		}
	}
	if got["analysts"] != (model.Flags{Readable: true, Executable: true}) || got["viewers"] != (model.Flags{Readable: true}) {
		t.Fatalf("groups %+v", got)
	}
	var one model.GroupPermission
	p.get("viewer", base+"/groups/analysts", &one)
	if one.Name != "analysts" || !one.Flags.Executable {
		t.Fatalf("group entry %+v", one)
	}

	var others model.OthersPermission
	p.get("viewer", base+"/others", &others)
	if !others.Readable || others.Writable || others.Links.Href("self") != base+"/others" || others.Links.Href("permission") != base {
		t.Fatalf("others %+v", others)
	}
	var owner model.Owner
	p.get("viewer", base+"/owner", &owner)
	if owner.Owner != "admin" || owner.Links.Href("self") != base+"/owner" {
		t.Fatalf("owner %+v", owner)
	}

	// A file's permission links to the file as `file`, as the real platform does.
	var filePerm model.Permission
	p.get("admin", folderPath(fileID(t, srv, "/Data/Connections/Warehouse.dst"))+"/permission", &filePerm)
	if filePerm.Links.Href("file") == "" || filePerm.Links.Href("folder") != "" {
		t.Fatalf("file permission links %+v", filePerm.Links)
	}
	// Invisible: every permission read is 404 for the viewer.
	exports := folderPath(fileID(t, srv, "/Exports")) + "/permission"
	for _, suffix := range []string{"", "/groups", "/groups/analysts", "/others", "/owner"} {
		p.wantFailure(p.call("viewer", http.MethodGet, exports+suffix, nil), http.StatusNotFound, "not found")
	}
	p.wantFailure(p.call("admin", http.MethodGet, base+"/groups/viewers2", nil), http.StatusNotFound, "viewers2")
}

func TestChangeOwner(t *testing.T) {
	srv, p := demo(t)
	data := folderPath(fileID(t, srv, "/Data")) + "/permission/owner"
	finance := folderPath(fileID(t, srv, "/Analytics/Finance")) + "/permission/owner"
	cases := []struct {
		name, user, path string
		body             any
		code             int
		wantOwner        string
	}{
		{"viewer may not change an owner", "viewer", data, model.Owner{Owner: "viewer"}, 403, ""},
		{"analyst with group rights only may not either", "analyst", data, model.Owner{Owner: "analyst"}, 403, ""},
		{"unknown user", "admin", data, model.Owner{Owner: "ghost"}, 400, ""},
		{"empty owner", "admin", data, map[string]string{"owner": ""}, 400, ""},
		{"malformed JSON", "admin", data, `{"owner":`, 400, ""},
		{"unknown field", "admin", data, `{"owner":"viewer","admin":true}`, 400, ""},
		{"two JSON values", "admin", data, `{"owner":"viewer"}{"owner":"admin"}`, 400, ""},
		{"empty body", "admin", data, "", 400, ""},
		{"administrator", "admin", data, model.Owner{Owner: "analyst"}, 200, "analyst"},
		{"current owner", "analyst", finance, model.Owner{Owner: "viewer"}, 200, "viewer"},
		{"previous owner no more", "analyst", finance, model.Owner{Owner: "analyst"}, 403, ""},
		{"invisible folder", "viewer", folderPath(fileID(t, srv, "/Exports")) + "/permission/owner", model.Owner{Owner: "viewer"}, 404, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := p.call(tc.user, http.MethodPut, tc.path, tc.body)
			if tc.code != 200 {
				p.wantFailure(a, tc.code, "")
				return
			}
			var got, read model.Owner
			p.want(a, 200, &got)
			p.get("admin", tc.path, &read)
			if got.Owner != tc.wantOwner || read.Owner != tc.wantOwner || got.Links.Href("self") != tc.path {
				t.Fatalf("answer %+v, read %+v, want %s", got, read, tc.wantOwner)
			}
		})
	}
}

func TestGroupPermissionWrites(t *testing.T) {
	srv, p := demo(t)
	if _, err := srv.Store().CreateGroup(context.Background(), "data team"); err != nil {
		t.Fatal(err)
	}
	exports := folderPath(fileID(t, srv, "/Exports")) + "/permission/groups"
	rw := model.Flags{Readable: true, Writable: true}
	steps := []struct {
		name, user, method, path string
		body                     any
		code                     int
		want                     map[string]model.Flags // the groups read afterwards
	}{
		{"viewer may not add itself", "viewer", "POST", exports, model.GroupPermission{Name: "viewers", Flags: rw}, 404, nil},
		{"create", "admin", "POST", exports, model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true}}, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}, "viewers": {Readable: true}}},
		{"viewer now sees it but may not write", "viewer", "PUT", exports + "/viewers", model.GroupPermission{Name: "viewers", Flags: rw}, 403, nil},
		{"create twice", "admin", "POST", exports, model.GroupPermission{Name: "viewers"}, 409, nil},
		{"create for an unknown group", "admin", "POST", exports, model.GroupPermission{Name: "auditors"}, 400, nil},
		{"create without a name", "admin", "POST", exports, `{"flags":{"readable":true}}`, 400, nil},
		{"malformed JSON", "admin", "POST", exports, `{"name":"viewers",`, 400, nil},
		{"change", "analyst", "PUT", exports + "/viewers", model.GroupPermission{Name: "viewers", Flags: rw}, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}, "viewers": rw}},
		{"change with the name only in the path", "admin", "PUT", exports + "/viewers", `{"flags":{"readable":true,"executable":true}}`, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}, "viewers": {Readable: true, Executable: true}}},
		{"change names another group in the body", "admin", "PUT", exports + "/viewers", model.GroupPermission{Name: "analysts"}, 400, nil},
		{"change an entry that is not there", "admin", "PUT", folderPath(fileID(t, srv, "/Users")) + "/permission/groups/viewers",
			model.GroupPermission{Name: "viewers"}, 404, nil},
		{"delete", "admin", "DELETE", exports + "/viewers", nil, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}}},
		{"delete again", "admin", "DELETE", exports + "/viewers", nil, 404, nil},
		{"delete an unknown group", "admin", "DELETE", exports + "/auditors", nil, 404, nil},
		{"create for a group with a space", "admin", "POST", exports, model.GroupPermission{Name: "data team", Flags: rw}, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}, "data team": rw}},
		{"change it with + for the space", "admin", "PUT", exports + "/data+team", `{"flags":{"readable":true}}`, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}, "data team": {Readable: true}}},
		{"delete it with %20", "admin", "DELETE", exports + "/data%20team", nil, 200,
			map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			a := p.call(st.user, st.method, st.path, st.body)
			if st.code != 200 {
				p.wantFailure(a, st.code, "")
				return
			}
			var answer, read model.GroupPermissions
			p.want(a, 200, &answer)
			p.get("admin", exports, &read)
			for _, gp := range []model.GroupPermissions{answer, read} {
				got := map[string]model.Flags{}
				for _, g := range gp.Embedded.Groups {
					got[g.Name] = g.Flags
				}
				if fmt.Sprint(got) != fmt.Sprint(st.want) {
					t.Fatalf("groups %v, want %v", got, st.want)
				}
			}
		})
	}
}

func TestChangeOthers(t *testing.T) {
	srv, p := demo(t)
	data := folderPath(fileID(t, srv, "/Data")) + "/permission/others"
	p.wantFailure(p.call("viewer", http.MethodPut, data, model.Flags{Readable: true, Writable: true}), http.StatusForbidden, "write")
	p.wantFailure(p.call("admin", http.MethodPut, data, `{"readable":"yes"}`), http.StatusBadRequest, "JSON")

	var answer, read model.OthersPermission
	p.want(p.call("admin", http.MethodPut, data, model.Flags{Readable: true, Executable: true}), 200, &answer)
	p.get("admin", data, &read)
	for _, o := range []model.OthersPermission{answer, read} {
		if !o.Readable || o.Writable || !o.Executable || o.Links.Href("self") != data {
			t.Fatalf("others %+v", o)
		}
	}
	// Closing a folder to others hides it from the viewer (whose group still reads /Data).
	p.want(p.call("admin", http.MethodPut, folderPath(fileID(t, srv, "/Visualization"))+"/permission/others", model.Flags{}), 200, nil)
	p.wantFailure(p.call("viewer", http.MethodGet, folderPath(fileID(t, srv, "/Visualization")), nil), http.StatusNotFound, "")
	// A client may echo the links of a read back.
	p.want(p.call("admin", http.MethodPut, data, read), 200, nil)
}

func TestBodyCap(t *testing.T) {
	srv, p := start(t, server.Config{DataDir: t.TempDir(), DemoData: true, MaxBodyBytes: 64})
	path := folderPath(fileID(t, srv, "/Data")) + "/permission/owner"
	big := `{"owner":"` + strings.Repeat("a", 100) + `"}`
	p.wantFailure(p.call("admin", http.MethodPut, path, big), http.StatusRequestEntityTooLarge, "64 bytes")
}

// A folder read below the root lists only the child folders the user may read.
func TestReadFolderHidesChildren(t *testing.T) {
	srv, p := demo(t)
	// Open inherits the others' read flag of /Analytics; Finance is the analysts' only.
	if _, err := srv.Store().CreateFile(context.Background(), store.NewFile{Path: "/Analytics/Open", OwnerID: 1}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		user string
		want string
	}{
		{"viewer", "Open"},
		{"analyst", "Finance,Open"},
		{"admin", "Finance,Open"},
	}
	for _, tc := range cases {
		t.Run(tc.user, func(t *testing.T) {
			var f model.Folder
			p.get(tc.user, folderPath(fileID(t, srv, "/Analytics")), &f)
			var names []string
			for _, c := range f.Embedded.Folders {
				names = append(names, c.Name)
			}
			if got := strings.Join(names, ","); got != tc.want {
				t.Fatalf("%s sees %q in /Analytics, want %q", tc.user, got, tc.want)
			}
		})
	}
}
