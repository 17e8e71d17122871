package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestE2EServerAnswersInTheDocumentedShapes reads a file of each kind the
// console shows from the embedded server, at the real platform's paths, and
// holds its list entry and its read to the documented bodies of
// testdata/dialect: every member both have is of the same JSON type at any
// depth (an export's connection and workbook are path strings, property
// values arrays of strings), the members the console reads are there, the
// client decodes the read to links of the same kinds as the documented one's.
func TestE2EServerAnswersInTheDocumentedShapes(t *testing.T) {
	url, admin, _, _ := demoServer(t)
	tests := []struct {
		kind           model.Kind
		list, path     string
		documented     string   // the documented read
		documentedList string   // the documented list
		members        []string // the read must have these
	}{
		{model.KindImportJob, "/rest/import-job", "/Data/ImportJobs/Orders.imp", "import-job.json", "import-job-list.json",
			[]string{"version", "className", "file.path", "file.uuid", "properties", "dataStore.path", "dataStore.uuid"}},
		{model.KindDataLink, "/rest/import-job", "/Data/DataLinks/Orders With Errors.lnk", "data-link.json", "import-job-list.json",
			[]string{"file.path", "file.uuid", "properties", "dataStore.path", "dataStore.uuid"}},
		{model.KindFileUpload, "/rest/import-job", "/Users/analyst/Regions.upl", "file-upload.json", "import-job-list.json",
			[]string{"file.path", "file.uuid", "properties", "dataStore.path", "dataStore.uuid"}},
		{model.KindExportJob, "/rest/export-job", "/Exports/Sales by Region.exp", "export-job.json", "export-job-list.json",
			[]string{"version", "className", "file.path", "connection", "sheet.name", "sheet.workbook"}},
		{model.KindWorkbook, "/rest/workbook", "/Analytics/Sales.wbk", "workbook-v1.json", "workbook-list.json",
			[]string{"file.path", "file.uuid", "sheets"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			var list []any
			rawGet(t, url, tt.list, &list)
			var docList []any
			documented(t, tt.documentedList, &docList)
			sameShape(t, tt.list, docList, list)
			var id float64
			for _, e := range list {
				if entry := e.(map[string]any); entry["path"] == tt.path {
					id, _ = entry["id"].(float64)
				}
			}
			if id == 0 {
				t.Fatalf("%s does not list %s", tt.list, tt.path)
			}
			read := fmt.Sprintf("%s/%d", tt.list, int64(id))
			var got, doc map[string]any
			rawGet(t, url, read, &got)
			documented(t, tt.documented, &doc)
			sameShape(t, read, doc, got)
			for _, m := range tt.members {
				if !hasMember(got, m) {
					t.Errorf("%s has no %s", read, m)
				}
			}
			for name, values := range got["properties"].(map[string]any) {
				if vs, ok := values.([]any); !ok || slices.ContainsFunc(vs, func(v any) bool { _, s := v.(string); return !s }) {
					t.Errorf("%s: property %s is %v, not an array of strings", read, name, values)
				}
			}
			cfg, err := admin.Configuration(t.Context(), tt.kind, int64(id))
			if err != nil {
				t.Fatal(err)
			}
			var docCfg model.Configuration
			documented(t, tt.documented, &docCfg)
			if got, want := linkKinds(cfg), linkKinds(docCfg); tt.kind != model.KindWorkbook && !slices.Equal(got, want) || len(got) == 0 {
				t.Errorf("%s links %v, documented %v", read, got, want)
			}
		})
	}
}

// documented decodes a body of testdata/dialect.
func documented(t *testing.T, name string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "dialect", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// rawGet reads a JSON answer as the admin, without the client.
func rawGet(t *testing.T, url, path string, into any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url+path, nil)
	req.SetBasicAuth("admin", "admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
}

// sameShape reports members of got whose JSON type differs from the same
// member of doc; array elements are held to the documented first element.
func sameShape(t *testing.T, where string, doc, got any) {
	t.Helper()
	switch d := doc.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s is %T, documented an object", where, got)
			return
		}
		for name, v := range d {
			if gv, ok := g[name]; ok {
				sameShape(t, where+"."+name, v, gv)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			t.Errorf("%s is %T, documented an array", where, got)
			return
		}
		if len(d) > 0 {
			for _, e := range g {
				sameShape(t, where+"[]", d[0], e)
			}
		}
	default:
		if fmt.Sprintf("%T", doc) != fmt.Sprintf("%T", got) {
			t.Errorf("%s is %T (%v), documented %T (%v)", where, got, got, doc, doc)
		}
	}
}

// hasMember reports whether the dotted member path names a member of v.
func hasMember(v map[string]any, path string) bool {
	name, rest, nested := strings.Cut(path, ".")
	m, ok := v[name]
	if !ok || !nested {
		return ok
	}
	inner, ok := m.(map[string]any)
	return ok && hasMember(inner, rest)
}

// linkKinds are the kinds of the files a configuration links, by path.
func linkKinds(cfg model.Configuration) []model.Kind {
	var kinds []model.Kind
	for _, l := range cfg.Links() {
		k, _ := model.KindOfPath(l.Path)
		kinds = append(kinds, k)
	}
	return kinds
}
