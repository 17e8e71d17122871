package jobs

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

func TestImportEndsWithCountersAndData(t *testing.T) {
	fx := newFixture(t, 2)
	cases := []struct {
		name    string
		job     File
		state   model.JobState
		records int64
		dropped int64
	}{
		{"csv", fx.importJob("/Data/ImportJobs/orders.imp", SampleOrders, nil), model.StateCompleted, SampleOrdersRows, 0},
		{"csv with malformed rows", fx.importJob("/Data/ImportJobs/bad.imp", SampleOrdersWithErrors, nil),
			model.StateCompletedWithWarnings, 100 - SampleMalformedRows, SampleMalformedRows},
		{"json lines", fx.importJob("/Data/ImportJobs/customers.imp", SampleCustomers, nil), model.StateCompleted, SampleCustomersRows, 0},
		{"sqlite table", fx.cat.add("/Data/ImportJobs/products.imp", map[string]string{propTable: "products"}, fx.dbConn),
			model.StateCompleted, SampleProductsRows, 0},
		{"sqlite query", fx.cat.add("/Data/ImportJobs/tools.imp",
			map[string]string{propQuery: "SELECT * FROM products WHERE category = 'tools';"}, fx.dbConn),
			model.StateCompleted, fx.countProducts("tools"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := fx.trigger(tc.job)
			st := fx.waitFinal(tc.job)
			if st.JobStatus != tc.state || *st.JobExecutionID != id {
				t.Fatalf("status %+v, want %s of execution %d", st, tc.state, id)
			}
			if !st.StartTime.Valid() || !st.StopTime.Valid() || st.StopTime.Time.Before(st.StartTime.Time) {
				t.Errorf("start %v stop %v", st.StartTime, st.StopTime)
			}
			d := fx.details(id)
			if d.Counters[model.CounterImportRecords] != tc.records || d.Counters[model.CounterImportDroppedRecords] != tc.dropped {
				t.Errorf("counters %v, want %d records and %d dropped", d.Counters, tc.records, tc.dropped)
			}
			if d.SuccessCount != tc.records || d.FailureCount != tc.dropped {
				t.Errorf("success %d failure %d", d.SuccessCount, d.FailureCount)
			}
			if got := fx.count(`SELECT count(*) FROM ` + dataTableName(id)); got != tc.records {
				t.Errorf("stored %d rows, want %d", got, tc.records)
			}
		})
	}
}

func (fx *fixture) countProducts(category string) int64 {
	src := openTestDB(fx.t, fx.t.TempDir())
	if _, err := src.Exec(`ATTACH ? AS w`, filepath.Join(fx.files, SampleWarehouse)); err != nil {
		fx.t.Fatal(err)
	}
	var n int64
	if err := src.QueryRow(`SELECT count(*) FROM w.products WHERE category = ?`, category).Scan(&n); err != nil {
		fx.t.Fatal(err)
	}
	return n
}

func TestImportRefusesWhatItMayNotRead(t *testing.T) {
	fx := newFixture(t, 2)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.csv"), []byte("a\n1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(fx.files, "link")); err != nil {
		t.Fatal(err)
	}
	outsideConn := fx.cat.add("/Data/Connections/outside.dst", map[string]string{model.PropConnectionURL: "file://" + outside})
	outsideDB := fx.cat.add("/Data/Connections/outsidedb.dst", map[string]string{model.PropConnectionURL: "jdbc:sqlite:" + filepath.Join(outside, "x.db")})
	cases := map[string]File{
		"connection outside the roots": fx.cat.add("/a.imp", map[string]string{propPath: "secret.csv"}, outsideConn),
		"path climbing out":            fx.importJob("/b.imp", "../../"+filepath.Base(outside)+"/secret.csv", nil),
		"symbolic link out":            fx.importJob("/c.imp", "link/secret.csv", nil),
		"sqlite file outside":          fx.cat.add("/d.imp", map[string]string{propTable: "t"}, outsideDB),
		"query attaching a file":       fx.cat.add("/e.imp", map[string]string{propQuery: "SELECT * FROM pragma_database_list"}, fx.dbConn),
		"no connection":                fx.cat.add("/f.imp", map[string]string{propPath: SampleOrders}),
		"missing file":                 fx.importJob("/g.imp", "nope.csv", nil),
		"unknown format":               fx.importJob("/h.imp", SampleOrders, map[string]string{propFormat: "xml"}),
	}
	for name, job := range cases {
		t.Run(name, func(t *testing.T) {
			fx.trigger(job)
			if st := fx.waitFinal(job); st.JobStatus != model.StateError || st.Reason == "" {
				t.Fatalf("status %+v, want ERROR with a reason", st)
			}
		})
	}
	if n := fx.tablesLike(stagingPrefix); n != 0 {
		t.Errorf("%d staging tables left", n)
	}
}

func TestDataLinkStoresOnlyAPreview(t *testing.T) {
	fx := newFixture(t, 2)
	link := fx.cat.add("/Data/DataLinks/events.lnk", map[string]string{propPath: SampleEvents, propPreviewRecords: "50"}, fx.fsConn)
	id := fx.trigger(link)
	if st := fx.waitFinal(link); st.JobStatus != model.StateCompleted {
		t.Fatalf("status %+v", st)
	}
	d := fx.details(id)
	if d.Counters[model.CounterImportPreviewRecords] != 50 || d.Counters[model.CounterImportRecords] != 0 {
		t.Errorf("counters %v", d.Counters)
	}
	if n := fx.count(`SELECT count(*) FROM ` + dataTableName(id)); n != 50 {
		t.Errorf("stored %d rows, want 50", n)
	}
}

// paced returns an import of the big sample file slowed to rows per second.
func (fx *fixture) paced(path string, rowsPerSecond int) File {
	return fx.importJob(path, SampleEvents, map[string]string{propPace: strconv.Itoa(rowsPerSecond)})
}

func TestStopCancelsAndKeepsNoData(t *testing.T) {
	fx := newFixture(t, 1)
	running := fx.paced("/Data/ImportJobs/running.imp", 2000)
	queued := fx.paced("/Data/ImportJobs/queued.imp", 2000)
	// Executions start in the order they were triggered, so the first takes
	// the only slot and the second waits, however the goroutines are scheduled.
	runningID := fx.trigger(running)
	fx.trigger(queued)
	fx.waitFor("progress of the first import", func() bool {
		st, err := fx.engine.Status(context.Background(), running.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.JobStatus.Final() {
			t.Fatalf("the paced import ended before it could be stopped: %+v", st)
		}
		return st.JobProgress != nil && *st.JobProgress > 0
	})
	if st, _ := fx.engine.Status(context.Background(), queued.ID); st.JobStatus != model.StateQueued || !st.StartTime.Present || st.StartTime.Valid() {
		t.Fatalf("second job %+v, want QUEUED with a null start-time", st)
	}
	for _, f := range []File{queued, running} {
		if err := fx.engine.Stop(context.Background(), f.ID); err != nil {
			t.Fatal(err)
		}
	}
	st, _ := fx.engine.Status(context.Background(), running.ID)
	if st.JobStatus != model.StateCanceled || !st.StartTime.Valid() || !st.StopTime.Valid() {
		t.Errorf("stopped running job %+v, want CANCELED keeping its start-time", st)
	}
	st, _ = fx.engine.Status(context.Background(), queued.ID)
	if st.JobStatus != model.StateCanceled || st.StartTime.Valid() || !st.StopTime.Valid() {
		t.Errorf("stopped queued job %+v, want CANCELED with a null start-time", st)
	}
	if n := fx.tablesLike(stagingPrefix) + fx.tablesLike(dataPrefix); n != 0 {
		t.Errorf("%d data tables left after stops", n)
	}
	if _, err := fx.engine.DataOwner(context.Background(), runningID); !errors.Is(err, ErrNotFound) {
		t.Errorf("data of a canceled run: %v", err)
	}
	if err := fx.engine.Stop(context.Background(), running.ID); !errors.Is(err, ErrNotRunning) {
		t.Errorf("stop with nothing running: %v, want ErrNotRunning", err)
	}
}

func TestStopEndsAWorkbookMidQuery(t *testing.T) {
	fx := newFixture(t, 2)
	orders := fx.imported("/Data/ImportJobs/orders.imp", SampleOrders)
	// 10^12 rows to count: it ends only when stopped.
	endless := fx.cat.add("/Analytics/endless.wbk", map[string]string{propSQL: "SELECT count(*) FROM input1 a, input1 b, input1 c, input1 d"}, orders)
	id := fx.trigger(endless)
	fx.waitFor("the workbook running", func() bool {
		st, err := fx.engine.Status(context.Background(), endless.ID)
		if err != nil || st.JobStatus.Final() {
			t.Fatalf("%+v %v", st, err)
		}
		return st.JobStatus == model.StateRunning
	})
	// Nothing announces that the query itself has begun; the stop must work either way.
	time.Sleep(100 * time.Millisecond)
	if err := fx.engine.Stop(context.Background(), endless.ID); err != nil {
		t.Fatal(err)
	}
	if st := fx.waitFinal(endless); st.JobStatus != model.StateCanceled || !st.StartTime.Valid() {
		t.Errorf("status %+v, want CANCELED with its start-time", st)
	}
	if n := fx.tablesLike(stagingPrefix) + fx.tablesLike(dataTableName(id)); n != 0 {
		t.Errorf("%d tables left by the stopped workbook", n)
	}
}

func TestExecutionsStartInTheOrderTriggered(t *testing.T) {
	fx := newFixture(t, 1)
	blocker := fx.paced("/Data/ImportJobs/blocker.imp", 1000)
	fx.trigger(blocker)
	var waiting []File
	for i := range 6 {
		f := fx.importJob("/Data/ImportJobs/waiting"+strconv.Itoa(i)+".imp", SampleCustomers, nil)
		fx.trigger(f)
		waiting = append(waiting, f)
	}
	if err := fx.engine.Stop(context.Background(), blocker.ID); err != nil {
		t.Fatal(err)
	}
	// One slot: each execution starts only once the one triggered before it has stopped.
	previous := fx.waitFinal(blocker)
	for _, f := range waiting {
		st := fx.waitFinal(f)
		if st.JobStatus != model.StateCompleted || st.StartTime.Time.Before(previous.StopTime.Time) {
			t.Fatalf("%s %+v started before the execution triggered ahead of it stopped (%v)", f.Path, st, previous.StopTime.Time)
		}
		previous = st
	}
}

// TestStatusIsConsistentWhileRunsStartAndEnd reads the status over and over
// while executions start and end: every answer is whole for its state,
// whichever moment it catches (a run's row changes just before the run does).
func TestStatusIsConsistentWhileRunsStartAndEnd(t *testing.T) {
	fx := newFixture(t, 1)
	job := fx.importJob("/Data/ImportJobs/customers.imp", SampleCustomers, nil)
	seen := map[model.JobState]int{}
	for range 40 {
		fx.trigger(job)
		for ended := false; !ended; {
			st, err := fx.engine.Status(context.Background(), job.ID)
			if err != nil {
				t.Fatal(err)
			}
			seen[st.JobStatus]++
			switch {
			case st.JobStatus == model.StateRunning && (st.JobProgress == nil || st.EstimateTime == nil || !st.StartTime.Valid()):
				t.Fatalf("running without progress, estimate or start: %+v", st)
			case st.JobStatus == model.StateQueued && (st.StartTime.Valid() || st.JobProgress != nil):
				t.Fatalf("queued with a start or progress: %+v", st)
			case st.JobStatus.Final() && (!st.StopTime.Valid() || st.JobProgress != nil):
				t.Fatalf("ended without a stop-time, or with progress: %+v", st)
			}
			ended = st.JobStatus.Final()
		}
	}
	t.Logf("states seen: %v", seen)
}

func TestConcurrentTriggersAndStopsLeaveNothingActive(t *testing.T) {
	fx := newFixture(t, 4)
	jobs := []File{
		fx.importJob("/1.imp", SampleOrders, nil),
		fx.importJob("/2.imp", SampleOrdersWithErrors, nil),
		fx.importJob("/3.imp", SampleCustomers, nil),
		fx.paced("/4.imp", 50000),
		fx.cat.add("/5.imp", map[string]string{propTable: "products"}, fx.dbConn),
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := jobs[i%len(jobs)]
			if _, err := fx.engine.Trigger(context.Background(), f, "analyst", model.TriggerRESTAPI, nil); err != nil {
				t.Error(err)
			}
			if i%3 == 0 {
				if err := fx.engine.Stop(context.Background(), f.ID); err != nil && !errors.Is(err, ErrNotRunning) {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for _, f := range jobs {
		if err := fx.engine.Stop(context.Background(), f.ID); err != nil && !errors.Is(err, ErrNotRunning) {
			t.Error(err)
		}
	}
	if n := fx.count(`SELECT count(*) FROM job_executions WHERE state IN ('QUEUED', 'RUNNING')`); n != 0 {
		t.Errorf("%d executions still active", n)
	}
	if n := fx.count(`SELECT count(*) FROM job_executions`); n != 50 {
		t.Errorf("%d executions recorded, want 50", n)
	}
	if running := fx.engine.Running(); len(running) != 0 {
		t.Errorf("list-running holds %d", len(running))
	}
}

func TestRestartSettlesEveryExecution(t *testing.T) {
	fx := newFixture(t, 1)
	long := fx.paced("/Data/ImportJobs/long.imp", 1000)
	fx.trigger(long)
	fx.trigger(long)
	fx.waitFor("the first execution running", func() bool {
		running := fx.engine.Running()
		return len(running) == 2 && running[0].JobStatus == model.StateRunning
	})
	// A graceful close cancels both.
	if err := fx.engine.Close(); err != nil {
		t.Fatal(err)
	}
	if n := fx.count(`SELECT count(*) FROM job_executions WHERE state = 'CANCELED'`); n != 2 {
		t.Errorf("%d canceled after Close, want 2", n)
	}
	// A crash leaves rows active and a staging table behind; the next Open settles them.
	if _, err := fx.db.Exec(`INSERT INTO job_executions (file_id, file_uuid, file_path, file_name, configuration_id,
		user_name, trigger_kind, state, created_ms, started_ms) VALUES (?, '', '', '', 0, 'a', 'RESTAPI', 'RUNNING', 1, 1),
		(?, '', '', '', 0, 'a', 'RESTAPI', 'QUEUED', 1, NULL)`, long.ID, long.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.db.Exec(`CREATE TABLE jobstage_999 (a)`); err != nil {
		t.Fatal(err)
	}
	fx.open()
	if n := fx.count(`SELECT count(*) FROM job_executions WHERE state IN ('QUEUED', 'RUNNING')`); n != 0 {
		t.Errorf("%d executions still active after a restart", n)
	}
	if n := fx.count(`SELECT count(*) FROM job_executions WHERE state = 'ERROR' AND reason LIKE 'interrupted%'`); n != 1 {
		t.Errorf("%d interrupted runs marked ERROR, want 1", n)
	}
	if n := fx.tablesLike(stagingPrefix); n != 0 {
		t.Errorf("%d staging tables survived the restart", n)
	}
}

func TestWorkbookBindsVariablesAndReadsOnlyItsInputs(t *testing.T) {
	fx := newFixture(t, 2)
	orders := fx.imported("/Data/ImportJobs/Orders 2026.imp", SampleOrders)
	wb := func(sql string, vars map[string]string) File {
		props := map[string]string{propSQL: sql, "variable.region": "north"}
		return fx.cat.add("/Analytics/wb"+strconv.Itoa(int(fx.cat.next))+".wbk", props, orders)
	}
	regionCount := func(region string) int64 {
		return fx.count(`SELECT count(*) FROM `+dataTableName(mustLatest(t, fx, orders))+` WHERE region = ?`, region)
	}
	cases := []struct {
		name  string
		sql   string
		vars  map[string]string
		state model.JobState
		rows  int64
	}{
		{"default variable", "SELECT * FROM orders_2026 WHERE region = ${region}", nil, model.StateCompleted, regionCount("north")},
		{"given variable", "SELECT * FROM input1 WHERE region = ${region}", map[string]string{"region": "east"}, model.StateCompleted, regionCount("east")},
		{"injection stays a value", "SELECT * FROM input1 WHERE region = ${region}",
			map[string]string{"region": "x' OR '1'='1"}, model.StateCompleted, 0},
		{"numeric variable", "SELECT * FROM input1 WHERE order_id <= ${n}", map[string]string{"n": "10"}, model.StateCompleted, 10},
		{"variable inside quotes", "SELECT * FROM input1 WHERE region = '${region}'", nil, model.StateError, 0},
		{"missing variable", "SELECT * FROM input1 WHERE region = ${nope}", nil, model.StateError, 0},
		{"reading another table", "SELECT * FROM job_executions", nil, model.StateError, 0},
		{"writing", "DELETE FROM input1", nil, model.StateError, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := wb(tc.sql, tc.vars)
			ex, err := fx.engine.Trigger(context.Background(), f, "analyst", model.TriggerRESTAPI, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			st := fx.waitFinal(f)
			if st.JobStatus != tc.state {
				t.Fatalf("status %+v, want %s", st, tc.state)
			}
			if tc.state == model.StateCompleted {
				if got := fx.count(`SELECT count(*) FROM ` + dataTableName(ex.ID)); got != tc.rows || got != fx.details(ex.ID).SuccessCount {
					t.Errorf("%d rows, want %d", got, tc.rows)
				}
			}
		})
	}
	if n := fx.count(`SELECT count(*) FROM ` + dataTableName(mustLatest(t, fx, orders))); n != SampleOrdersRows {
		t.Errorf("the input has %d rows after the workbooks ran", n)
	}
}

func mustLatest(t *testing.T, fx *fixture, f File) int64 {
	t.Helper()
	var id int64
	if err := fx.db.QueryRow(`SELECT max(execution_id) FROM job_data WHERE file_id = ? AND deleted_ms IS NULL`, f.ID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestSequenceRunsInDependencyOrderWithVariables(t *testing.T) {
	fx := newFixture(t, 4)
	imp := fx.importJob("/Data/ImportJobs/orders.imp", SampleOrders, nil)
	wb := fx.cat.add("/Analytics/by region.wbk", map[string]string{
		propSQL:        "SELECT region, count(*) AS orders, sum(amount) AS total FROM orders WHERE amount >= ${min} GROUP BY region ORDER BY region",
		"variable.min": "0", propDataDriven: "true",
	}, imp)
	exp := fx.cat.add("/Exports/by region.exp", map[string]string{propPath: "out/by_region.csv"}, wb, fx.fsConn)
	plan, err := fx.engine.Sequence(context.Background(), []File{fx.fsConn}, "analyst", map[string]string{"min": "500"}, nil, func(File) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ids := map[string]int64{}
	for _, p := range plan.ExecutionPlan {
		names = append(names, p.JobConfigurationName)
		ids[p.JobConfigurationName] = p.JobExecutionID
	}
	want := []string{"samples", "orders", "by region", "by region"}
	if len(names) != len(want) || plan.ExecutionPlan[0].Trigger || !plan.ExecutionPlan[1].Trigger {
		t.Fatalf("plan %+v, want %v", plan.ExecutionPlan, want)
	}
	st := fx.waitFinal(exp)
	if st.JobStatus != model.StateCompleted {
		t.Fatalf("export %+v", st)
	}
	var prevStop time.Time
	for _, f := range []File{imp, wb, exp} {
		s := fx.waitFinal(f)
		if s.StartTime.Time.Before(prevStop) {
			t.Errorf("%s started %v before its upstream stopped %v", f.Path, s.StartTime.Time, prevStop)
		}
		prevStop = s.StopTime.Time
	}
	out, err := os.Open(filepath.Join(fx.files, "out", "by_region.csv"))
	if err != nil {
		t.Fatalf("export file: %v", err)
	}
	defer out.Close()
	records, err := csv.NewReader(out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var counted int64
	for _, rec := range records[1:] {
		n, _ := strconv.ParseInt(rec[1], 10, 64)
		counted += n
	}
	if wantRows := fx.count(`SELECT count(*) FROM `+dataTableName(mustLatest(t, fx, imp))+` WHERE amount >= ?`, 500); counted != wantRows {
		t.Errorf("export counts %d orders >= 500, want %d", counted, wantRows)
	}
	if d := fx.details(*st.JobExecutionID); d.Counters[model.CounterExportRecords] != int64(len(records)-1) || d.Counters[model.CounterExportBytes] == 0 {
		t.Errorf("export counters %v", d.Counters)
	}

	notDriven := fx.cat.add("/Analytics/manual.wbk", map[string]string{propSQL: "SELECT 1"}, imp)
	_, err = fx.engine.Sequence(context.Background(), []File{imp}, "analyst", nil, nil, func(File) error { return nil })
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("sequence through %s: %v, want a refusal", notDriven.Path, err)
	}
}

func TestDeleteDataAnswersThreeWays(t *testing.T) {
	fx := newFixture(t, 2)
	imp := fx.importJob("/Data/ImportJobs/orders.imp", SampleOrders, nil)
	id := fx.trigger(imp)
	fx.waitFinal(imp)
	ctx := context.Background()
	for i, want := range []model.DeletionOutcome{model.DeletionMarked, model.DeletionAlreadyMarked} {
		got, err := fx.engine.DeleteData(ctx, id)
		if err != nil || got != want {
			t.Fatalf("delete %d: %v %v, want %v", i+1, got, err, want)
		}
	}
	if n := fx.tablesLike(dataTableName(id)); n != 0 {
		t.Error("the data table is still there")
	}
	if _, err := fx.engine.DeleteData(ctx, 424242); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

func TestHistoryIsNewestFirstInWindows(t *testing.T) {
	fx := newFixture(t, 2)
	imp := fx.importJob("/Data/ImportJobs/customers.imp", SampleCustomers, nil)
	if st, _ := fx.engine.Status(context.Background(), imp.ID); st.JobStatus != model.StateNone || st.JobExecutionID != nil {
		t.Fatalf("never run: %+v", st)
	}
	var ids []int64
	for range 4 {
		ids = append(ids, fx.trigger(imp))
		fx.waitFinal(imp)
	}
	h, err := fx.engine.History(context.Background(), imp.ConfigurationID, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].ID != ids[2] || h[1].ID != ids[1] || h[0].JobStatus != model.StateCompleted {
		t.Errorf("history %+v, want executions %d and %d", h, ids[2], ids[1])
	}
	// Only the newest keepDataSets data sets stay.
	if n := fx.count(`SELECT count(*) FROM job_data WHERE file_id = ? AND deleted_ms IS NULL`, imp.ID); n != keepDataSets {
		t.Errorf("%d data sets kept, want %d", n, keepDataSets)
	}
	if got, _ := fx.engine.DeleteData(context.Background(), ids[0]); got != model.DeletionAlreadyMarked {
		t.Errorf("a retired data set answers %v", got)
	}
}

func TestScheduleKeepsJobsRunningUntilClose(t *testing.T) {
	fx := newFixture(t, 2)
	long := fx.paced("/Data/ImportJobs/long.imp", 100)
	before := runtime.NumGoroutine()
	fx.engine.Schedule([]File{long}, time.Hour, "admin")
	fx.waitFor("the scheduled trigger", func() bool { return len(fx.engine.Running()) == 1 })
	fx.engine.Close()
	if n := fx.count(`SELECT count(*) FROM job_executions WHERE state IN ('QUEUED', 'RUNNING')`); n != 0 {
		t.Errorf("%d executions still active after Close", n)
	}
	// database/sql may keep a connection goroutine a moment longer; the engine's own must be gone.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after Close, %d before the schedule", after, before)
	}
}

func TestSequenceCancelsDependentsOfAFailedStep(t *testing.T) {
	fx := newFixture(t, 2)
	broken := fx.importJob("/Data/ImportJobs/broken.imp", "missing.csv", nil)
	wb := fx.cat.add("/Analytics/after broken.wbk", map[string]string{propSQL: "SELECT * FROM input1", propDataDriven: "true"}, broken)
	plan, err := fx.engine.Sequence(context.Background(), []File{broken}, "analyst", nil, nil, func(File) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.ExecutionPlan) != 2 {
		t.Fatalf("plan %+v", plan)
	}
	if st := fx.waitFinal(broken); st.JobStatus != model.StateError {
		t.Errorf("broken import %+v", st)
	}
	st := fx.waitFinal(wb)
	if st.JobStatus != model.StateCanceled || st.StartTime.Valid() || !strings.Contains(st.Reason, "upstream") {
		t.Errorf("dependent of a failed step %+v, want CANCELED before it started, naming the upstream", st)
	}
	refused := errors.New("no")
	_, err = fx.engine.Sequence(context.Background(), []File{broken}, "viewer", nil, nil, func(File) error { return refused })
	var r *RefusedError
	if !errors.As(err, &r) {
		t.Errorf("a sequence the user may not run: %v", err)
	}
}

func TestExportStaysInsideItsConnection(t *testing.T) {
	fx := newFixture(t, 2)
	imp := fx.imported("/Data/ImportJobs/orders.imp", SampleOrders)
	for _, path := range []string{"../outside.csv", "../../etc/x.csv", ""} {
		exp := fx.cat.add("/Exports/e"+strconv.Itoa(int(fx.cat.next))+".exp", map[string]string{propPath: path}, imp, fx.fsConn)
		fx.trigger(exp)
		if st := fx.waitFinal(exp); st.JobStatus != model.StateError {
			t.Errorf("export to %q: %+v, want ERROR", path, st)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(fx.files), "outside.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an export escaped its connection: %v", err)
	}
}
