package model_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// dialectBody reads a documented body of the corpus.
func dialectBody(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "dialect", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeAs[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("does not decode as %T: %v", v, err)
	}
	return v
}

func wantLinks(t *testing.T, cfg model.Configuration, want ...string) {
	t.Helper()
	var got []string
	for _, l := range cfg.Links() {
		got = append(got, l.Path+"|"+l.UUID)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
}

// TestDialectCorpus decodes every body of testdata/dialect, the real
// platform's documented bodies, into the type the console reads it as, and
// checks the fields the console uses, quirks included.
func TestDialectCorpus(t *testing.T) {
	tests := []struct {
		file  string
		check func(t *testing.T, body []byte)
	}{
		{"import-job.json", func(t *testing.T, b []byte) {
			cfg := decodeAs[model.Configuration](t, b)
			wantLinks(t, cfg, "/Data/Connections/Datameer server filesystem.dst|9b1f7a0e-3c2d-4f11-8e6a-2b7c4d5e6f70")
			if model.ImportFamilyKind(cfg.File.Path) != model.KindImportJob || cfg.Property("external.store") != "false" || cfg.Extra["validationStrategy"] == nil {
				t.Errorf("import read %+v", cfg)
			}
		}},
		{"data-link.json", func(t *testing.T, b []byte) {
			cfg := decodeAs[model.Configuration](t, b)
			wantLinks(t, cfg, "/Data/Connections/Web logs.dst|1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f")
			if model.ImportFamilyKind(cfg.File.Path) != model.KindDataLink {
				t.Errorf("%s is no data link", cfg.File.Path)
			}
		}},
		{"file-upload.json", func(t *testing.T, b []byte) {
			cfg := decodeAs[model.Configuration](t, b)
			wantLinks(t, cfg, "/.system/FileUploadDataStore.dst|708d54ed-0b8e-4a0c-9d1e-2f3a4b5c6d7e")
			if model.ImportFamilyKind(cfg.File.Path) != model.KindFileUpload {
				t.Errorf("%s is no file upload", cfg.File.Path)
			}
		}},
		{"import-job-list.json", func(t *testing.T, b []byte) {
			var kinds []model.Kind
			for _, e := range decodeAs[[]model.FileEntry](t, b) {
				if e.ID == 0 || model.InSystemFolder(e.Path) != (e.ID == 1) {
					t.Errorf("entry %+v", e)
				}
				kinds = append(kinds, model.ImportFamilyKind(e.Path))
			}
			if want := []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload, model.KindImportJob}; !reflect.DeepEqual(kinds, want) {
				t.Errorf("kinds %v, want %v", kinds, want)
			}
		}},
		{"export-job.json", func(t *testing.T, b []byte) {
			cfg := decodeAs[model.Configuration](t, b)
			// The connection's path names its file, extension and all.
			wantLinks(t, cfg, "/Admin/DFS_DataStore.dst|", "/Admin/Sales.wbk|")
			if cfg.Sheet.Name != "Summary" || cfg.ConnectionRef().Path != "/Admin/DFS_DataStore.dst" || cfg.File.UUID != "" || cfg.File.Path != "/Admin/Out.exp" {
				t.Errorf("export read %+v", cfg)
			}
		}},
		{"export-job-list.json", func(t *testing.T, b []byte) {
			if l := decodeAs[[]model.FileEntry](t, b); len(l) != 1 || l[0].ID != 480 {
				t.Errorf("list %+v", l)
			}
		}},
		{"workbook-v1.json", func(t *testing.T, b []byte) {
			cfg := decodeAs[model.Configuration](t, b)
			wantLinks(t, cfg, "/FileUploads/Clicks.upl|6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d", "/Workbooks/Totals.wbk|")
		}},
		{"workbook-list.json", func(t *testing.T, b []byte) {
			if l := decodeAs[[]model.FileEntry](t, b); len(l) != 2 {
				t.Errorf("list %+v", l)
			}
		}},
		{"workbook-v2.json", func(t *testing.T, b []byte) {
			w := decodeAs[model.WorkbookV2](t, b)
			cfg := w.Configuration()
			wantLinks(t, cfg, "|6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d")
			if cfg.File.Path != "/Analytics/Workbooks/wb.wbk" || cfg.File.UUID != "c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5" || len(cfg.Sheets) != 2 {
				t.Errorf("v2 workbook as a configuration %+v", cfg)
			}
			if created := w.Workbook.File.CreatedAt.Time; !created.Equal(time.Date(2019, 4, 2, 13, 7, 15, 120e6, time.UTC)) {
				t.Errorf("createdAt %v", created)
			}
		}},
		{"file.json", func(t *testing.T, b []byte) {
			if f := decodeAs[model.File](t, b); f.ID() != 77 || f.Path != "/Data/FileUploads/T.upl" || f.UUID == "" {
				t.Errorf("file %+v", f)
			}
		}},
		{"job-details-older.json", func(t *testing.T, b []byte) {
			d := decodeAs[model.JobDetails](t, b)
			if d.JobConfigurationID != 0 || d.File.ID != 0 || d.Counters[model.CounterImportRecords] != 1200 ||
				!d.StartTime.Valid() || d.StopTime.Time.Sub(d.StartTime.Time) != 106*time.Second {
				t.Errorf("details %+v", d)
			}
		}},
		{"list-running.json", func(t *testing.T, b []byte) {
			r := decodeAs[[]model.RunningJob](t, b)
			if len(r) != 1 || r[0].DapJobConfigurationID != 3 || !r[0].JobStatus.Active() || r[0].StartTime.Time().UnixMilli() != 1554210436000 {
				t.Errorf("running %+v", r)
			}
		}},
		{"job-history.json", func(t *testing.T, b []byte) {
			h := decodeAs[[]model.HistoryEntry](t, b)
			if len(h) != 3 || h[1].JobStatus.Canonical() != model.StateCanceled || !h[0].JobStatus.Final() {
				t.Errorf("history %+v", h)
			}
		}},
		{"job-status-v1.json", func(t *testing.T, b []byte) {
			if s := decodeAs[model.LegacyJobStatus](t, b); s.ID != 77 || s.JobStatus != model.StateRunning {
				t.Errorf("status %+v", s)
			}
		}},
		{"job-status-v1-never.json", func(t *testing.T, b []byte) {
			if s := decodeAs[model.LegacyJobStatus](t, b); s.ID != 0 {
				t.Errorf("status %+v", s)
			}
		}},
		{"job-status-v2.json", func(t *testing.T, b []byte) {
			if s := decodeAs[model.JobStatus](t, b); *s.JobExecutionID != 77 || !s.StopTime.Valid() {
				t.Errorf("status %+v", s)
			}
		}},
		{"users.json", func(t *testing.T, b []byte) {
			u := decodeAs[model.Users](t, b)
			if u.MaxResults != 10 || u.Total != 37 || len(u.Elements) != 2 || u.Elements[1].Enabled ||
				!reflect.DeepEqual(u.Elements[1].Roles, []string{"ADMIN", "Ops"}) || u.Elements[0].OwnedFiles != nil {
				t.Errorf("users %+v", u)
			}
		}},
		{"logged-in-user.json", func(t *testing.T, b []byte) {
			if u := decodeAs[model.LoggedInUser](t, b); u.Username != "ana" || !reflect.DeepEqual(u.Capabilities, []string{"WORKBOOK_EDIT"}) || !u.Enabled {
				t.Errorf("logged-in user %+v", u)
			}
		}},
		{"groups-older.json", func(t *testing.T, b []byte) {
			if g := decodeAs[[]model.Group](t, b); len(g) != 2 || g[1].Name != "viewers" {
				t.Errorf("groups %+v", g)
			}
		}},
		{"license-details.json", func(t *testing.T, b []byte) {
			l := decodeAs[model.LicenseDetails](t, b)
			ends, err := time.Parse(model.DateTimeLayout, l.LicenseExpirationDate)
			if l.ProductVersion != "7.4.1" || l.LicenseVolumeLimitInBytes != 1<<40 || err != nil || ends.Year() != 2022 {
				t.Errorf("licence %+v, %v", l, err)
			}
		}},
		{"data-metadata.json", func(t *testing.T, b []byte) {
			m := decodeAs[[]model.DataMetadata](t, b)
			if len(m) != 1 || m[0].RecordCount != 120 || len(m[0].Datas) != 1 || m[0].Datas[0].ID != 501 {
				t.Errorf("metadata %+v", m)
			}
			if _, err := time.Parse(model.DateTimeLayout, m[0].Datas[0].Timestamp); err != nil {
				t.Error(err)
			}
		}},
		{"failure.json", func(t *testing.T, b []byte) {
			if f, ok := model.ParseFailure(b); !ok || f.Reason != "File doesn't exist or isn't accessible with current permissions" {
				t.Errorf("failure %+v, %v", f, ok)
			}
		}},
		{"failure-older.json", func(t *testing.T, b []byte) {
			if f, ok := model.ParseFailure(b); !ok || f.Status != model.StatusFailure || f.Reason != "Could not find configuration with id 999" {
				t.Errorf("failure %+v, %v", f, ok)
			}
		}},
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "dialect", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(tests) {
		t.Errorf("%d bodies in testdata/dialect, %d in the table: each body needs a row", len(files), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) { tt.check(t, dialectBody(t, tt.file)) })
	}
}

// TestDialectRoundTrip: what the console decodes from the documented
// configuration bodies it writes back as it came (an export job's path
// strings stay strings; the connection keeps no `.dst`), but for members
// holding "", which it may leave out (hadoopProperties) or add (an export's
// file.uuid and file.name).
func TestDialectRoundTrip(t *testing.T) {
	for _, file := range []string{"import-job.json", "export-job.json", "workbook-v1.json", "workbook-v2.json"} {
		t.Run(file, func(t *testing.T) {
			body := dialectBody(t, file)
			var v any = new(model.Configuration)
			if file == "workbook-v2.json" {
				v = new(model.WorkbookV2)
			}
			if err := json.Unmarshal(body, v); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			json.Unmarshal(body, &want)
			if !reflect.DeepEqual(withoutEmpty(got), withoutEmpty(want)) {
				t.Errorf("round trip changed the body:\n got %s\nwant %s", out, body)
			}
		})
	}
}

// withoutEmpty drops the object members holding "", at any depth.
func withoutEmpty(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			if m == "" {
				delete(v, k)
				continue
			}
			v[k] = withoutEmpty(m)
		}
	case []any:
		for i := range v {
			v[i] = withoutEmpty(v[i])
		}
	}
	return v
}

// TestParseFailure tells failure bodies from others.
func TestParseFailure(t *testing.T) {
	tests := []struct {
		body   string
		reason string
		ok     bool
	}{
		{`{"status":"failure","reason":"no","paths":["/a"]}`, "no", true},
		{`{"error":"internal"}`, "internal", true},
		{`{"status":"success"}`, "", false},
		{`{"status":true}`, "", false},
		{`{"status":"success","error":"ignored"}`, "", false},
		{`{"error":{"code":1}}`, "", false},
		{`{"jobStatus":"ERROR"}`, "", false},
		{`[]`, "", false},
		{`not json`, "", false},
	}
	for _, tt := range tests {
		f, ok := model.ParseFailure([]byte(tt.body))
		if ok != tt.ok || f.Reason != tt.reason {
			t.Errorf("ParseFailure(%s) = %+v, %v; want reason %q, %v", tt.body, f, ok, tt.reason, tt.ok)
		}
	}
}
