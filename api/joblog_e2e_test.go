package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server/jobs"
)

// TestJobLog: the server keeps each run's log and serves it at the real
// platform's GET /file-job?jobExecutionId=<id>: the steps while the job
// runs, and after it the counts, the warnings, the error and how it ended.
func TestJobLog(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	run := func(ref api.Ref) int64 {
		t.Helper()
		trig, err := p.analyst.TriggerJob(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		waitFinal(t, p.analyst, ref)
		return trig.JobExecutionID
	}
	warned := p.importOf(jobs.SampleOrdersWithErrors, nil)
	neverRun := p.importOf(jobs.SampleEvents, nil)
	failing := p.create("/Analytics/Test Failing.wbk", map[string]string{"sql": "SELECT * FROM input1"}, neverRun.Path)
	tests := []struct {
		name       string
		ref        api.Ref
		want       []string
		wantReason string
	}{
		{"warnings", api.FileID(warned.ID), []string{
			"queued " + warned.Path + " by analyst (RESTAPI)", "started " + warned.Path, "reading through connection " + localFiles,
			fmt.Sprintf("read %d records", 100-jobs.SampleMalformedRows),
			fmt.Sprintf("WARN %d records did not fit the columns and were dropped", jobs.SampleMalformedRows),
			fmt.Sprintf("ended: COMPLETED_WITH_WARNINGS (%d succeeded, %d failed)", 100-jobs.SampleMalformedRows, jobs.SampleMalformedRows),
		}, ""},
		{"error", api.FileID(failing.ID), []string{
			"started " + failing.Path, "ERROR " + failing.Path + ": input " + neverRun.Path + " has no data: run it first",
			"ended: ERROR — ",
		}, "has no data: run it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := run(tt.ref)
			text, cut, err := p.analyst.JobLog(ctx, id)
			if err != nil || cut {
				t.Fatalf("log of #%d: cut %v, %v", id, cut, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("the log lacks %q:\n%s", w, text)
				}
			}
			if !strings.HasPrefix(text, time.Now().Format("2006-")) {
				t.Errorf("log lines start with their time:\n%s", text)
			}
			st, err := p.analyst.JobStatus(ctx, tt.ref)
			if err != nil || !strings.Contains(st.Reason, tt.wantReason) {
				t.Errorf("status reason %q (%v), want it to hold %q", st.Reason, err, tt.wantReason)
			}
		})
	}

	t.Run("while it runs", func(t *testing.T) {
		slow := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "2000"})
		trig, err := p.analyst.TriggerJob(ctx, api.FileID(slow.ID))
		if err != nil {
			t.Fatal(err)
		}
		defer p.admin.StopJob(ctx, api.FileID(slow.ID))
		deadline := time.Now().Add(30 * time.Second)
		for {
			text, _, err := p.analyst.JobLog(ctx, trig.JobExecutionID)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, "ended:") {
				t.Fatalf("the log ended before the job:\n%s", text)
			}
			if strings.Contains(text, "started "+slow.Path) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the running job's log never said it started:\n%s", text)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		hidden, err := p.srv.Store().FileByPath(ctx, "/Exports/Sales by Region.exp")
		if err != nil {
			t.Fatal(err)
		}
		trig, err := p.admin.TriggerJob(ctx, api.FileID(hidden.ID))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.viewer.JobLog(ctx, trig.JobExecutionID); !api.IsNotFound(err) {
			t.Errorf("a viewer read the log of a file he may not see: %v", err)
		}
		if _, _, err := p.admin.JobLog(ctx, 999999); !api.IsNotFound(err) {
			t.Errorf("unknown execution: %v", err)
		}
		for _, bad := range []string{"", "x", "-1", "0"} {
			resp, err := http.Get(p.ts.URL + "/file-job?jobExecutionId=" + bad)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("no credentials, id %q: %d", bad, resp.StatusCode)
			}
			req, _ := http.NewRequest(http.MethodGet, p.ts.URL+"/file-job?jobExecutionId="+bad, nil)
			req.SetBasicAuth("admin", "admin")
			resp, err = http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("id %q: %d, want 400", bad, resp.StatusCode)
			}
		}
		if _, err := p.admin.JobDetails(ctx, trig.JobExecutionID); err != nil {
			t.Errorf("details of the hidden run, as admin: %v", err)
		}
	})
}
