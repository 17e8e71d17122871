package api_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
)

// jobPlatform is a demo server over real HTTP, with clients for its users
// and a way to add jobs of the test's own (the demo's own jobs are also
// triggered by its schedule, so tests that count executions use fresh files).
type jobPlatform struct {
	t       testing.TB
	dir     string
	maxJobs int
	srv     *server.Server
	ts      *httptest.Server
	admin   *api.Client
	analyst *api.Client
	viewer  *api.Client
	next    int
}

func newJobPlatform(t testing.TB) *jobPlatform {
	t.Helper()
	p := &jobPlatform{t: t, dir: t.TempDir(), maxJobs: 4}
	p.start()
	return p
}

func (p *jobPlatform) start() {
	p.t.Helper()
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: p.dir, DemoData: true, MaxConcurrentJobs: p.maxJobs}))
	if err != nil {
		p.t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	p.srv, p.ts = srv, ts
	p.admin = api.New(ts.URL, "admin", "admin")
	p.analyst = api.New(ts.URL, "analyst", "analyst")
	p.viewer = api.New(ts.URL, "viewer", "viewer")
	p.t.Cleanup(p.stop)
}

// stop closes the HTTP server and the platform; a second call does nothing.
func (p *jobPlatform) stop() {
	if p.srv == nil {
		return
	}
	p.ts.Close()
	if err := p.srv.Close(); err != nil {
		p.t.Errorf("close: %v", err)
	}
	p.srv = nil
}

func (p *jobPlatform) filesDir() string { return server.FilesDir(p.dir) }

// create adds a file owned by analyst with the given properties and sources.
func (p *jobPlatform) create(path string, props map[string]string, sources ...string) store.File {
	p.t.Helper()
	ctx := context.Background()
	owner, err := p.srv.Store().UserByName(ctx, "analyst")
	if err != nil {
		p.t.Fatal(err)
	}
	cfg := &model.Configuration{Version: "1", Properties: map[string][]string{}}
	for k, v := range props {
		cfg.Properties[k] = []string{v}
	}
	for _, s := range sources {
		cfg.Sources = append(cfg.Sources, model.SourceRef{Path: s})
	}
	f, err := p.srv.Store().CreateFile(ctx, store.NewFile{Path: path, OwnerID: owner.ID, Config: cfg})
	if err != nil {
		p.t.Fatalf("create %s: %v", path, err)
	}
	return f
}

const localFiles = "/Data/Connections/Local Files.dst"

// importOf adds an import job over the demo's file-system connection.
func (p *jobPlatform) importOf(file string, extra map[string]string) store.File {
	p.next++
	props := map[string]string{"path": file}
	for k, v := range extra {
		props[k] = v
	}
	return p.create(fmt.Sprintf("/Data/ImportJobs/Test %d.imp", p.next), props, localFiles)
}

// waitFinal polls the status until the newest execution has ended, and
// returns every status seen on the way.
func waitFinal(t *testing.T, c *api.Client, ref api.Ref) []model.JobStatus {
	t.Helper()
	var seen []model.JobStatus
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		st, err := c.JobStatus(context.Background(), ref)
		if err != nil {
			t.Fatalf("status of %s: %v", ref, err)
		}
		seen = append(seen, st)
		if st.JobStatus.Final() {
			return seen
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not end within a minute; last %+v", ref, seen[len(seen)-1])
	return nil
}

func TestJobImportRunsWithRisingProgress(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	// 60,000 rows at 20,000 a second: about three seconds of polling.
	job := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "20000"})
	ref := api.Path(job.Path)
	if st, err := p.analyst.JobStatus(ctx, ref); err != nil || st.JobStatus != model.StateNone {
		t.Fatalf("never run: %+v %v", st, err)
	}
	trig, err := p.analyst.TriggerJob(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if trig.Status != model.StatusSuccess || trig.JobExecutionUser != "analyst" || trig.JobExecutionTrigger != model.TriggerRESTAPI {
		t.Errorf("trigger answered %+v", trig)
	}
	seen := waitFinal(t, p.analyst, ref)
	var progress []model.Progress
	for _, st := range seen[:len(seen)-1] {
		if st.JobStatus != model.StateQueued && st.JobStatus != model.StateRunning {
			t.Fatalf("status on the way %+v", st)
		}
		if st.JobStatus == model.StateRunning {
			if st.JobProgress == nil || st.EstimateTime == nil || !st.StartTime.Valid() {
				t.Fatalf("running without progress, estimate or start: %+v", st)
			}
			progress = append(progress, *st.JobProgress)
		}
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] < progress[i-1] {
			t.Fatalf("progress fell: %v", progress)
		}
	}
	if len(progress) < 2 || progress[len(progress)-1] <= progress[0] {
		t.Errorf("progress did not rise: %v", progress)
	}
	last := seen[len(seen)-1]
	if last.JobStatus != model.StateCompleted || !last.StopTime.Valid() || *last.JobExecutionID != trig.JobExecutionID || *last.FileID != job.ID {
		t.Fatalf("final status %+v", last)
	}
	d, err := p.analyst.JobDetails(ctx, trig.JobExecutionID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Counters[model.CounterImportRecords] != jobs.SampleEventsRows || d.SuccessCount != jobs.SampleEventsRows ||
		d.JobConfigurationID != job.ConfigID || d.File.UUID != job.UUID || d.JobStatus != model.StateCompleted {
		t.Errorf("details %+v", d)
	}
	h, err := p.analyst.JobHistory(ctx, job.ConfigID, 0, 0)
	if err != nil || len(h) != 1 || h[0].ID != trig.JobExecutionID || h[0].JobStatus != model.StateCompleted {
		t.Errorf("history %+v %v", h, err)
	}
}

func TestJobMalformedRowsEndWithWarnings(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	job := p.importOf(jobs.SampleOrdersWithErrors, nil)
	trig, err := p.analyst.TriggerJob(ctx, api.FileID(job.ID))
	if err != nil {
		t.Fatal(err)
	}
	seen := waitFinal(t, p.analyst, api.UUID(job.UUID))
	if st := seen[len(seen)-1]; st.JobStatus != model.StateCompletedWithWarnings {
		t.Fatalf("status %+v", st)
	}
	d, err := p.analyst.JobDetails(ctx, trig.JobExecutionID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Counters[model.CounterImportDroppedRecords] != jobs.SampleMalformedRows || d.FailureCount != jobs.SampleMalformedRows ||
		d.Counters[model.CounterImportRecords] != 100-jobs.SampleMalformedRows {
		t.Errorf("details %+v", d)
	}
}

// dataTables counts the engine's tables holding an execution's data,
// published or staged.
func (p *jobPlatform) dataTables(executionID int64) int {
	p.t.Helper()
	var n int
	err := p.srv.Store().DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (?, ?)`,
		fmt.Sprintf("jobdata_%d", executionID), fmt.Sprintf("jobstage_%d", executionID)).Scan(&n)
	if err != nil {
		p.t.Fatal(err)
	}
	return n
}

func TestJobStopCancelsAtOnce(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	job := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "2000"})
	ref := api.Path(job.Path)
	trig, err := p.analyst.TriggerJob(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	var started time.Time
	for deadline := time.Now().Add(10 * time.Second); started.IsZero(); {
		if time.Now().After(deadline) {
			t.Fatal("the import did not make progress within 10s")
		}
		st, err := p.analyst.JobStatus(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if st.JobStatus == model.StateRunning && st.JobProgress != nil && *st.JobProgress > 0 {
			started = st.StartTime.Time
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := p.viewer.StopJob(ctx, ref); !api.IsFailure(err) {
		t.Errorf("viewer stopped a job: %v", err)
	}
	if err := p.analyst.StopJob(ctx, ref); err != nil {
		t.Fatal(err)
	}
	st, err := p.analyst.JobStatus(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if st.JobStatus != model.StateCanceled {
		t.Fatalf("the status right after the stop is %+v, want CANCELED", st)
	}
	if !st.StartTime.Time.Equal(started) || !st.StopTime.Valid() {
		t.Errorf("canceled status %+v lost its start-time %v", st, started)
	}
	if n := p.dataTables(trig.JobExecutionID); n != 0 {
		t.Errorf("%d data tables left by the canceled import", n)
	}
	if _, err := p.analyst.DeleteJobData(ctx, trig.JobExecutionID); !api.IsFailure(err) {
		t.Errorf("delete data of a canceled import: %v, want a failure", err)
	}
	err = p.analyst.StopJob(ctx, ref)
	if !api.IsFailure(err) || !strings.Contains(err.Error(), "no queued or running execution") {
		t.Errorf("stop with nothing running: %v", err)
	}
}

func TestJobSequenceRunsInOrderWithVariables(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	files := p.filesDir()
	conn := p.create("/Data/Connections/Sequence Files.dst", map[string]string{model.PropConnectionURL: "file://" + files})
	imp := p.create("/Data/ImportJobs/Sequence Orders.imp", map[string]string{"path": jobs.SampleOrders}, conn.Path)
	wb := p.create("/Analytics/Big Orders.wbk", map[string]string{
		"sql":                "SELECT region, count(*) AS orders FROM sequence_orders WHERE amount >= ${minAmount} GROUP BY region ORDER BY region",
		"variable.minAmount": "0", "dataDriven": "true"}, imp.Path)
	exp := p.create("/Exports/Big Orders.exp", map[string]string{"path": "sequence/big_orders.csv"}, wb.Path, conn.Path)

	plan, err := p.analyst.TriggerSequence(ctx, []int64{conn.ID}, map[string]string{"minAmount": "500"})
	if err != nil {
		t.Fatal(err)
	}
	wantPlan := []struct {
		name    string
		trigger bool
	}{{"Sequence Files", false}, {"Sequence Orders", true}, {"Big Orders", true}, {"Big Orders", true}}
	if plan.Status != model.StatusSuccess || len(plan.ExecutionPlan) != len(wantPlan) {
		t.Fatalf("plan %+v", plan)
	}
	for i, w := range wantPlan {
		e := plan.ExecutionPlan[i]
		if e.JobConfigurationName != w.name || e.Trigger != w.trigger || (e.JobExecutionID != 0) != w.trigger {
			t.Errorf("plan entry %d: %+v, want %s trigger %v", i, e, w.name, w.trigger)
		}
	}
	waitFinal(t, p.analyst, api.FileID(exp.ID))
	// The history of each job proves the order: each started after its upstream stopped.
	var upstreamStop time.Time
	for i, f := range []store.File{imp, wb, exp} {
		h, err := p.analyst.JobHistory(ctx, f.ConfigID, 0, 10)
		if err != nil || len(h) != 1 || h[0].ID != plan.ExecutionPlan[i+1].JobExecutionID || h[0].JobStatus != model.StateCompleted {
			t.Fatalf("history of %s: %+v %v", f.Path, h, err)
		}
		d, err := p.analyst.JobDetails(ctx, h[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.StartTime.Time.Before(upstreamStop) {
			t.Errorf("%s started %v, before its upstream stopped %v", f.Path, d.StartTime.Time, upstreamStop)
		}
		upstreamStop = d.StopTime.Time
	}
	out, err := os.Open(filepath.Join(files, "sequence", "big_orders.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	records, err := csv.NewReader(out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var exported int
	for _, rec := range records[1:] {
		n, _ := strconv.Atoi(rec[1])
		exported += n
	}
	if want := countOrders(t, filepath.Join(files, jobs.SampleOrders), 500); exported != want {
		t.Errorf("the export counts %d orders of 500 or more, want %d (variable not applied?)", exported, want)
	}

	// The demo's chain from its file-system connection holds a workbook that is not data-driven.
	localID := p.fileID(localFiles)
	_, err = p.analyst.TriggerSequence(ctx, []int64{localID}, nil)
	if !api.IsFailure(err) || !strings.Contains(err.Error(), "not data-driven") {
		t.Errorf("sequence through a workbook that is not data-driven: %v", err)
	}
}

func (p *jobPlatform) fileID(path string) int64 {
	p.t.Helper()
	f, err := p.srv.Store().FileByPath(context.Background(), path)
	if err != nil {
		p.t.Fatal(err)
	}
	return f.ID
}

// countOrders counts the rows of the orders sample whose amount is at least min.
func countOrders(t *testing.T, path string, min float64) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rec := range records[1:] {
		if amount, _ := strconv.ParseFloat(rec[3], 64); amount >= min {
			n++
		}
	}
	return n
}

// activeExecutions counts stored executions still QUEUED or RUNNING.
func (p *jobPlatform) activeExecutions(fileIDs ...int64) int {
	p.t.Helper()
	var n int
	for _, id := range fileIDs {
		var k int
		if err := p.srv.Store().DB().QueryRow(`SELECT count(*) FROM job_executions WHERE file_id = ? AND state IN ('QUEUED', 'RUNNING')`, id).Scan(&k); err != nil {
			p.t.Fatal(err)
		}
		n += k
	}
	return n
}

func TestJobConcurrentTriggersAndStops(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	targets := []store.File{
		p.importOf(jobs.SampleOrders, nil),
		p.importOf(jobs.SampleCustomers, nil),
		p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "30000"}),
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ref := api.FileID(targets[i%len(targets)].ID)
			if _, err := p.analyst.TriggerJob(ctx, ref); err != nil {
				t.Error(err)
			}
			if i%2 == 0 {
				if err := p.analyst.StopJob(ctx, ref); err != nil && !api.IsFailure(err) {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	ids := []int64{targets[0].ID, targets[1].ID, targets[2].ID}
	deadline := time.Now().Add(60 * time.Second)
	for p.activeExecutions(ids...) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := p.activeExecutions(ids...); n != 0 {
		t.Fatalf("%d executions still active a minute later", n)
	}
	running, err := p.admin.RunningJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range running {
		for _, id := range ids {
			if r.FileID == id {
				t.Errorf("list-running still shows %+v", r)
			}
		}
	}
}

func TestJobRestartMidRunLeavesNothingRunning(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	job := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "1000"})
	trig, err := p.analyst.TriggerJob(ctx, api.FileID(job.ID))
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := p.analyst.JobStatus(ctx, api.FileID(job.ID))
		if err != nil {
			t.Fatal(err)
		}
		if st.JobStatus == model.StateRunning {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not running after 10s: %+v", st)
		}
	}
	p.stop()
	p.start()
	st, err := p.analyst.JobStatus(ctx, api.FileID(job.ID))
	if err != nil {
		t.Fatal(err)
	}
	if st.JobStatus != model.StateCanceled || *st.JobExecutionID != trig.JobExecutionID || !st.StartTime.Valid() {
		t.Errorf("after a restart %+v, want the run CANCELED with its start-time", st)
	}
	if n := p.activeExecutions(job.ID); n != 0 {
		t.Errorf("%d executions active after a restart", n)
	}
	if n := p.dataTables(trig.JobExecutionID); n != 0 {
		t.Errorf("%d data tables left by the interrupted run", n)
	}
}

func TestJobDeleteDataAnswersThreeWays(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	job := p.importOf(jobs.SampleCustomers, nil)
	trig, err := p.analyst.TriggerJob(ctx, api.FileID(job.ID))
	if err != nil {
		t.Fatal(err)
	}
	waitFinal(t, p.analyst, api.FileID(job.ID))
	if _, err := p.viewer.DeleteJobData(ctx, trig.JobExecutionID); !api.IsFailure(err) {
		t.Errorf("viewer deleted data: %v", err)
	}
	cases := []struct {
		id   int64
		want model.DeletionOutcome
	}{
		{trig.JobExecutionID, model.DeletionMarked},
		{trig.JobExecutionID, model.DeletionAlreadyMarked},
		{987654, model.DeletionFailed},
	}
	for _, tc := range cases {
		d, err := p.analyst.DeleteJobData(ctx, tc.id)
		if d.Outcome != tc.want || (tc.want == model.DeletionFailed) != api.IsFailure(err) {
			t.Errorf("delete data %d: %+v %v, want %v", tc.id, d, err, tc.want)
		}
	}
	if n := p.dataTables(trig.JobExecutionID); n != 0 {
		t.Errorf("the data is still stored")
	}
}

func TestJobPermissionsAndFailures(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	orders := api.Path("/Data/ImportJobs/Orders.imp")
	hidden := api.Path("/Exports/Sales by Region.exp")
	// A file the caller sees but may not run is worded as the platform does.
	platformWording := func(err error) bool {
		return api.IsFailure(err) && strings.Contains(err.Error(), "File doesn't exist or isn't accessible with current permissions")
	}
	checks := []struct {
		name  string
		call  func() error
		wants func(error) bool
	}{
		{"viewer reads a status", func() error { _, err := p.viewer.JobStatus(ctx, orders); return err }, isNil},
		{"viewer triggers", func() error { _, err := p.viewer.TriggerJob(ctx, orders); return err }, platformWording},
		{"viewer stops", func() error { return p.viewer.StopJob(ctx, orders) }, platformWording},
		{"viewer reads a hidden status", func() error { _, err := p.viewer.JobStatus(ctx, hidden); return err }, api.IsFailure},
		{"missing file", func() error { _, err := p.admin.JobStatus(ctx, api.Path("/Data/nope.imp")); return err }, api.IsFailure},
		{"trigger a connection", func() error { _, err := p.admin.TriggerJob(ctx, api.Path(localFiles)); return err }, api.IsFailure},
		{"unknown execution details", func() error { _, err := p.admin.JobDetails(ctx, 999999); return err }, api.IsFailure},
		{"unknown configuration history", func() error { _, err := p.admin.JobHistory(ctx, 999999, 0, 0); return err }, api.IsFailure},
		{"empty sequence", func() error { _, err := p.admin.TriggerSequence(ctx, nil, nil); return err }, api.IsBadRequest},
		{"viewer sequence of a hidden file", func() error {
			f, err := p.srv.Store().FileByPath(ctx, hidden.String())
			if err != nil {
				return err
			}
			_, err = p.viewer.TriggerSequence(ctx, []int64{f.ID}, nil)
			return err
		}, api.IsFailure},
		{"stop a job with nothing running", func() error {
			idle := p.importOf(jobs.SampleEvents, nil)
			return p.admin.StopJob(ctx, api.FileID(idle.ID))
		}, api.IsFailure},
		{"negative history start", func() error { _, err := p.admin.JobHistory(ctx, 1, -1, 5); return err }, api.IsBadRequest},
		{"empty reference", func() error { _, err := p.admin.JobStatus(ctx, api.Ref{}); return err }, func(err error) bool {
			return errors.Is(err, api.ErrEmptyRef)
		}},
		{"server down", func() error {
			down := httptest.NewServer(http.NotFoundHandler())
			down.Close()
			_, err := api.New(down.URL, "admin", "admin").RunningJobs(ctx)
			return err
		}, api.IsUnreachable},
		{"no credentials", func() error {
			_, err := api.New(p.ts.URL, "analyst", "wrong").JobStatus(ctx, orders)
			return err
		}, api.IsUnauthorized},
	}
	for _, c := range checks {
		if err := c.call(); !c.wants(err) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	// The spec's failure body, word for word.
	_, err := p.viewer.JobStatus(ctx, hidden)
	if !strings.Contains(err.Error(), "File doesn't exist or isn't accessible with current permissions") {
		t.Errorf("failure reason: %v", err)
	}
}

func isNil(err error) bool { return err == nil }

// TestJobExecuteComesFromOwnershipGroupsOrOthers: trigger and stop need the
// executable flag, from one of the user's groups or from others, or
// ownership; reading is not enough. History and details follow reading.
// (The viewers may run the connection the imports read, which an import
// needs too: TestJobsUseConnectionsOnlyAsTheCallerMay in server.)
func TestJobExecuteComesFromOwnershipGroupsOrOthers(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	readOnly := model.Flags{Readable: true}
	runnable := model.Flags{Readable: true, Executable: true}
	if _, err := p.admin.CreateGroupPermission(ctx, api.Path(localFiles), "viewers", runnable); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		client *api.Client
		grant  func(api.Ref) error
		allows bool
	}{
		{"owner without any flag", p.analyst, func(ref api.Ref) error {
			if _, err := p.admin.DeleteGroupPermission(ctx, ref, "analysts"); err != nil {
				return err
			}
			_, err := p.admin.ChangeOthersPermission(ctx, ref, model.Flags{})
			return err
		}, true},
		{"viewer reading only", p.viewer, func(ref api.Ref) error {
			_, err := p.admin.ChangeOthersPermission(ctx, ref, readOnly)
			return err
		}, false},
		{"viewer through its group", p.viewer, func(ref api.Ref) error {
			_, err := p.admin.CreateGroupPermission(ctx, ref, "viewers", runnable)
			return err
		}, true},
		{"viewer through others", p.viewer, func(ref api.Ref) error {
			_, err := p.admin.ChangeOthersPermission(ctx, ref, runnable)
			return err
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "1000"})
			ref := api.FileID(job.ID)
			if err := tc.grant(ref); err != nil {
				t.Fatal(err)
			}
			if _, err := tc.client.JobStatus(ctx, ref); err != nil {
				t.Fatalf("status of a readable job: %v", err)
			}
			trig, err := tc.client.TriggerJob(ctx, ref)
			if tc.allows != (err == nil) || (err != nil && !api.IsFailure(err)) {
				t.Fatalf("trigger: %+v %v, want allowed %v", trig, err, tc.allows)
			}
			if !tc.allows {
				if _, err := p.analyst.TriggerJob(ctx, ref); err != nil {
					t.Fatal(err)
				}
			}
			if err := tc.client.StopJob(ctx, ref); tc.allows != (err == nil) {
				t.Errorf("stop: %v, want allowed %v", err, tc.allows)
			}
			if err := p.analyst.StopJob(ctx, ref); err != nil && !api.IsFailure(err) {
				t.Error(err)
			}
		})
	}

	// A file the viewer may not read: neither its history nor its details.
	hidden := api.Path("/Exports/Sales by Region.exp")
	trig, err := p.admin.TriggerJob(ctx, hidden)
	if err != nil {
		t.Fatal(err)
	}
	waitFinal(t, p.admin, hidden)
	d, err := p.admin.JobDetails(ctx, trig.JobExecutionID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.viewer.JobDetails(ctx, trig.JobExecutionID); !api.IsFailure(err) {
		t.Errorf("viewer read details of a hidden job: %v", err)
	}
	if _, err := p.viewer.JobHistory(ctx, d.JobConfigurationID, 0, 0); !api.IsFailure(err) {
		t.Errorf("viewer read the history of a hidden job: %v", err)
	}
}

// rawJSON fetches a body as a generic JSON value, to check keys and types
// as the spec lists them rather than through our own structs.
func (p *jobPlatform) rawJSON(method, path string) any {
	p.t.Helper()
	req, err := http.NewRequest(method, p.ts.URL+path, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	req.SetBasicAuth("admin", "admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		p.t.Fatalf("%s %s: %v: %s", method, path, err, body)
	}
	return v
}

func TestJobAnswersHaveTheSpecsKeysAndTypes(t *testing.T) {
	p := newJobPlatform(t)
	job := p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "1000"})
	trig := p.rawJSON(http.MethodPost, fmt.Sprintf("/api/job-execution/%d/trigger", job.ID)).(map[string]any)
	wantTypes(t, "trigger", trig, map[string]string{"status": "string", "job-execution-id": "number",
		"job-execution-user": "string", "job-execution-trigger": "string"})
	var status map[string]any
	for deadline := time.Now().Add(10 * time.Second); status["job-status"] != "RUNNING"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not running after 10s: %v", status)
		}
		status = p.rawJSON(http.MethodGet, "/api/job-execution/"+url.PathEscape(job.Path)+"/status").(map[string]any)
	}
	wantTypes(t, "running status", status, map[string]string{"status": "string", "job-status": "string", "file-id": "number",
		"job-execution-id": "number", "start-time": "string", "estimate-time": "string", "job-progress": "string"})
	if !strings.HasSuffix(status["estimate-time"].(string), "s") {
		t.Errorf("estimate-time %v has no s suffix", status["estimate-time"])
	}
	running := p.rawJSON(http.MethodGet, "/api/job-execution/list-running").([]any)
	if len(running) == 0 {
		t.Fatal("list-running is empty")
	}
	wantTypes(t, "list-running entry", running[0].(map[string]any), map[string]string{"jobStatus": "string", "fileName": "string",
		"jobName": "string", "fileId": "number", "uuid": "string", "creationDate": "number", "jobExecutionId": "number",
		"dapJobConfigurationId": "number", "estimatedTime": "number", "startTime": "number"})
	if ms := running[0].(map[string]any)["creationDate"].(float64); ms < 1e12 {
		t.Errorf("creationDate %v is not epoch milliseconds", ms)
	}
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/job-execution/%d/stop", p.ts.URL, job.ID), nil)
	req.SetBasicAuth("admin", "admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("stop answered %d %q, want 200 and no body", resp.StatusCode, body)
	}
	id := int64(trig["job-execution-id"].(float64))
	details := p.rawJSON(http.MethodGet, fmt.Sprintf("/rest/job-execution/job-details/%d", id)).(map[string]any)
	wantTypes(t, "details", details, map[string]string{"startTime": "string", "stopTime": "string", "jobStatus": "string",
		"jobConfigurationId": "number", "file": "object", "successCount": "number", "failureCount": "number", "counters": "object"})
	wantTypes(t, "details file", details["file"].(map[string]any), map[string]string{"id": "number", "uuid": "string"})
	history := p.rawJSON(http.MethodGet, fmt.Sprintf("/rest/job-configuration/job-history/%d", job.ConfigID)).([]any)
	wantTypes(t, "history entry", history[0].(map[string]any), map[string]string{"id": "number", "jobStatus": "string"})
	never := p.importOf(jobs.SampleOrders, nil)
	none := p.rawJSON(http.MethodGet, fmt.Sprintf("/api/job-execution/%s/status", never.UUID)).(map[string]any)
	if len(none) != 2 || none["status"] != "success" || none["job-status"] != "_NONE" {
		t.Errorf("never-run status %v", none)
	}
}

func wantTypes(t *testing.T, what string, obj map[string]any, keys map[string]string) {
	t.Helper()
	for k, want := range keys {
		v, ok := obj[k]
		if !ok {
			t.Errorf("%s: no key %q in %v", what, k, obj)
			continue
		}
		var got string
		switch v.(type) {
		case string:
			got = "string"
		case float64:
			got = "number"
		case map[string]any:
			got = "object"
		case []any:
			got = "array"
		case bool:
			got = "boolean"
		default:
			got = "null"
		}
		if got != want {
			t.Errorf("%s: %q is %s (%v), want %s", what, k, got, v, want)
		}
	}
}

// BenchmarkListRunning10kHTTP reads list-running over HTTP while 10,000
// executions are active: one job slowed to a row a second, triggered 10,000
// times, so whichever holds the only slot none ends during the benchmark and
// the rest wait behind it. As admin every entry is sent; as analyst each
// distinct file is checked for visibility first.
func BenchmarkListRunning10kHTTP(b *testing.B) {
	p := &jobPlatform{t: b, dir: b.TempDir(), maxJobs: 1}
	p.start()
	ctx := context.Background()
	slow := api.FileID(p.importOf(jobs.SampleEvents, map[string]string{"pace.rowsPerSecond": "1"}).ID)
	var wg sync.WaitGroup
	const workers, each = 8, 1250
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := p.analyst.TriggerJob(ctx, slow); err != nil {
					b.Errorf("trigger %d/%d: %v", w, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, c := range []struct {
		name   string
		client *api.Client
	}{{"admin", p.admin}, {"analyst", p.analyst}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				running, err := c.client.RunningJobs(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if len(running) < workers*each {
					b.Fatalf("%d active, want at least %d", len(running), workers*each)
				}
			}
		})
	}
}
