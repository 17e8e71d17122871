package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
)

// platformProject is a project as the real platform's backup writes it:
// every file links the others its own way (dataStore, an export's
// connection and sheet.workbook as path strings, sheets[].datasource) and
// carries fields the server does not know.
var platformProject = map[string]string{
	"Project/Files.dst": `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.FileSystemDataStoreType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000001","path":"/Origin/Project/Files.dst","description":"files","name":"Files"},` +
		`"properties":{"key.connectionUrl":["file:///srv/data/"],"dataStoreUsage":["IMPORT_EXPORT"]},"dataStoreTemplate":false,"permissionScope":"OWNER"}`,
	"Project/Orders.imp": `{"version":"7","className":"datameer.dap.common.entity.ImportJobConfigurationImpl","typeId":"das.CsvImportJobType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000002","path":"/Origin/Project/Orders.imp","description":"orders","name":"Orders"},` +
		`"pullType":"PULL_ALL","minKeepCount":2,"hadoopProperties":"mapred.job.queue.name=etl","properties":{"path":["orders.csv"]},` +
		`"dataStore":{"path":"/Origin/Project/Files.dst","uuid":"7a1c0f52-0000-4000-8000-000000000001"},` +
		`"errorHandlingMode":"DROP_RECORD","maxLogErrors":1000,"fields":[{"include":true,"origin":"order_id","valueType":"INTEGER","name":"order_id","id":0}]}`,
	"Project/Customers.lnk": `{"version":"7","className":"datameer.dap.common.entity.DataLinkConfigurationImpl","typeId":"das.CsvDataLinkType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000003","path":"/Origin/Project/Customers.lnk","description":"","name":"Customers"},` +
		`"properties":{"path":["customers.csv"]},"dataStore":{"path":"/Origin/Project/Files.dst","uuid":"7a1c0f52-0000-4000-8000-000000000001"}}`,
	"Project/Analysis/Sales.wbk": `{"version":"7","className":"datameer.dap.common.entity.WorkbookConfigurationImpl","typeId":"das.WorkbookType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000004","path":"/Origin/Project/Analysis/Sales.wbk","description":"","name":"Sales"},` +
		`"pullType":"NONE","minKeepCount":1,"properties":{"sql":["SELECT * FROM input1"]},` +
		`"sheets":[{"name":"Orders","sheetId":"a1","keep":true,"datasource":{"path":"/Origin/Project/Orders.imp","uuid":"7a1c0f52-0000-4000-8000-000000000002"}},` +
		`{"name":"Customers","sheetId":"a2","datasource":{"path":"/Origin/Project/Customers.lnk","uuid":"7a1c0f52-0000-4000-8000-000000000003"}},` +
		`{"name":"Joined","sheetId":"a3","sheetType":"FormulaSheet","columnStyles":[{"width":80}]}],"advancedSchedulingInUse":false}`,
	"Project/Out/Sales.exp": `{"version":"7","className":"datameer.dap.common.entity.ExportJobConfigurationImpl","typeId":"das.CsvExportJobType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000005","path":"/Origin/Project/Out/Sales.exp","description":"","name":"Sales"},` +
		`"properties":{"path":["out/sales.csv"]},"connection":"/Origin/Project/Files",` +
		`"sheet":{"name":"Joined","sheetId":"a3","workbook":"/Origin/Project/Analysis/Sales.wbk"},` +
		`"mappings":[{"name":"order_id","srcColumnIndex":0,"nullable":false}]}`,
	"Project/Board.gra": `{"version":"7","className":"datameer.dap.common.entity.InfographicConfigurationImpl","typeId":"das.InfographicType",` +
		`"file":{"uuid":"7a1c0f52-0000-4000-8000-000000000006","path":"/Origin/Project/Board.gra","description":"","name":"Board"},` +
		`"properties":{},"sheets":[{"name":"Joined","datasource":{"path":"/Origin/Project/Analysis/Sales.wbk","uuid":"7a1c0f52-0000-4000-8000-000000000004"}}],"layout":{"pages":1}}`,
}

// platformLinks are the files each file of platformProject reads from, below the project.
var platformLinks = map[string][]string{
	"Files.dst":          nil,
	"Orders.imp":         {"Files.dst"},
	"Customers.lnk":      {"Files.dst"},
	"Analysis/Sales.wbk": {"Orders.imp", "Customers.lnk"},
	"Out/Sales.exp":      {"Files.dst", "Analysis/Sales.wbk"},
	"Board.gra":          {"Analysis/Sales.wbk"},
}

func rawArchive(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, nil)
	for path, body := range files {
		if err := w.AddFile(path, []byte(body), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entryBodies decodes every file entry of an archive, by name, one level deep.
func entryBodies(t testing.TB, body []byte) map[string]map[string]json.RawMessage {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]json.RawMessage{}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || f.Name == archive.MetadataName {
			continue
		}
		rc, _ := f.Open()
		raw, _ := io.ReadAll(rc)
		rc.Close()
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		out[f.Name] = fields
	}
	return out
}

// TestPlatformArchiveRoundTrip restores an archive in the real platform's
// shape, then backs the result up: every link resolves to the restored
// file, and every field the server does not know comes back as it went in.
func TestPlatformArchiveRoundTrip(t *testing.T) {
	srv, p := demo(t)
	res := p.restore("admin", "/Imported", rawArchive(t, platformProject))
	if len(res.Skipped) != 0 || len(res.Restored) != 9 {
		t.Fatalf("result %+v", res)
	}
	ctx := context.Background()
	for rel, want := range platformLinks {
		f := storeFile(t, srv, "/Imported/Project/"+rel)
		sources, err := srv.Store().Sources(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range sources {
			got = append(got, strings.TrimPrefix(s.Path, "/Imported/Project/"))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s reads from %v, want %v", rel, got, want)
		}
	}

	backup := entryBodies(t, p.backup("admin", "/Imported"))
	for name, body := range platformProject {
		var sent map[string]json.RawMessage
		json.Unmarshal([]byte(body), &sent)
		got, ok := backup[name]
		if !ok {
			t.Fatalf("%s missing from the backup", name)
		}
		if _, legacy := got["sources"]; legacy {
			t.Errorf("%s: the backup wrote sources", name)
		}
		for field, value := range sent {
			switch field {
			case "file", "dataStore", "connection", "sheet", "sheets": // identity and links follow the restored files
				continue
			}
			if !jsonEqual(got[field], value) {
				t.Errorf("%s: %s came back as %s, want %s", name, field, got[field], value)
			}
		}
		checkLinks(t, srv, name, sent, got)
	}
}

// checkLinks compares the links of a sent and a backed-up representation:
// each names the restored file by its path and UUID (by its path alone
// where the platform writes a path string: an export's connection and
// workbook), and the sheets keep their own fields.
func checkLinks(t *testing.T, srv *server.Server, name string, sent, got map[string]json.RawMessage) {
	t.Helper()
	var before, after model.Configuration
	decode := func(fields map[string]json.RawMessage, into *model.Configuration) {
		raw, _ := json.Marshal(fields)
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	decode(sent, &before)
	decode(got, &after)
	sentLinks, gotLinks := before.Links(), after.Links()
	if len(sentLinks) != len(gotLinks) {
		t.Fatalf("%s: links %+v, want as many as %+v", name, gotLinks, sentLinks)
	}
	pathOnly := map[string]bool{}
	if after.Connection != nil {
		pathOnly[after.Connection.Path] = true
	}
	if after.Sheet != nil && after.Sheet.Workbook != nil {
		pathOnly[after.Sheet.Workbook.Path] = true
	}
	for i, link := range gotLinks {
		wantPath := strings.Replace(sentLinks[i].Path, "/Origin/", "/Imported/", 1)
		uuid := storeFile(t, srv, wantPath).UUID
		if link.Path != wantPath || link.UUID != uuid && !(link.UUID == "" && pathOnly[link.Path]) {
			t.Errorf("%s: link %d is %+v, want %s with its UUID", name, i, link, wantPath)
		}
	}
	for i := range before.Sheets {
		b, a := before.Sheets[i], after.Sheets[i]
		if a.Name != b.Name || !reflect.DeepEqual(a.Extra, b.Extra) {
			t.Errorf("%s: sheet %d came back as %+v, want %+v", name, i, a, b)
		}
	}
	if before.Sheet != nil && (after.Sheet == nil || after.Sheet.Name != before.Sheet.Name || !reflect.DeepEqual(after.Sheet.Extra, before.Sheet.Extra)) {
		t.Errorf("%s: sheet came back as %+v, want %+v", name, after.Sheet, before.Sheet)
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// soloImport is an import job of the demo's sample files that nothing reads
// from, so overwrite may replace it.
func soloImport(hadoop string) string {
	return `{"version":"7","className":"datameer.dap.common.entity.ImportJobConfigurationImpl","typeId":"das.CsvImportJobType",` +
		`"file":{"path":"/Data/ImportJobs/Solo.imp","description":"restored","name":"Solo"},"properties":{"path":["orders.csv"]},` +
		`"hadoopProperties":"` + hadoop + `","dataStore":{"path":"/Data/Connections/Local Files.dst"}}`
}

// TestRestoreOverwriteKeepsIdentityHistoryAndPermissions: an overwritten
// file keeps its file id, UUID, configuration id (so its job history),
// owner and permissions; a caller who is not an administrator keeps its
// hidden properties, and the answer says so.
func TestRestoreOverwriteKeepsIdentityHistoryAndPermissions(t *testing.T) {
	srv, p := demo(t)
	p.restore("analyst", "/Data/ImportJobs", rawArchive(t, map[string]string{"Solo.imp": soloImport("queue=a")}))
	before := storeFile(t, srv, "/Data/ImportJobs/Solo.imp")
	ctx := context.Background()
	if err := srv.Store().SetOthers(ctx, before.ID, model.Flags{Readable: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	var triggered model.Triggered
	p.want(p.call("analyst", http.MethodPost, "/api/job-execution/"+refOf("/Data/ImportJobs/Solo.imp")+"/trigger", nil), 200, &triggered)
	p.call("analyst", http.MethodPost, "/api/job-execution/"+refOf("/Data/ImportJobs/Solo.imp")+"/stop", nil)

	res := p.restore("analyst", "/Data/ImportJobs", rawArchive(t, map[string]string{"Solo.imp": soloImport("queue=b")}), model.FlagOverwrite)
	if len(res.KeptHidden) != 1 || res.KeptHidden[0].Path != "/Data/ImportJobs/Solo.imp" || !strings.Contains(res.KeptHidden[0].Reason, "hadoopProperties") {
		t.Fatalf("result %+v, want the hidden properties named as kept", res)
	}
	after := storeFile(t, srv, "/Data/ImportJobs/Solo.imp")
	if after.ID != before.ID || after.UUID != before.UUID || after.ConfigID != before.ConfigID || after.Owner != "analyst" ||
		after.Others != (model.Flags{Readable: true, Executable: true}) || after.Description != "restored" {
		t.Fatalf("after overwrite %+v, before %+v", after, before)
	}
	cfg, _ := srv.Store().Configuration(ctx, after)
	if cfg.HadoopProperties != "queue=a" {
		t.Fatalf("an analyst's overwrite changed hadoopProperties to %q", cfg.HadoopProperties)
	}
	var history []model.HistoryEntry
	p.get("analyst", fmt.Sprintf("/rest/job-configuration/job-history/%d", after.ConfigID), &history)
	if len(history) != 1 || history[0].ID != triggered.JobExecutionID {
		t.Fatalf("history %+v, want execution %d kept", history, triggered.JobExecutionID)
	}

	res = p.restore("admin", "/Data/ImportJobs", rawArchive(t, map[string]string{"Solo.imp": soloImport("queue=b")}), model.FlagOverwrite)
	cfg, _ = srv.Store().Configuration(ctx, storeFile(t, srv, "/Data/ImportJobs/Solo.imp"))
	if len(res.KeptHidden) != 0 || cfg.HadoopProperties != "queue=b" {
		t.Fatalf("an administrator's overwrite: result %+v, hadoopProperties %q", res, cfg.HadoopProperties)
	}
}

// TestRestoreOverwriteRefusesDependentsInTheArchive: a configuration with
// downstream dependencies is not overwritten even when those dependents
// come in the same archive.
func TestRestoreOverwriteRefusesDependentsInTheArchive(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Analytics", model.FlagIgnoreMissingDependencies)
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("admin", restoreURL("/Analytics", model.FlagOverwrite), "application/zip", body), http.StatusConflict, "still used by")
	if len(f.Paths) == 0 {
		t.Fatalf("refusal %+v names no dependent", f)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a refused overwrite changed the tree")
	}
}

// TestLinksToHiddenFilesTellNothing: a file the viewer may read that reads
// from one the viewer may not see names it by UUID alone, in a read and in
// a backup; an administrator sees the path.
func TestLinksToHiddenFilesTellNothing(t *testing.T) {
	srv, p := demo(t)
	ctx := context.Background()
	hidden := storeFile(t, srv, "/Analytics/Finance/Finance PostgreSQL.dst")
	cfg := &model.Configuration{Version: "7", TypeID: "das.JdbcImportJobType", Properties: map[string][]string{"table": {"ledger"}},
		DataStore: &model.SourceRef{UUID: hidden.UUID}}
	f, err := srv.Store().CreateFile(ctx, store.NewFile{Path: "/Data/ImportJobs/Ledger.imp", OwnerID: 1, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	read := func(user string) string {
		a := p.call(user, http.MethodGet, fmt.Sprintf("/rest/import-job/%d", f.ConfigID), nil)
		p.want(a, 200, nil)
		return string(a.body)
	}
	if got := read("viewer"); strings.Contains(got, "Finance") || !strings.Contains(got, `"dataStore":{"uuid":"`+hidden.UUID+`"}`) {
		t.Errorf("the viewer's read: %s", got)
	}
	if got := read("admin"); !strings.Contains(got, hidden.Path) {
		t.Errorf("the administrator's read: %s", got)
	}
	body := p.backup("viewer", "/Data/ImportJobs", model.FlagIgnoreMissingDependencies)
	ledger := entryBodies(t, body)["Ledger.imp"]
	if strings.Contains(string(ledger["dataStore"]), "Finance") || !strings.Contains(string(ledger["dataStore"]), hidden.UUID) {
		t.Errorf("the viewer's backup links %s", ledger["dataStore"])
	}
}

// legacyProject is a project as earlier versions of this server backed it
// up: every file lists what it reads from in a sources array, the member
// the real platform does not know.
var legacyProject = map[string]string{
	"Legacy/Files.dst": `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.FileSystemDataStoreType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000001","path":"/Old/Legacy/Files.dst","name":"Files"},"properties":{"key.connectionUrl":["file:///srv/data/"]}}`,
	"Legacy/Orders.imp": `{"version":"7","className":"datameer.dap.common.entity.ImportJobConfigurationImpl","typeId":"das.CsvImportJobType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000002","path":"/Old/Legacy/Orders.imp","name":"Orders"},"properties":{"path":["orders.csv"]},` +
		`"sources":[{"path":"/Old/Legacy/Files.dst","uuid":"5e9d0a11-0000-4000-8000-000000000001"}]}`,
	"Legacy/Customers.lnk": `{"version":"7","className":"datameer.dap.common.entity.DataLinkConfigurationImpl","typeId":"das.CsvDataLinkType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000003","path":"/Old/Legacy/Customers.lnk","name":"Customers"},"properties":{"path":["customers.csv"]},` +
		`"sources":[{"path":"/Old/Legacy/Files.dst","uuid":"5e9d0a11-0000-4000-8000-000000000001"}]}`,
	"Legacy/Sales.wbk": `{"version":"7","className":"datameer.dap.common.entity.WorkbookConfigurationImpl","typeId":"das.WorkbookType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000004","path":"/Old/Legacy/Sales.wbk","name":"Sales"},"properties":{"sql":["SELECT * FROM input1"]},` +
		`"sources":[{"path":"/Old/Legacy/Orders.imp","uuid":"5e9d0a11-0000-4000-8000-000000000002"},{"path":"/Old/Legacy/Customers.lnk","uuid":"5e9d0a11-0000-4000-8000-000000000003"}]}`,
	"Legacy/Sales.exp": `{"version":"7","className":"datameer.dap.common.entity.ExportJobConfigurationImpl","typeId":"das.CsvExportJobType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000005","path":"/Old/Legacy/Sales.exp","name":"Sales"},"properties":{"path":["out/sales.csv"]},` +
		`"sources":[{"path":"/Old/Legacy/Files.dst","uuid":"5e9d0a11-0000-4000-8000-000000000001"},{"path":"/Old/Legacy/Sales.wbk","uuid":"5e9d0a11-0000-4000-8000-000000000004"}]}`,
	"Legacy/Board.gra": `{"version":"7","className":"datameer.dap.common.entity.InfographicConfigurationImpl","typeId":"das.InfographicType",` +
		`"file":{"uuid":"5e9d0a11-0000-4000-8000-000000000006","path":"/Old/Legacy/Board.gra","name":"Board"},"properties":{},` +
		`"sources":[{"path":"/Old/Legacy/Sales.wbk","uuid":"5e9d0a11-0000-4000-8000-000000000004"}]}`,
}

// TestRestoreLegacySourcesBecomeRealLinks restores an archive of an earlier
// version: every kind's sources become the platform's links (dataStore,
// sheet.workbook, sheets[].datasource), the dependency endpoints follow
// them, a read shows them, and nothing writes sources again. The member is
// read in any case, as encoding/json reads names.
func TestRestoreLegacySourcesBecomeRealLinks(t *testing.T) {
	tests := []struct {
		file, endpoint, read string
		want                 []string // upstream, one level, below the project
		link                 string   // the member of a read that holds the links
		holds                string   // what that member holds: a UUID, or the path where it is a path string
	}{
		{"Orders.imp", "/api/import-job/", "/rest/import-job/", []string{"Files.dst"}, "dataStore", `"uuid"`},
		{"Customers.lnk", "/api/import-job/", "/rest/import-job/", []string{"Files.dst"}, "dataStore", `"uuid"`},
		{"Sales.wbk", "/api/workbook/", "/rest/workbook/", []string{"Customers.lnk", "Orders.imp"}, "sheets", `"uuid"`},
		{"Sales.exp", "/api/export-job/", "/rest/export-job/", []string{"Files.dst", "Sales.wbk"}, "sheet", `"workbook":"/Restored/Legacy/Sales.wbk"`},
		{"Sales.exp", "/api/export-job/", "/rest/export-job/", []string{"Files.dst", "Sales.wbk"}, "connection", `"/Restored/Legacy/Files"`},
		{"Board.gra", "/api/infographics/", "/rest/infographics/", []string{"Sales.wbk"}, "sheets", `"uuid"`},
	}
	for _, member := range []string{"sources", "Sources"} {
		t.Run(member, func(t *testing.T) {
			srv, p := demo(t)
			files := map[string]string{}
			for name, body := range legacyProject {
				files[name] = strings.Replace(body, `"sources":`, `"`+member+`":`, 1)
			}
			if res := p.restore("admin", "/Restored", rawArchive(t, files)); len(res.Skipped) != 0 {
				t.Fatalf("result %+v", res)
			}
			const dir = "/Restored/Legacy/"
			for _, tt := range tests {
				f := storeFile(t, srv, dir+tt.file)
				var deps model.Dependencies
				p.get("admin", fmt.Sprintf("%s%d/dependencies?direction=upstream&level=1", tt.endpoint, f.ConfigID), &deps)
				var got []string
				for _, d := range deps.Dependencies {
					got = append(got, strings.TrimPrefix(d.File.Path, dir))
				}
				sort.Strings(got)
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("%s reads from %v, want %v", tt.file, got, tt.want)
				}
				var read map[string]json.RawMessage
				p.get("admin", fmt.Sprintf("%s%d", tt.read, f.ConfigID), &read)
				if !bytes.Contains(read[tt.link], []byte(tt.holds)) {
					t.Errorf("a read of %s has no %s link: %s", tt.file, tt.link, read[tt.link])
				}
			}
			for name, body := range entryBodies(t, p.backup("admin", "/Restored")) {
				for field := range body {
					if strings.EqualFold(field, "sources") {
						t.Errorf("the backup wrote %s for %s", field, name)
					}
				}
			}
		})
	}
}

// TestRestoreLinksEntriesByUUIDOrPath: a link to another entry of the
// archive names it by UUID, or by the path it had where it was backed up
// (the folder backed up, the root included, and the entry's own path);
// a path the archive's entries do not end with names no entry.
func TestRestoreLinksEntriesByUUIDOrPath(t *testing.T) {
	const id = "7a1c0f52-0000-4000-8000-0000000000aa"
	connection := func(path string) string {
		return `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.FileSystemDataStoreType",` +
			`"file":{"uuid":"` + id + `","path":"` + path + `","name":"Files"},"properties":{}}`
	}
	link := func(ref string) string {
		return `{"version":"7","className":"datameer.dap.common.entity.DataLinkConfigurationImpl","typeId":"das.CsvDataLinkType",` +
			`"file":{"path":"/Elsewhere/Customers.lnk","name":"Customers"},"properties":{},"dataStore":` + ref + `}`
	}
	tests := []struct {
		name, connection, link, entry string
		linked                        bool
	}{
		{"by uuid", "/Origin/Data/Files.dst", `{"uuid":"` + strings.ToUpper(id) + `"}`, "Data/Files.dst", true},
		{"by path", "/Origin/Data/Files.dst", `{"path":"/Origin/Data/Files.dst"}`, "Data/Files.dst", true},
		{"by path from a backup of the root", "/Data/Files.dst", `{"path":"/Data/Files.dst"}`, "Data/Files.dst", true},
		{"by a path no entry ends with", "/Origin/Other/Files.dst", `{"path":"/Origin/Data/Files.dst"}`, "Data/Files.dst", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, p := demo(t)
			body := rawArchive(t, map[string]string{tt.entry: connection(tt.connection), "Customers.lnk": link(tt.link)})
			a := p.upload("admin", restoreURL("/Copy"), "application/zip", body)
			if !tt.linked {
				p.wantFailure(a, http.StatusConflict, "neither in the archive nor in the tree")
				return
			}
			p.want(a, http.StatusOK, nil)
			f := storeFile(t, srv, "/Copy/Customers.lnk")
			sources, err := srv.Store().Sources(context.Background(), f.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(sources) != 1 || sources[0].Path != "/Copy/"+tt.entry {
				t.Errorf("sources %+v, want /Copy/%s", sources, tt.entry)
			}
		})
	}
}

// TestRestoreGivesASharedUUIDOnce: two entries of an archive with one UUID
// are both restored; the first keeps it, the second gets a new one.
func TestRestoreGivesASharedUUIDOnce(t *testing.T) {
	srv, p := demo(t)
	const id = "7a1c0f52-0000-4000-8000-0000000000bb"
	connection := `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.FileSystemDataStoreType",` +
		`"file":{"uuid":"` + id + `","name":"Files"},"properties":{}}`
	p.restore("admin", "/Copy", rawArchive(t, map[string]string{"A.dst": connection, "B.dst": connection}))
	first, second := storeFile(t, srv, "/Copy/A.dst"), storeFile(t, srv, "/Copy/B.dst")
	if first.UUID != id || second.UUID == id || second.UUID == "" {
		t.Errorf("uuids %s and %s, want %s and a new one", first.UUID, second.UUID, id)
	}
}
