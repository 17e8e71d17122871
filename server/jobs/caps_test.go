package jobs

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// TestWorkbookResultIsBoundedInBytes: randomblob(1000000) × 400 rows took
// the server from 270 MB to 500 MB; rows alone did not bound it. A result
// past the byte cap ends the run ERROR with the reason, and keeps no data.
func TestWorkbookResultIsBoundedInBytes(t *testing.T) {
	fx := newFixture(t, 2)
	orders := fx.imported("/Data/ImportJobs/orders.imp", SampleOrders)
	fx.engine.Close()
	fx.caps.MaxWorkbookBytes = 64 << 10
	fx.open()
	blobs := fx.cat.add("/Analytics/blobs.wbk", map[string]string{propSQL: "SELECT randomblob(10000) AS b FROM input1"}, orders)
	fx.trigger(blobs)
	st := fx.waitFinal(blobs)
	if st.JobStatus != model.StateError || !strings.Contains(st.Reason, "cap of one workbook run") {
		t.Fatalf("status %+v, want ERROR naming the byte cap", st)
	}
	if n := fx.tablesLike(stagingPrefix) + fx.tablesLike(dataPrefix); n != 1 { // the import's data only
		t.Errorf("%d data tables, want the import's alone", n)
	}
}

// TestRunsPerUserAreCapped: past the per-user cap an execution ends ERROR
// at once, saying why; another user, and the server's own schedules, still run.
func TestRunsPerUserAreCapped(t *testing.T) {
	fx := newFixture(t, 4)
	fx.engine.Close()
	fx.caps.MaxRunsPerUser = 2
	fx.open()
	var files []File
	for _, name := range []string{"a", "b", "c"} {
		files = append(files, fx.paced("/Data/ImportJobs/"+name+".imp", 200))
	}
	for _, f := range files {
		fx.trigger(f) // as analyst
	}
	st := fx.waitFinal(files[2])
	if st.JobStatus != model.StateError || !strings.Contains(st.Reason, "at most 2 at once per user") {
		t.Fatalf("third execution %+v, want ERROR naming the per-user cap", st)
	}
	other := fx.paced("/Data/ImportJobs/other.imp", 200)
	if _, err := fx.engine.Trigger(context.Background(), other, "viewer", model.TriggerRESTAPI, nil); err != nil {
		t.Fatal(err)
	}
	scheduled := fx.paced("/Data/ImportJobs/scheduled.imp", 200)
	if _, err := fx.engine.Trigger(context.Background(), scheduled, "analyst", TriggerScheduler, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []File{files[0], other, scheduled} {
		if st, _ := fx.engine.Status(context.Background(), f.ID); st.JobStatus.Final() {
			t.Errorf("%s ended %+v under the cap", f.Path, st)
		}
	}
}

// TestQueriesEndAtTheTimeLimit: a workbook counting a recursive sequence,
// or an import whose query does, held its slot forever. Past the query
// time limit the run ends ERROR, naming the limit, also when the query
// has answered a row and searches forever for the next one, which a
// driver that interrupts only its first step (modernc.org/sqlite's: it
// interrupts within a call, and rows.Next is not one) would run forever.
func TestQueriesEndAtTheTimeLimit(t *testing.T) {
	fx := newFixture(t, 2)
	orders := fx.imported("/Data/ImportJobs/orders.imp", SampleOrders)
	fx.engine.Close()
	fx.caps.MaxQueryTime = 300 * time.Millisecond
	fx.open()
	const endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) AS c FROM n"
	for _, f := range []File{
		fx.cat.add("/Analytics/endless.wbk", map[string]string{propSQL: endless + ", input1"}, orders),
		fx.cat.add("/Analytics/sparse.wbk", map[string]string{propSQL: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) " +
			"SELECT x FROM n WHERE x = (SELECT 1 FROM input1 LIMIT 1) OR x < 0"}, orders),
		fx.cat.add("/Data/ImportJobs/endless.imp", map[string]string{propQuery: endless}, fx.dbConn),
	} {
		fx.trigger(f)
		st := fx.waitFinal(f)
		if st.JobStatus != model.StateError || !strings.Contains(st.Reason, "--max-query-time") {
			t.Errorf("%s: status %+v, want ERROR naming the time limit", f.Path, st)
		}
		if took := st.StopTime.Time.Sub(st.StartTime.Time); took > 10*time.Second {
			t.Errorf("%s ran %v", f.Path, took)
		}
	}
}

// TestOneUserLeavesSlotsToOthers: one user's long runs held every slot,
// and another user's execution stayed QUEUED behind them. A user holds at
// most his share of the slots (half of them by default); the others'
// executions start past his waiting ones.
func TestOneUserLeavesSlotsToOthers(t *testing.T) {
	fx := newFixture(t, 2)
	first := fx.paced("/Data/ImportJobs/first.imp", 100)
	second := fx.paced("/Data/ImportJobs/second.imp", 100)
	fx.trigger(first) // as analyst
	fx.trigger(second)
	other := fx.paced("/Data/ImportJobs/other.imp", 100)
	fx.triggerAs(other, "viewer")
	fx.waitFor("the viewer's execution running", func() bool {
		st, err := fx.engine.Status(context.Background(), other.ID)
		if err != nil || st.JobStatus.Final() {
			t.Fatalf("%+v %v", st, err)
		}
		return st.JobStatus == model.StateRunning
	})
	if st, _ := fx.engine.Status(context.Background(), second.ID); st.JobStatus != model.StateQueued {
		t.Errorf("the analyst's second execution is %s, want QUEUED past his share of one slot", st.JobStatus)
	}
	// It starts once the analyst's first one ends.
	if err := fx.engine.Stop(context.Background(), first.ID); err != nil {
		t.Fatal(err)
	}
	fx.waitFor("the analyst's second execution running", func() bool {
		st, _ := fx.engine.Status(context.Background(), second.ID)
		return st.JobStatus == model.StateRunning
	})
}
