package server_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
)

// TestJobsUseConnectionsOnlyAsTheCallerMay is the reproduction: a viewer
// restores into his home an import and an export whose connection is
// /Data/Connections/Local Files.dst (read only to him) and triggers them,
// one by one and in sequence, to overwrite DATA/files/orders.csv that the
// analysts' Orders.imp reads. Exporting needs write on the connection,
// importing execute: each trigger is refused and the file stays as it was.
// The analyst, who may write the connection, exports through it.
func TestJobsUseConnectionsOnlyAsTheCallerMay(t *testing.T) {
	srv, p := demo(t)
	orders := filepath.Join(server.FilesDir(srv.Store().Dir()), "orders.csv")
	before, err := os.ReadFile(orders)
	if err != nil {
		t.Fatal(err)
	}
	local := model.SourceRef{Path: "/Data/Connections/Local Files.dst"}
	imp := &model.Configuration{Version: "1", TypeID: "das.CsvImportJobType", File: model.FileInfo{Path: "/Old/Mine.imp"},
		Properties: map[string][]string{"path": {"customers.jsonl"}, "format": {"jsonl"}}, DataStore: &local}
	exp := &model.Configuration{Version: "1", TypeID: "das.CsvExportJobType",
		Properties: map[string][]string{"path": {"orders.csv"}}, DataStore: &local,
		Sheet: &model.ExportSheet{Name: "Mine", Workbook: &model.PathRef{Path: "/Old/Mine.imp"}}}
	p.restore("viewer", "/Users/viewer", buildArchive(t, nil, archiveFile{path: "Mine.imp", cfg: imp}, archiveFile{path: "Mine.exp", cfg: exp}))
	trigger := func(user, path string) model.Failure {
		var answer model.Failure
		p.want(p.call(user, http.MethodPost, "/api/job-execution/"+refOf(path)+"/trigger", nil), http.StatusOK, &answer)
		return answer
	}
	for path, need := range map[string]string{"/Users/viewer/Mine.imp": "execute", "/Users/viewer/Mine.exp": "write"} {
		if a := trigger("viewer", path); a.Status != model.StatusFailure || !strings.Contains(a.Reason, need+" permission required on its connection") {
			t.Errorf("trigger %s: %+v", path, a)
		}
	}
	var plan model.ExecutionPlan
	p.want(p.call("viewer", http.MethodPost, "/api/job-execution/sequential-trigger",
		model.SequentialTrigger{FileIDs: []int64{p.fileID("/Users/viewer/Mine.imp")}}), http.StatusOK, &plan)
	if plan.Status != model.StatusFailure || !strings.Contains(plan.Reason, "permission required on its connection") {
		t.Errorf("sequential trigger: %+v", plan)
	}
	after, _ := os.ReadFile(orders)
	if string(after) != string(before) {
		t.Fatal("orders.csv changed")
	}
	if a := trigger("analyst", "/Exports/Sales by Region.exp"); a.Status != model.StatusSuccess {
		t.Fatalf("the analyst may export through Local Files: %+v", a)
	}
}

// TestRestoreOfFileConnectionsOverEachOtherIsAdminOnly: two connections of
// one archive, one over a directory inside the other's, are refused to a
// non-administrator as one over another's would be, the first named.
func TestRestoreOfFileConnectionsOverEachOtherIsAdminOnly(t *testing.T) {
	_, p := demo(t)
	outer, inner := connectionConfig("Outer"), connectionConfig("Inner")
	inner.Properties[model.PropConnectionURL] = []string{"file:///srv/restored/Outer/Inner/"}
	body := buildArchive(t, nil, archiveFile{path: "Inner.dst", cfg: inner}, archiveFile{path: "Outer.dst", cfg: outer})
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("analyst", restoreURL("/Analytics/Nested"), "application/zip", body), http.StatusForbidden, "another connection already serves")
	if len(f.Paths) != 1 || !strings.HasPrefix(f.Paths[0], "/Analytics/Nested/") {
		t.Fatalf("paths %v", f.Paths)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a refused restore changed the tree")
	}
	p.restore("admin", "/Analytics/Nested", body)
}

// TestSQLiteConnectionsFollowTheServedDirectoryRule is the reproduction:
// the served-directory rule held for file:// connections only, so a viewer
// made a jdbc:sqlite: connection of his own to DATA/files/warehouse.db,
// which Local Files serves (execute for the analysts only), and imported
// from it. A connection reaching a database file inside a served directory,
// or a directory around a database another connection reads, is refused
// to a non-administrator, created, changed or restored; the administrator
// may.
func TestSQLiteConnectionsFollowTheServedDirectoryRule(t *testing.T) {
	srv, p := demo(t)
	files := server.FilesDir(srv.Store().Dir())
	sqlite := func(path, url string) model.Connection {
		c := newConnection(path, "x")
		c.Properties[model.PropConnectionURL] = []string{url}
		return c
	}
	warehouse := "jdbc:sqlite:" + filepath.Join(files, "warehouse.db")
	p.wantFailure(p.call("viewer", http.MethodPost, "/rest/connections", sqlite("/Users/viewer/Mine.dst", warehouse)),
		http.StatusForbidden, "another connection already serves")
	p.wantFailure(p.call("viewer", http.MethodPost, "/rest/connections", sqlite("/Users/viewer/Mine.dst", "jdbc:sqlite:file:"+filepath.Join(files, "warehouse.db")+"?mode=ro")),
		http.StatusForbidden, "another connection already serves")
	mine := sqlite("/Users/viewer/Mine.dst", warehouse)
	mine.File.Path = "/Old/Mine.dst"
	cfg := model.Configuration(mine)
	p.wantFailure(p.upload("viewer", restoreURL("/Users/viewer"), "application/zip", buildArchive(t, nil, archiveFile{path: "Mine.dst", cfg: &cfg})),
		http.StatusForbidden, "another connection already serves")
	// A database of its own, elsewhere, is the viewer's to make, not to point at the warehouse later.
	var created model.ConnectionCreated
	p.want(p.call("viewer", http.MethodPost, "/rest/connections", sqlite("/Users/viewer/Own.dst", "jdbc:sqlite:/srv/viewer/own.db")), http.StatusOK, &created)
	p.wantFailure(p.call("viewer", http.MethodPut, connectionPath(created.ConfigurationID), sqlite("/Users/viewer/Own.dst", warehouse)),
		http.StatusForbidden, "another connection already serves")
	// A file:// connection around a database another reads is refused the same way.
	p.wantFailure(p.call("viewer", http.MethodPost, "/rest/connections", sqlite("/Users/viewer/Around.dst", "file:///srv/viewer/")),
		http.StatusForbidden, "another connection already serves")
	p.want(p.call("admin", http.MethodPost, "/rest/connections", sqlite("/Data/Connections/Second Warehouse.dst", warehouse)), http.StatusOK, nil)
}
