package server_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
)

// ranOnce triggers a job as admin and waits until its run has ended; it
// returns the execution id.
func ranOnce(t *testing.T, p *platform, configID int64) int64 {
	t.Helper()
	var started struct {
		ID int64 `json:"job-execution-id"`
	}
	p.want(p.call("admin", http.MethodPost, fmt.Sprintf("/rest/job-execution?configuration=%d", configID), nil), http.StatusOK, &started)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var d model.JobDetails
		p.get("admin", fmt.Sprintf("/rest/job-execution/job-details/%d", started.ID), &d)
		if d.JobStatus.Final() {
			return started.ID
		}
	}
	t.Fatalf("execution %d did not end", started.ID)
	return 0
}

// TestVolumeReport: the report lists a job's runs, newest first, each with
// the bytes it really imported (the size of the file it read); a workbook's
// runs import nothing. Who may not read the job learns nothing of it.
func TestVolumeReport(t *testing.T) {
	dir := t.TempDir()
	srv, p := start(t, server.Config{DataDir: dir, DemoData: true})
	products := storeFile(t, srv, "/Data/ImportJobs/Customer List.imp") // not in the demo's schedule
	size := func() int64 {
		info, err := os.Stat(filepath.Join(server.FilesDir(dir), "customers.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}()
	first, second := ranOnce(t, p, products.ConfigID), ranOnce(t, p, products.ConfigID)
	var report []model.VolumeEntry
	p.get("analyst", fmt.Sprintf("/rest/job-configuration/volume-report/%d/", products.ConfigID), &report)
	want := []model.VolumeEntry{
		{ID: second, JobStatus: model.StateCompleted, ImportedVolume: size, Type: "NORMAL"},
		{ID: first, JobStatus: model.StateCompleted, ImportedVolume: size, Type: "NORMAL"},
	}
	if fmt.Sprint(report) != fmt.Sprint(want) {
		t.Fatalf("report %+v, want %+v", report, want)
	}
	workbook := storeFile(t, srv, "/Analytics/Customers per Region.wbk")
	run := ranOnce(t, p, workbook.ConfigID)
	p.get("admin", fmt.Sprintf("/rest/job-configuration/volume-report/%d", workbook.ConfigID), &report)
	if len(report) == 0 || report[0].ID != run || report[0].ImportedVolume != 0 {
		t.Fatalf("workbook report %+v, want its run %d with no volume", report, run)
	}

	finance := storeFile(t, srv, "/Analytics/Finance/Revenue by Product.wbk")
	for _, tt := range []struct {
		name, user, path string
		code             int
		body             string
	}{
		{"hidden from the viewer", "viewer", fmt.Sprintf("/rest/job-configuration/volume-report/%d", finance.ConfigID), 200, "isn't accessible"},
		{"unknown", "admin", "/rest/job-configuration/volume-report/999999", 200, "isn't accessible"},
		{"bad id", "admin", "/rest/job-configuration/volume-report/x", 400, "not a positive"},
		{"never run", "admin", fmt.Sprintf("/rest/job-configuration/volume-report/%d", finance.ConfigID), 200, "[]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := p.call(tt.user, http.MethodGet, tt.path, nil)
			if a.code != tt.code || !strings.Contains(string(a.body), tt.body) {
				t.Fatalf("%d %s, want %d with %q", a.code, a.body, tt.code, tt.body)
			}
		})
	}
}

// TestDownloadTrace: the trace is the run's log, as an attachment, for who
// may read the job; others get 404 as for an unknown run.
func TestDownloadTrace(t *testing.T) {
	srv, p := demo(t)
	finance := storeFile(t, srv, "/Analytics/Finance/Revenue by Product.wbk")
	run := ranOnce(t, p, finance.ConfigID)
	path := fmt.Sprintf("/job/download-trace/%d", run)
	a := p.call("analyst", http.MethodGet, path, nil)
	log := p.call("analyst", http.MethodGet, fmt.Sprintf("/file-job?jobExecutionId=%d", run), nil)
	if a.code != 200 || string(a.body) != string(log.body) || !strings.Contains(string(a.body), "ended: ") ||
		!strings.HasPrefix(a.header.Get("Content-Type"), "text/plain") || !strings.Contains(a.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("trace %d %v %s; want the log %s as an attachment", a.code, a.header, a.body, log.body)
	}
	for _, tt := range []struct {
		name, user, path string
		code             int
		reason           string
	}{
		{"hidden from the viewer", "viewer", path, 404, "isn't accessible"},
		{"unknown", "admin", "/job/download-trace/999999", 404, "doesn't exist"},
		{"bad id", "admin", "/job/download-trace/x", 400, "not a positive"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := p.call(tt.user, http.MethodGet, tt.path, nil)
			p.wantFailure(a, tt.code, tt.reason)
			if a.header.Get("Content-Disposition") != "" {
				t.Fatalf("a refusal sent as an attachment: %v", a.header)
			}
		})
	}
}

// TestDashboardList: the dashboards the older platform listed are its infographics.
func TestDashboardList(t *testing.T) {
	_, p := demo(t)
	for user, want := range map[string]string{"admin": "/Visualization/Sales Dashboard.gra", "viewer": "/Visualization/Sales Dashboard.gra"} {
		var list []model.FileEntry
		p.get(user, "/rest/dashboard", &list)
		var infographics []model.FileEntry
		p.get(user, "/rest/infographics", &infographics)
		if len(list) != 1 || list[0].Path != want || fmt.Sprint(list) != fmt.Sprint(infographics) {
			t.Fatalf("%s: dashboards %+v, want the infographics %+v", user, list, infographics)
		}
	}
}
