package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestWorkbookV2 reads the demo's Sales workbook in the v2 shape under both
// homes of the family (by file id and by UUID), sends the read back with a
// change, and creates a workbook from a v2 body: each time the v1
// configuration says the same.
func TestWorkbookV2(t *testing.T) {
	srv, p := demo(t)
	sales := storeFile(t, srv, "/Analytics/Sales.wbk")
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	customers := storeFile(t, srv, "/Data/ImportJobs/Customers.imp")
	analytics := storeFile(t, srv, "/Analytics")

	var byID, byUUID model.WorkbookV2
	p.get("analyst", fmt.Sprintf("/api/workbooks/%d", sales.ID), &byID)
	p.get("analyst", "/api/filesystem/workbooks/"+sales.UUID+"/", &byUUID)
	wb := byID.Workbook
	var sheets []string
	for _, s := range wb.Sheets {
		sheets = append(sheets, s.Type+":"+s.UUID)
	}
	if wb.File.Path() != sales.Path || wb.File.UUID != sales.UUID || fmt.Sprint(wb.File.Folder) != fmt.Sprint([]string{"/Analytics", analytics.UUID}) ||
		fmt.Sprint(sheets) != fmt.Sprint([]string{"DataSourceReferenceSheet:" + orders.UUID, "DataSourceReferenceSheet:" + customers.UUID}) ||
		!strings.Contains(string(wb.Extra["jobConfiguration"]), `"_type":"DataDrivenTriggering"`) ||
		!strings.Contains(string(wb.Extra["properties"]), `"sql":["SELECT`) || !strings.Contains(string(wb.File.Permission), `"owner":"analyst"`) {
		t.Fatalf("v2 read %+v", wb)
	}
	if byID.Links.Href("file") != fmt.Sprintf("/api/filesystem/files/%d", sales.ID) || byUUID.Links.Href("self") != "/api/filesystem/workbooks/"+sales.UUID {
		t.Fatalf("links %v and %v", byID.Links, byUUID.Links)
	}
	// Read by path (as the README's curl does), the self link is that path
	// escaped, and following it reads the same workbook.
	var byPath, followed model.WorkbookV2
	p.get("analyst", "/api/workbooks/%2FAnalytics%2FSales.wbk", &byPath)
	if self := byPath.Links.Href("self"); self != "/api/workbooks/%2FAnalytics%2FSales.wbk" {
		t.Fatalf("self link of a read by path: %q", self)
	}
	p.get("analyst", byPath.Links.Href("self"), &followed)
	if followed.Workbook.File.UUID != sales.UUID {
		t.Fatalf("the self link read %+v", followed.Workbook.File)
	}
	if a, b := mustJSON(t, byID.Workbook), mustJSON(t, byUUID.Workbook); string(a) != string(b) {
		t.Fatalf("the two homes differ:\n%s\n%s", a, b)
	}

	var before model.Configuration
	p.get("analyst", fmt.Sprintf("/rest/workbook/%d", sales.ConfigID), &before)
	byID.Workbook.File.Description = "changed through v2"
	p.want(p.call("analyst", http.MethodPut, fmt.Sprintf("/api/workbooks/%d", sales.ID), byID), http.StatusOK, nil)
	var after model.Configuration
	p.get("analyst", fmt.Sprintf("/rest/workbook/%d", sales.ConfigID), &after)
	before.File.Description = "changed through v2"
	for i := range before.Sheets { // v1 as the platform documents it: keep on every sheet
		before.Sheets[i].Extra = map[string]json.RawMessage{"keep": json.RawMessage("false")}
	}
	if a, b := mustJSON(t, after), mustJSON(t, before); string(a) != string(b) {
		t.Fatalf("a v2 round trip changed the workbook:\n%s\nwant\n%s", a, b)
	}

	body := fmt.Sprintf(`{workbook:{file:{folder:["/Analytics/V2"],name:"From V2",description:made},`+
		`jobConfiguration:{triggering:{_type:DataDrivenTriggering},hadoopProperties:{"mapred.job.queue.name":etl}},`+
		`sheets:[{_type:DataSourceReferenceSheet,uuid:"%s",name:orders,kept:true,position:0}],`+
		`properties:{sql:["SELECT count(*) AS n FROM input1"]}}}`, orders.UUID)
	var created model.WorkbookV2Created
	p.want(p.send("admin", http.MethodPost, "/api/workbooks", "", body), http.StatusOK, &created)
	if created.Status != model.StatusSuccess || created.FilePath != "/Analytics/V2/From V2" || created.FileID == 0 || created.ConfigurationID == 0 {
		t.Fatalf("create answered %+v", created)
	}
	var v1 model.Configuration
	p.get("admin", fmt.Sprintf("/rest/workbook/%d", created.ConfigurationID), &v1)
	if v1.File.Path != "/Analytics/V2/From V2.wbk" || v1.File.Description != "made" || len(v1.Sheets) != 1 ||
		v1.Sheets[0].Datasource == nil || v1.Sheets[0].Datasource.Path != orders.Path || string(v1.Sheets[0].Extra["keep"]) != "true" ||
		v1.Property("dataDriven") != "true" || v1.Property("sql") != "SELECT count(*) AS n FROM input1" ||
		v1.HadoopProperties != "mapred.job.queue.name=etl" {
		t.Fatalf("v1 read of the v2 create: %s", mustJSON(t, v1))
	}
	var again model.WorkbookV2
	p.get("admin", fmt.Sprintf("/api/filesystem/workbooks/%d", created.FileID), &again)
	if s := again.Workbook.Sheets; len(s) != 1 || s[0].UUID != orders.UUID || string(s[0].Extra["kept"]) != "true" || string(s[0].Extra["position"]) != "0" {
		t.Fatalf("v2 read of the v2 create: %s", mustJSON(t, again))
	}
}

// TestWorkbookV2Refused: bad bodies, other kinds and missing rights get
// the failure body and change nothing.
func TestWorkbookV2Refused(t *testing.T) {
	srv, p := demo(t)
	sales := storeFile(t, srv, "/Analytics/Sales.wbk")
	finance := storeFile(t, srv, "/Analytics/Finance/Revenue by Product.wbk")
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	var read model.WorkbookV2
	p.get("admin", fmt.Sprintf("/api/workbooks/%d", sales.ID), &read)
	moved := read
	moved.Workbook.File.Folder = []string{"/Exports"}
	valid := `{workbook:{file:{folder:["/Analytics"],name:x},sheets:[]}}`
	sheetWithout := `{workbook:{file:{folder:["/Analytics"],name:x},sheets:[{_type:DataSourceReferenceSheet,name:a}]}}`
	cases := []struct {
		name, user, method, path string
		body                     any
		code                     int
		reason                   string
	}{
		{"an import's file id", "admin", "GET", fmt.Sprintf("/api/workbooks/%d", orders.ID), nil, 404, "no workbook"},
		{"hidden from the viewer", "viewer", "GET", "/api/workbooks/" + finance.UUID, nil, 404, ""},
		{"unknown", "admin", "GET", "/api/workbooks/99999", nil, 404, ""},
		{"viewer may not create", "viewer", "POST", "/api/workbooks", valid, 403, "write"},
		{"no folder", "admin", "POST", "/api/workbooks", `{workbook:{file:{name:x}}}`, 400, "folder"},
		{"not an object", "admin", "POST", "/api/filesystem/workbooks", `[workbook]`, 400, "not a JSON object"},
		{"sheets of the wrong type", "admin", "POST", "/api/workbooks", `{workbook:{file:{folder:["/Analytics"],name:x},sheets:{}}}`, 400, "bad v2 workbook"},
		{"data source without uuid", "admin", "POST", "/api/workbooks", sheetWithout, 400, "by uuid"},
		{"properties of the wrong shape", "admin", "POST", "/api/workbooks", `{workbook:{file:{folder:["/Analytics"],name:x},properties:{sql:"x"}}}`, 400, "string arrays"},
		{"viewer may not update", "viewer", "PUT", fmt.Sprintf("/api/workbooks/%d", sales.ID), read, 403, "write"},
		{"update that moves", "admin", "PUT", "/api/workbooks/" + sales.UUID, moved, 400, "cannot move"},
		{"update of an import", "admin", "PUT", fmt.Sprintf("/api/workbooks/%d", orders.ID), read, 404, "no workbook"},
	}
	snapshot := func() string {
		return string(p.call("admin", http.MethodGet, "/rest/workbook", nil).body) +
			string(p.call("admin", http.MethodGet, fmt.Sprintf("/rest/workbook/%d", sales.ConfigID), nil).body)
	}
	want := snapshot()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a answer
			if s, ok := tc.body.(string); ok {
				a = p.send(tc.user, tc.method, tc.path, "", s)
			} else {
				a = p.call(tc.user, tc.method, tc.path, tc.body)
			}
			p.wantFailure(a, tc.code, tc.reason)
			if got := snapshot(); got != want {
				t.Fatalf("something changed:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestWorkbookRollback: each rollback returns a workbook to the version
// before its last update, through either home, one further back each time.
// Refusals change nothing.
func TestWorkbookRollback(t *testing.T) {
	srv, p := demo(t)
	sales := storeFile(t, srv, "/Analytics/Sales.wbk")
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	v1Path := fmt.Sprintf("/rest/workbook/%d", sales.ConfigID)
	description := func() string {
		var cfg model.Configuration
		p.get("admin", v1Path, &cfg)
		return cfg.File.Description
	}
	rollback := fmt.Sprintf(`{fileId: %d}`, sales.ID)
	p.wantFailure(p.send("analyst", http.MethodPut, "/api/workbooks/rollback", "", rollback), 404, "no earlier version")

	var cfg model.Configuration
	p.get("analyst", v1Path, &cfg)
	original := cfg.File.Description
	cfg.File.Description = "one"
	p.want(p.call("analyst", http.MethodPut, v1Path, cfg), 200, nil)
	var wb model.WorkbookV2
	p.get("analyst", fmt.Sprintf("/api/workbooks/%d", sales.ID), &wb)
	wb.Workbook.File.Description = "two"
	p.want(p.call("analyst", http.MethodPut, "/api/workbooks/"+sales.UUID, wb), 200, nil)

	for _, tc := range []struct {
		name, user, body string
		code             int
		reason           string
	}{
		{"viewer may not", "viewer", rollback, 403, "write"},
		{"no workbook named", "admin", `{}`, 400, "fileId or by uuid"},
		{"both named", "admin", fmt.Sprintf(`{fileId: %d, uuid: "%s"}`, sales.ID, sales.UUID), 400, "one of them"},
		{"an import", "admin", fmt.Sprintf(`{fileId: %d}`, orders.ID), 404, "no workbook"},
		{"not an object", "admin", `rollback`, 400, "not a JSON object"},
		{"unknown member", "admin", `{version: 3}`, 400, "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.send(tc.user, http.MethodPut, "/api/workbooks/rollback", "", tc.body), tc.code, tc.reason)
			if got := description(); got != "two" {
				t.Fatalf("description %q after a refused rollback", got)
			}
		})
	}

	p.want(p.send("analyst", http.MethodPut, "/api/workbooks/rollback/", "", rollback), 200, nil)
	if got := description(); got != "one" {
		t.Fatalf("after a rollback: %q, want one", got)
	}
	p.want(p.send("analyst", http.MethodPut, "/api/filesystem/workbook-rollback", "", `{uuid: "`+sales.UUID+`"}`), 200, nil)
	if got := description(); got != original {
		t.Fatalf("after a second rollback: %q, want %q", got, original)
	}
	p.wantFailure(p.send("analyst", http.MethodPut, "/api/workbooks/rollback", "", rollback), 404, "no earlier version")
}
