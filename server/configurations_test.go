package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// configID returns the configuration id of the file at path in a family's list, as admin lists it.
func (p *platform) configID(family, path string) int64 {
	p.t.Helper()
	var list []model.FileEntry
	p.get("admin", family, &list)
	for _, e := range list {
		if e.Path == path {
			return e.ID
		}
	}
	p.t.Fatalf("no %s in %s", path, family)
	return 0
}

func configPath(family string, id int64) string { return fmt.Sprintf("%s/%d", family, id) }

// kindCase is one kind of configuration with a create body as the
// platform's documentation writes them (unquoted where it may be).
type kindCase struct {
	family, path, body string
	links              []string // the paths its links name, as read back
	pathsOnly          bool     // its links are path strings (no uuid), as the platform writes an export job's
}

var kindCases = []kindCase{
	{"/rest/import-job", "/Data/ImportJobs/New/Orders Again.imp",
		`{file:{path:"/Data/ImportJobs/New/Orders Again.imp",description:"made by REST"},pullType:MANUALLY,` +
			`properties:{path:[orders.csv],format:[csv],password:[s3cr3t-value]},dataStore:{path:"/Data/Connections/Local Files.dst"}}`,
		[]string{"/Data/Connections/Local Files.dst"}, false},
	{"/rest/import-job", "/Data/ImportJobs/Clicks.upl",
		`{file:{path:"/Data/ImportJobs/Clicks.upl"},properties:{file:["/tmp/clicks.csv"]},dataStore:{path:"/.system/FileUploadDataStore.dst"}}`,
		[]string{"/.system/FileUploadDataStore.dst"}, false},
	{"/rest/import-job", "/Data/DataLinks/Orders Linked.lnk",
		`{file:{path:"/Data/DataLinks/Orders Linked.lnk"},properties:{path:[orders.csv],format:[csv]},dataStore:{path:"/Data/Connections/Local Files.dst"}}`,
		[]string{"/Data/Connections/Local Files.dst"}, false},
	{"/rest/workbook", "/Analytics/Orders Copy.wbk",
		`{file:{path:"/Analytics/Orders Copy.wbk"},properties:{sql:["SELECT * FROM input1"]},` +
			`sheets:[{name:src,sheetType:das.internal.DataSourceSheetType,datasource:{path:"/Data/ImportJobs/Orders.imp"}}]}`,
		[]string{"/Data/ImportJobs/Orders.imp"}, false},
	{"/rest/export-job", "/Exports/Sales Again.exp",
		`{file:{path:"/Exports/Sales Again.exp"},properties:{path:["exports/again.csv"]},connection:"/Data/Connections/Local Files",` +
			`sheet:{name:Summary,workbook:"/Analytics/Sales by Region.wbk"},includeHeader:true}`,
		[]string{"/Data/Connections/Local Files.dst", "/Analytics/Sales by Region.wbk"}, true},
	{"/rest/infographics", "/Visualization/Board.gra",
		`{file:{path:"/Visualization/Board.gra"},sheets:[{name:s,datasource:{path:"/Analytics/Sales.wbk"}}]}`,
		[]string{"/Analytics/Sales.wbk"}, false},
}

// TestConfigurationLifecycle creates, reads, updates and deletes a
// configuration of every kind as the analyst, with the documented bodies.
func TestConfigurationLifecycle(t *testing.T) {
	for _, kc := range kindCases {
		t.Run(kc.path, func(t *testing.T) {
			_, p := demo(t)
			var created model.ConnectionCreated
			p.want(p.send("analyst", http.MethodPost, kc.family, "", kc.body), http.StatusOK, &created)
			if created.Status != model.StatusSuccess || created.ConfigurationID <= 0 {
				t.Fatalf("create answered %+v", created)
			}
			if id := p.configID(kc.family, kc.path); id != created.ConfigurationID {
				t.Fatalf("listed with id %d, created %d", id, created.ConfigurationID)
			}
			path := configPath(kc.family, created.ConfigurationID)
			read := p.call("analyst", http.MethodGet, path, nil)
			var cfg model.Configuration
			p.want(read, http.StatusOK, &cfg)
			var links []string
			for _, l := range cfg.Links() {
				if l.UUID == "" && !kc.pathsOnly {
					t.Errorf("link %s read back without its uuid", l.Path)
				}
				links = append(links, l.Path)
			}
			if cfg.File.Path != kc.path || fmt.Sprint(links) != fmt.Sprint(kc.links) || cfg.Version == "" {
				t.Fatalf("read back %s", read.body)
			}
			if strings.Contains(string(read.body), "s3cr3t-value") {
				t.Fatalf("a secret read back in plain text: %s", read.body)
			}

			cfg.File.Description = "changed"
			var ok model.Success
			p.want(p.call("analyst", http.MethodPut, path+"/", cfg), http.StatusOK, &ok)
			var after model.Configuration
			p.get("analyst", path, &after)
			if ok.Status != model.StatusSuccess || after.File.Description != "changed" {
				t.Fatalf("after update %+v: %+v", ok, after.File)
			}

			p.want(p.call("analyst", http.MethodDelete, path, nil), http.StatusOK, &ok)
			p.wantFailure(p.call("analyst", http.MethodGet, path, nil), http.StatusNotFound, "no ")
		})
	}
}

// TestConfigurationWritesRefused: bad input, missing rights and dependents
// get the failure body and change nothing (the family's list and the
// file's read are the same after).
func TestConfigurationWritesRefused(t *testing.T) {
	_, p := demo(t)
	orders := p.configID("/rest/import-job", "/Data/ImportJobs/Orders.imp")
	sales := p.configID("/rest/workbook", "/Analytics/Sales.wbk")
	finance := p.configID("/rest/workbook", "/Analytics/Finance/Revenue by Product.wbk")
	export := p.configID("/rest/export-job", "/Exports/Sales by Region.exp")
	board := p.configID("/rest/infographics", "/Visualization/Sales Dashboard.gra")
	var salesCfg model.Configuration
	p.get("admin", configPath("/rest/workbook", sales), &salesCfg)
	hidden := salesCfg
	hidden.HadoopProperties = "mapred.job.queue.name=mine"
	cases := []struct {
		name, user, method, path string
		body                     any
		code                     int
		reason                   string
	}{
		{"empty body", "admin", "POST", "/rest/workbook", "", 400, "empty"},
		{"not an object", "admin", "POST", "/rest/import-job", `[file]`, 400, "not a JSON object"},
		{"malformed", "admin", "POST", "/rest/infographics", `{file:{path:"/Visualization/x.gra"}`, 400, "malformed JSON"},
		{"no path", "admin", "POST", "/rest/export-job", `{file:{}}`, 400, "file.path"},
		{"wrong extension", "admin", "POST", "/rest/import-job", `{file:{path:"/Data/ImportJobs/x.wbk"}}`, 400, ".imp, .lnk or .upl"},
		{"path taken", "admin", "POST", "/rest/import-job", `{file:{path:"/Data/ImportJobs/Orders.imp"}}`, 409, "already exists"},
		{"missing source", "admin", "POST", "/rest/workbook", `{file:{path:"/Analytics/x.wbk"},sheets:[{name:a,datasource:{path:"/Nowhere.imp"}}]}`, 400, "does not exist"},
		{"source of a wrong kind", "admin", "POST", "/rest/import-job", `{file:{path:"/Data/ImportJobs/x.imp"},dataStore:{path:"/Analytics/Sales.wbk"}}`, 400, "want connection"},
		{"export connection missing", "admin", "POST", "/rest/export-job", `{file:{path:"/Exports/x.exp"},connection:"/Data/Connections/Nowhere"}`, 400, "connection: \"/Data/Connections/Nowhere.dst\" does not exist"},
		{"referenced sheet of an import", "admin", "POST", "/rest/workbook", `{file:{path:"/Analytics/x.wbk"},sheets:[{name:a,referencedSheet:{workbook:{path:"/Data/ImportJobs/Orders.imp"}}}]}`, 400, "is of kind import-job; want workbook"},
		{"link the kind has not", "admin", "POST", "/rest/workbook", `{file:{path:"/Analytics/x.wbk"},dataStore:{path:"/Data/Connections/Local Files.dst"}}`, 400, "has no such link"},
		{"connection reading a file", "admin", "POST", "/rest/connections", `{file:{path:"/Data/Connections/x.dst"},dataStore:{path:"/Data/Connections/Local Files.dst"}}`, 400, "reads from no other file"},
		{"source the viewer may not see", "viewer", "POST", "/rest/workbook",
			`{file:{path:"/Users/viewer/x.wbk"},sheets:[{name:a,datasource:{path:"/Analytics/Finance/Revenue by Product.wbk"}}]}`, 400, "does not exist"},
		{"viewer may not write the folder", "viewer", "POST", "/rest/workbook", `{file:{path:"/Analytics/x.wbk"}}`, 403, "write"},
		{"analyst may not write /Data", "analyst", "POST", "/rest/import-job", `{file:{path:"/Data/x.imp"}}`, 403, "write"},
		{"viewer may not update", "viewer", "PUT", configPath("/rest/workbook", sales), salesCfg, 403, "write permission required"},
		{"invisible to the viewer", "viewer", "PUT", configPath("/rest/workbook", finance), salesCfg, 404, "no workbook"},
		{"another kind's id", "admin", "PUT", configPath("/rest/workbook", orders), salesCfg, 404, "no workbook"},
		{"unknown id", "admin", "DELETE", "/rest/infographics/99999", nil, 404, "no infographic"},
		{"non-numeric id", "admin", "DELETE", "/rest/infographics/board", nil, 400, "not a positive number"},
		{"move", "admin", "PUT", configPath("/rest/workbook", sales), strings.Replace(string(mustJSON(t, salesCfg)), "/Analytics/Sales.wbk", "/Analytics/Moved.wbk", 1), 400, "cannot move"},
		{"update with a bad body", "admin", "PUT", configPath("/rest/export-job", export), `sheet`, 400, "not a JSON object"},
		{"analyst changing hidden properties", "analyst", "PUT", configPath("/rest/workbook", sales), hidden, 403, "only an administrator"},
		{"viewer may not delete", "viewer", "DELETE", configPath("/rest/infographics", board), nil, 403, "write permission required"},
		{"import others read", "analyst", "DELETE", configPath("/rest/import-job", orders), nil, 409, "/Analytics/Sales.wbk"},
		{"workbook others read", "admin", "DELETE", configPath("/rest/workbook", sales), nil, 409, "/Analytics/Sales by Region.wbk"},
	}
	families := []string{"/rest/connections", "/rest/import-job", "/rest/workbook", "/rest/export-job", "/rest/infographics"}
	snapshot := func() string {
		var b strings.Builder
		for _, fam := range families {
			b.Write(p.call("admin", http.MethodGet, fam, nil).body)
		}
		for _, path := range []string{configPath("/rest/workbook", sales), configPath("/rest/export-job", export), configPath("/rest/import-job", orders)} {
			b.Write(p.call("admin", http.MethodGet, path, nil).body)
		}
		return b.String()
	}
	before := snapshot()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var a answer
			if s, ok := tc.body.(string); ok {
				a = p.send(tc.user, tc.method, tc.path, "", s)
			} else {
				a = p.call(tc.user, tc.method, tc.path, tc.body)
			}
			p.wantFailure(a, tc.code, tc.reason)
			if after := snapshot(); after != before {
				t.Fatalf("something changed:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

// TestConfigurationDeleteStopsRuns: deleting a job that runs (the demo
// runs its large import at start) ends its run.
func TestConfigurationDeleteStopsRuns(t *testing.T) {
	srv, p := demo(t)
	events := p.configID("/rest/import-job", "/Data/ImportJobs/Events.imp")
	f := storeFile(t, srv, "/Data/ImportJobs/Events.imp")
	running := func() bool {
		var list []model.RunningJob
		p.get("admin", "/api/job-execution/list-running", &list)
		for _, run := range list {
			if run.FileID == f.ID {
				return true
			}
		}
		return false
	}
	if !running() {
		p.want(p.call("admin", http.MethodPost, fmt.Sprintf("/api/job-execution/%d/trigger", f.ID), nil), http.StatusOK, nil)
	}
	if !running() {
		t.Fatal("the large import does not run; nothing to stop")
	}
	p.want(p.call("admin", http.MethodDelete, configPath("/rest/import-job", events), nil), http.StatusOK, nil)
	if running() {
		t.Fatal("the deleted job still runs")
	}
}
