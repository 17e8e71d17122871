package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
)

// TestWorkbookDataFollowsItsDataPermission is the reproduction: a
// workbook's dataPermission (its v2 member) was kept and shown but
// enforced nowhere, so anyone who could read the workbook downloaded the
// data its owner kept to himself, read its sheet details, or copied it
// through a workbook of his own. Now the data follows the member: its
// owner and administrators, others when permissionForOthers is true, the
// groups it gives read. A writer who is not the owner may not change it.
func TestWorkbookDataFollowsItsDataPermission(t *testing.T) {
	srv, p := demo(t)
	for _, path := range []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp", "/Analytics/Sales.wbk"} {
		if st := p.runToEnd("admin", path); st.JobStatus != model.StateCompleted {
			t.Fatalf("%s: %+v", path, st)
		}
	}
	sales := storeFile(t, srv, "/Analytics/Sales.wbk")
	reads := []string{
		fmt.Sprintf("/rest/data/workbook/%d", sales.ConfigID),
		fmt.Sprintf("/rest/data/workbook/%d/Sales/download", sales.ConfigID),
		fmt.Sprintf("/rest/sheet-details/%d", sales.ConfigID),
		fmt.Sprintf("/rest/sheet-details/%d/Sales", sales.ConfigID),
		"/rest/sheet-details?file=" + url.QueryEscape(sales.Path) + "&sheetName=Sales",
	}
	wantReads := func(user string, code int) {
		t.Helper()
		for _, path := range reads {
			if a := p.call(user, http.MethodGet, path, nil); a.code != code {
				t.Fatalf("%s GET %s: %d, want %d: %s", user, path, a.code, code, a.body)
			}
		}
	}
	wantReads("viewer", http.StatusOK) // no dataPermission: the read flags decide

	setDataPermission := func(user, permission string, code int) {
		t.Helper()
		var cfg model.Configuration
		p.get(user, configPath("/rest/workbook", sales.ConfigID), &cfg)
		if cfg.Extra == nil {
			cfg.Extra = map[string]json.RawMessage{}
		}
		cfg.Extra["dataPermission"] = json.RawMessage(permission)
		p.want(p.call(user, http.MethodPut, configPath("/rest/workbook", sales.ConfigID), cfg), code, nil)
	}
	setDataPermission("analyst", `{"groups":{},"owner":"analyst","permissionForOthers":false}`, http.StatusOK)
	wantReads("viewer", http.StatusForbidden)
	wantReads("analyst", http.StatusOK)
	wantReads("admin", http.StatusOK)
	// The workbook itself stays readable, its member included.
	var v2 map[string]map[string]json.RawMessage
	p.get("viewer", "/api/workbooks/"+sales.UUID, &v2)
	if !strings.Contains(string(v2["workbook"]["dataPermission"]), `"permissionForOthers":false`) {
		t.Fatalf("v2 read %s", v2["workbook"]["dataPermission"])
	}

	// A workbook of the viewer's own reading it finds no such input.
	p.restore("admin", "/Users/viewer", buildArchive(t, []string{archive.SectionOwner}, archiveFile{path: "copy.wbk",
		cfg: workbookConfig("SELECT * FROM input1", model.SourceRef{Path: sales.Path}), meta: &archive.FileMeta{Owner: "viewer"}}), "includeOwner")
	if st := p.runToEnd("viewer", "/Users/viewer/copy.wbk"); st.JobStatus != model.StateError || !strings.Contains(st.Reason, "not found") {
		t.Fatalf("the viewer's copy: %+v, want ERROR answering the input as a missing one", st)
	}

	// A writer who is not the owner may not open the data up.
	p.want(p.call("admin", http.MethodPost, filePath(sales.ID)+"/permission/groups",
		model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true, Writable: true}}), http.StatusOK, nil)
	setDataPermission("viewer", `{"groups":{},"owner":"analyst","permissionForOthers":true}`, http.StatusForbidden)
	wantReads("viewer", http.StatusForbidden)

	// Nor may a restore over one by a writer who is not its owner: the
	// analyst writes the administrator's workbook, and restores it open.
	closed := `{"groups":{},"owner":"admin","permissionForOthers":false}`
	p.want(p.call("admin", http.MethodPost, "/rest/workbook", `{file:{path:"/Analytics/Closed.wbk"},properties:{sql:["SELECT 1"]},`+
		`dataPermission:`+closed+`}`), http.StatusOK, nil)
	open := workbookConfig("SELECT 1")
	open.Extra = map[string]json.RawMessage{"dataPermission": json.RawMessage(`{"groups":{},"owner":"admin","permissionForOthers":true}`)}
	res := p.restore("analyst", "/Analytics", buildArchive(t, nil, archiveFile{path: "Closed.wbk", cfg: open}), "overwrite")
	var kept model.Configuration
	p.get("admin", configPath("/rest/workbook", storeFile(t, srv, "/Analytics/Closed.wbk").ConfigID), &kept)
	if len(res.KeptHidden) != 1 || !strings.Contains(res.KeptHidden[0].Reason, "dataPermission") ||
		!model.SameMember(kept.Extra["dataPermission"], json.RawMessage(closed)) {
		t.Fatalf("an analyst's restore over the administrator's workbook: %+v, dataPermission now %s", res, kept.Extra["dataPermission"])
	}

	// Groups the member gives read, and others, may read.
	setDataPermission("analyst", `{"groups":{"viewers":{"readable":true}},"owner":"analyst","permissionForOthers":false}`, http.StatusOK)
	wantReads("viewer", http.StatusOK)
	setDataPermission("analyst", `{"groups":{},"owner":"analyst","permissionForOthers":true}`, http.StatusOK)
	wantReads("viewer", http.StatusOK)
}

// TestNoEndpointGivesAViewerMore probes, as the viewer and the analyst,
// the endpoints of the last wave: user management is the administrators'
// alone and never answers a hash; SetTags and DELETE of files need write
// and answer hidden files as missing.
func TestNoEndpointGivesAViewerMore(t *testing.T) {
	srv, p := demo(t)
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	hidden := storeFile(t, srv, "/Exports/Sales by Region.exp")
	cases := []struct {
		user, method, path string
		body               any
		code               int
	}{
		{"viewer", http.MethodGet, "/rest/user-management/users", nil, 403},
		{"analyst", http.MethodGet, "/rest/user-management/users/admin", nil, 403},
		{"viewer", http.MethodPost, "/rest/user-management/users", `{"username":"x","email":"x@y.z","roles":["ADMIN"]}`, 403},
		{"analyst", http.MethodPut, "/rest/user-management/users/viewer", `{"roles":["ADMIN"]}`, 403},
		{"viewer", http.MethodDelete, "/rest/user-management/users/admin", nil, 403},
		{"viewer", http.MethodPut, "/rest/user-management/password/admin", "owned", 403},
		{"analyst", http.MethodGet, "/rest/user-management/groups", nil, 403},
		{"viewer", http.MethodPost, "/rest/user-management/groups", `{"name":"mine"}`, 403},
		{"viewer", http.MethodGet, "/rest/user-management/roles", nil, 403},
		{"viewer", http.MethodPut, filePath(orders.ID) + "/command", `{"_type":"SetTags","tags":["x"]}`, 403},
		{"viewer", http.MethodPut, filePath(hidden.ID) + "/command", `{"_type":"SetTags","tags":["x"]}`, 404},
		{"viewer", http.MethodDelete, fmt.Sprintf("/api/filesystem/files?fileIds=%d", orders.ID), nil, 403},
		{"analyst", http.MethodDelete, fmt.Sprintf("/api/filesystem/files?fileIds=%d", storeFile(t, srv, "/Users/viewer").ID), nil, 404},
		{"viewer", http.MethodDelete, fmt.Sprintf("/api/filesystem/files?fileIds=%d", hidden.ID), nil, 404},
		{"viewer", http.MethodGet, "/api/workbooks/" + storeFile(t, srv, "/Analytics/Finance/Revenue by Product.wbk").UUID, nil, 404},
		{"viewer", http.MethodPut, "/api/workbooks/" + storeFile(t, srv, "/Analytics/Sales.wbk").UUID, `{"workbook":{}}`, 403},
	}
	for _, tc := range cases {
		a := p.call(tc.user, tc.method, tc.path, tc.body)
		if a.code != tc.code {
			t.Errorf("%s %s %s: %d, want %d: %s", tc.user, tc.method, tc.path, a.code, tc.code, a.body)
		}
	}
	for _, user := range []string{"viewer", "analyst", "admin"} {
		for _, path := range []string{"/rest/user-management/logged-in-user", "/rest/user-management/users/" + user} {
			a := p.call(user, http.MethodGet, path, nil)
			if strings.Contains(string(a.body), "$2") || strings.Contains(strings.ToLower(string(a.body)), "hash") {
				t.Errorf("%s GET %s answers a hash: %s", user, path, a.body)
			}
		}
	}
}

// TestWorkbookReadsHideLinksToHiddenWorkbooks: a workbook the viewer may
// read whose sheet refers to a sheet of a workbook he may not see named
// that workbook by uuid alone in the v1 read, but by path in the v2 read.
func TestWorkbookReadsHideLinksToHiddenWorkbooks(t *testing.T) {
	srv, p := demo(t)
	p.want(p.call("admin", http.MethodPost, "/rest/workbook", `{file:{path:"/Analytics/Refers.wbk"},properties:{sql:["SELECT 1"]},`+
		`sheets:[{name:ref,referencedSheet:{name:Revenue,workbook:{path:"/Analytics/Finance/Revenue by Product.wbk"}}}]}`), http.StatusOK, nil)
	f := storeFile(t, srv, "/Analytics/Refers.wbk")
	for _, path := range []string{configPath("/rest/workbook", f.ConfigID), "/api/workbooks/" + f.UUID, "/api/filesystem/workbooks/" + f.UUID} {
		a := p.call("viewer", http.MethodGet, path, nil)
		p.want(a, http.StatusOK, nil)
		if strings.Contains(string(a.body), "Finance") {
			t.Errorf("viewer GET %s names the hidden workbook: %s", path, a.body)
		}
	}
}
