package jobs

import (
	"context"
	"strings"
	"testing"

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
