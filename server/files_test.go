package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

func filePath(id int64) string { return fmt.Sprintf("/api/filesystem/files/%d", id) }

func TestReadFile(t *testing.T) {
	srv, p := demo(t)
	orders := fileID(t, srv, "/Data/ImportJobs/Orders.imp")
	hidden := fileID(t, srv, "/Exports/Sales by Region.exp")
	f, err := srv.Store().FileByID(t.Context(), orders)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		user string
		ref  string
		code int
	}{
		{"by id", "admin", fmt.Sprint(orders), http.StatusOK},
		{"by uuid", "viewer", f.UUID, http.StatusOK},
		{"by path", "viewer", url.PathEscape(f.Path), http.StatusOK},
		{"closed to the viewer", "viewer", fmt.Sprint(hidden), http.StatusNotFound},
		{"missing", "admin", "999999", http.StatusNotFound},
		{"bad path", "admin", url.PathEscape("/Data/../Exports"), http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := p.call(tc.user, http.MethodGet, "/api/filesystem/files/"+tc.ref, nil)
			if tc.code != http.StatusOK {
				failure := p.wantFailure(a, tc.code, "")
				if strings.Contains(failure.Reason, "Sales by Region") {
					t.Fatalf("the refusal names the hidden file: %s", failure.Reason)
				}
				return
			}
			var got model.File
			p.want(a, http.StatusOK, &got)
			if got.Name != "Orders.imp" || got.UUID != f.UUID || got.ID() != orders || got.Path != f.Path {
				t.Fatalf("file %+v", got)
			}
			if got.Links.Href("permission") != filePath(orders)+"/permission" {
				t.Fatalf("permission link %q", got.Links.Href("permission"))
			}
		})
	}
}

func TestFilePermissionFamily(t *testing.T) {
	srv, p := demo(t)
	orders := filePath(fileID(t, srv, "/Data/ImportJobs/Orders.imp"))
	hidden := filePath(fileID(t, srv, "/Exports/Sales by Region.exp"))

	var perm model.Permission
	p.get("admin", orders+"/permission", &perm)
	if perm.Owner != "analyst" || perm.Links.Href("file") != orders || perm.Links.Href("folder") != "" ||
		perm.Links.Href("groups") != orders+"/permission/groups" {
		t.Fatalf("permission %+v", perm)
	}

	writes := []struct {
		name   string
		method string
		path   string
		body   any
	}{
		{"others", http.MethodPut, "/permission/others", model.Flags{Readable: true, Executable: true}},
		{"group create", http.MethodPost, "/permission/groups", model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true}}},
		{"group change", http.MethodPut, "/permission/groups/viewers", model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true, Executable: true}}},
		{"group delete", http.MethodDelete, "/permission/groups/viewers", nil},
		{"owner", http.MethodPut, "/permission/owner", model.Owner{Owner: "viewer"}},
	}
	for _, tc := range writes {
		t.Run(tc.name, func(t *testing.T) {
			// The viewer sees Orders.imp but may not change it, and may not see the export at all.
			p.wantFailure(p.call("viewer", tc.method, orders+tc.path, tc.body), http.StatusForbidden, "permission required")
			p.wantFailure(p.call("viewer", tc.method, hidden+tc.path, tc.body), http.StatusNotFound, "")
			p.want(p.call("admin", tc.method, orders+tc.path, tc.body), http.StatusOK, nil)
		})
	}
	var owner model.Owner
	p.get("admin", orders+"/permission/owner", &owner)
	if owner.Owner != "viewer" {
		t.Fatalf("owner %q after the change", owner.Owner)
	}
	var others model.OthersPermission
	p.get("viewer", orders+"/permission/others", &others)
	if !others.Readable || others.Writable || !others.Executable {
		t.Fatalf("others %+v after the change", others)
	}
	p.wantFailure(p.call("viewer", http.MethodGet, hidden+"/permission", nil), http.StatusNotFound, "")
}

func TestKindLists(t *testing.T) {
	_, p := demo(t)
	importFamily := []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp", "/Data/ImportJobs/Products.imp",
		"/Data/ImportJobs/Events.imp", "/Data/DataLinks/Orders With Errors.lnk", "/Data/ImportJobs/Customer List.imp"}
	cases := []struct {
		list   string
		admin  []string // paths the admin is listed
		viewer []string // the viewer's
	}{
		// Imports, uploads and links in one list, by configuration id, as the platform lists them.
		{"/rest/import-job", append(slices.Clip(importFamily), "/Users/analyst/Regions.upl"), importFamily},
		{"/rest/workbook", []string{"/Analytics/Sales.wbk", "/Analytics/Sales by Region.wbk", "/Analytics/Finance/Revenue by Product.wbk", "/Analytics/Customers per Region.wbk"},
			[]string{"/Analytics/Sales.wbk", "/Analytics/Sales by Region.wbk", "/Analytics/Customers per Region.wbk"}},
		{"/rest/export-job", []string{"/Exports/Sales by Region.exp", "/Exports/Customers per Region.exp"}, nil},
		{"/rest/infographics", []string{"/Visualization/Sales Dashboard.gra"}, []string{"/Visualization/Sales Dashboard.gra"}},
	}
	for _, tc := range cases {
		t.Run(tc.list, func(t *testing.T) {
			var all, seen []model.FileEntry
			p.get("admin", tc.list, &all)
			p.get("viewer", tc.list, &seen)
			if got := entryPaths(all); !slices.Equal(got, tc.admin) {
				t.Fatalf("admin's list %v, want %v", got, tc.admin)
			}
			if got := entryPaths(seen); !slices.Equal(got, tc.viewer) {
				t.Fatalf("viewer's list %v, want %v", got, tc.viewer)
			}
			for _, e := range all {
				var cfg model.Configuration
				a := p.call("viewer", http.MethodGet, fmt.Sprintf("%s/%d", tc.list, e.ID), nil)
				if !slices.Contains(tc.viewer, e.Path) {
					p.wantFailure(a, http.StatusNotFound, "no ")
					continue
				}
				p.want(a, http.StatusOK, &cfg)
				if cfg.File.Path != e.Path || cfg.File.UUID != e.UUID {
					t.Fatalf("read of %d: %+v, listed as %+v", e.ID, cfg.File, e)
				}
			}
		})
	}
	t.Run("another kind's id", func(t *testing.T) {
		var workbooks []model.FileEntry
		p.get("admin", "/rest/workbook", &workbooks)
		p.wantFailure(p.call("admin", http.MethodGet, fmt.Sprintf("/rest/import-job/%d", workbooks[0].ID), nil), http.StatusNotFound, "no import-job")
		p.wantFailure(p.call("admin", http.MethodGet, "/rest/import-job/x", nil), http.StatusBadRequest, "not a positive number")
	})
	// The paths this server once invented are gone: the platform has neither.
	for _, gone := range []string{"/rest/data-link", "/rest/export-jobs"} {
		if a := p.call("admin", http.MethodGet, gone, nil); a.code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", gone, a.code)
		}
	}
}

func entryPaths(entries []model.FileEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Path)
	}
	return out
}

func TestFolderManagement(t *testing.T) {
	srv, p := demo(t)
	folders := "/api/filesystem/folders/"
	ref := func(path string) string { return folders + url.PathEscape(path) }
	var made model.Folder
	p.want(p.call("admin", http.MethodPost, ref("/Data"), model.FolderName{Name: "Q3 Reports"}), http.StatusCreated, &made)
	if made.Name != "Q3 Reports" || made.ParentID() != fileID(t, srv, "/Data") {
		t.Fatalf("created %+v", made)
	}
	q3 := fmt.Sprint(made.ID())

	steps := []struct {
		name   string
		user   string
		method string
		path   string
		body   any
		code   int
		reason string
	}{
		{"create where the viewer may not write", "viewer", http.MethodPost, ref("/Data"), model.FolderName{Name: "Mine"}, http.StatusForbidden, "write permission required"},
		{"create where the viewer may not see", "viewer", http.MethodPost, ref("/Exports"), model.FolderName{Name: "Mine"}, http.StatusNotFound, ""},
		{"create a taken name", "admin", http.MethodPost, ref("/Data"), model.FolderName{Name: "Connections"}, http.StatusConflict, "/Data/Connections already exists"},
		{"create with a slash", "admin", http.MethodPost, ref("/Data"), model.FolderName{Name: "a/b"}, http.StatusBadRequest, "folder name"},
		{"create dot-dot", "admin", http.MethodPost, ref("/Data"), model.FolderName{Name: ".."}, http.StatusBadRequest, "folder name"},
		{"create in a file", "admin", http.MethodPost, ref("/Data/ImportJobs/Orders.imp"), model.FolderName{Name: "x"}, http.StatusBadRequest, "not a folder"},
		{"create with an unknown field", "admin", http.MethodPost, ref("/Data"), `{"name":"x","owner":"viewer"}`, http.StatusBadRequest, "unknown field"},
		{"rename the root", "admin", http.MethodPut, folders + "1/name", model.FolderName{Name: "x"}, http.StatusBadRequest, "root"},
		{"rename, viewer", "viewer", http.MethodPut, folders + q3 + "/name", model.FolderName{Name: "x"}, http.StatusForbidden, "write permission required"},
		{"rename onto a sibling", "admin", http.MethodPut, folders + q3 + "/name", model.FolderName{Name: "ImportJobs"}, http.StatusConflict, "already exists"},
		{"rename", "admin", http.MethodPut, folders + q3 + "/name", model.FolderName{Name: "Q3"}, http.StatusOK, ""},
		{"create inside", "admin", http.MethodPost, ref("/Data/Q3"), model.FolderName{Name: "Inner"}, http.StatusCreated, ""},
		{"move into itself", "admin", http.MethodPut, folders + q3 + "/parent", `{"parentFolder":"/Data/Q3/Inner"}`, http.StatusBadRequest, "inside itself"},
		{"move to a folder the viewer may not see", "viewer", http.MethodPut, folders + q3 + "/parent", `{"parentFolder":"/Exports"}`, http.StatusForbidden, ""},
		{"move to a missing folder", "admin", http.MethodPut, folders + q3 + "/parent", `{"parentFolder":"/Nowhere"}`, http.StatusNotFound, ""},
		{"move without a target", "admin", http.MethodPut, folders + q3 + "/parent", `{}`, http.StatusBadRequest, "parentFolder"},
		{"move by path", "admin", http.MethodPut, folders + q3 + "/parent", `{"parentFolder":"/Analytics"}`, http.StatusOK, ""},
		{"move by file id", "admin", http.MethodPut, folders + q3 + "/parent", fmt.Sprintf(`{"parentFolder":%d}`, fileID(t, srv, "/Exports")), http.StatusOK, ""},
		{"delete a folder with contents", "admin", http.MethodDelete, folders + q3, nil, http.StatusConflict, "not empty"},
		{"delete, viewer", "viewer", http.MethodDelete, ref("/Exports/Q3/Inner"), nil, http.StatusNotFound, ""},
		{"delete the empty inner folder", "admin", http.MethodDelete, ref("/Exports/Q3/Inner"), nil, http.StatusOK, ""},
		{"delete the root", "admin", http.MethodDelete, folders + "1", nil, http.StatusBadRequest, "root"},
		{"delete a file", "admin", http.MethodDelete, ref("/Data/ImportJobs/Orders.imp"), nil, http.StatusBadRequest, "not a folder"},
	}
	for _, st := range steps {
		a := p.call(st.user, st.method, st.path, st.body)
		if st.code >= 400 {
			p.wantFailure(a, st.code, st.reason)
			continue
		}
		p.want(a, st.code, nil)
	}
	// What the moves and renames carried along kept its identity.
	if got := fileID(t, srv, "/Exports/Q3"); fmt.Sprint(got) != q3 {
		t.Fatalf("/Exports/Q3 is file %d, want %s", got, q3)
	}
	p.want(p.call("admin", http.MethodDelete, folders+q3, nil), http.StatusOK, nil)
	p.wantFailure(p.call("admin", http.MethodGet, folders+q3, nil), http.StatusNotFound, "")
}

func TestFolderMoveCarriesContents(t *testing.T) {
	srv, p := demo(t)
	finance := fileID(t, srv, "/Analytics/Finance")
	p.want(p.call("analyst", http.MethodPut, fmt.Sprintf("/api/filesystem/folders/%d/name", finance), model.FolderName{Name: "Ledger"}), http.StatusOK, nil)
	var workbooks []model.FileEntry
	p.get("analyst", "/rest/workbook", &workbooks)
	if !slices.Contains(entryPaths(workbooks), "/Analytics/Ledger/Revenue by Product.wbk") {
		t.Fatalf("workbooks after the rename: %v", entryPaths(workbooks))
	}
	// The viewer still sees nothing of it.
	p.get("viewer", "/rest/workbook", &workbooks)
	if slices.ContainsFunc(entryPaths(workbooks), func(s string) bool { return strings.Contains(s, "Ledger") }) {
		t.Fatalf("the viewer's workbooks: %v", entryPaths(workbooks))
	}
}

func TestUserManagement(t *testing.T) {
	_, p := demo(t)
	var users model.Users
	p.get("admin", "/rest/user-management/users?maxResults=1000", &users)
	if users.Total != 3 || len(users.Elements) != 3 {
		t.Fatalf("users %+v", users)
	}
	byName := map[string]model.User{}
	for _, u := range users.Elements {
		byName[u.Username] = u
	}
	if !slices.Equal(byName["viewer"].Groups, []string{"viewers"}) || !slices.Equal(byName["admin"].Roles, []string{model.RoleAdmin}) {
		t.Fatalf("users %+v", users.Elements)
	}
	p.get("admin", "/rest/user-management/users?maxResults=1&firstResult=1", &users)
	if users.Total != 3 || len(users.Elements) != 1 || users.Elements[0].Username != "analyst" {
		t.Fatalf("second page %+v", users)
	}
	var groups model.Groups
	p.get("admin", "/rest/user-management/groups", &groups)
	if groups.Total != 2 || groups.Elements[0].Name != "analysts" || groups.Elements[1].Name != "viewers" {
		t.Fatalf("groups %+v", groups)
	}
	for _, path := range []string{"/rest/user-management/users", "/rest/user-management/groups"} {
		p.wantFailure(p.call("viewer", http.MethodGet, path, nil), http.StatusForbidden, "administrator")
		p.wantFailure(p.call("", http.MethodGet, path, nil), http.StatusUnauthorized, "")
	}
	p.wantFailure(p.call("admin", http.MethodGet, "/rest/user-management/users?maxResults=-1", nil), http.StatusBadRequest, "maxResults")
	// lo+maxResults overflowed to a negative bound and the handler panicked.
	p.get("admin", "/rest/user-management/users?firstResult=1&maxResults=9223372036854775807", &users)
	if users.Total != 3 || len(users.Elements) != 2 {
		t.Fatalf("huge window %+v", users)
	}
	var me model.User
	p.get("viewer", "/rest/user-management/logged-in-user", &me)
	if me.Username != "viewer" || !slices.Equal(me.Groups, []string{"viewers"}) {
		t.Fatalf("logged-in user %+v", me)
	}
}

// The demo has one data-driven chain from an import that a sequential
// trigger runs end to end, and chains that reach a workbook that is not
// data-driven, which the trigger refuses.
func TestDemoChains(t *testing.T) {
	srv, p := demo(t)
	trigger := func(path string) model.ExecutionPlan {
		var plan model.ExecutionPlan
		a := p.call("admin", http.MethodPost, "/api/job-execution/sequential-trigger",
			model.SequentialTrigger{Variables: map[string]string{}, FileIDs: []int64{fileID(t, srv, path)}})
		p.want(a, http.StatusOK, &plan)
		return plan
	}
	plan := trigger("/Data/ImportJobs/Customer List.imp")
	if plan.Status != model.StatusSuccess || len(plan.ExecutionPlan) != 3 || !plan.ExecutionPlan[2].Trigger {
		t.Fatalf("the data-driven chain: %+v", plan)
	}
	plan = trigger("/Data/ImportJobs/Products.imp")
	if plan.Status != model.StatusFailure || !strings.Contains(plan.Reason, "not data-driven") {
		t.Fatalf("the refused chain: %+v", plan)
	}
}
