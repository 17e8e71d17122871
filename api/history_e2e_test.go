package api_test

import (
	"context"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server/jobs"
)

// TestHistoryRowsSayWhenWhoAndWhatIsLeft: the embedded platform's history
// entries carry start, stop, user and whether the data was deleted, and
// the answer says the total, so a page needs no details call per row.
func TestHistoryRowsSayWhenWhoAndWhatIsLeft(t *testing.T) {
	p := newJobPlatform(t)
	ctx := context.Background()
	job := p.importOf(jobs.SampleOrdersWithErrors, nil)
	ref := api.FileID(job.ID)
	var ids []int64
	for range 3 {
		trig, err := p.analyst.TriggerJob(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		waitFinal(t, p.analyst, ref)
		ids = append(ids, trig.JobExecutionID)
	}
	if _, err := p.analyst.DeleteJobData(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	page, err := p.analyst.JobHistoryPage(ctx, job.ConfigID, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 3 || len(page.Entries) != 2 {
		t.Fatalf("page of %d entries, total %d; want 2 of 3", len(page.Entries), page.Total)
	}
	for i, e := range page.Entries {
		if e.ID != ids[1-i] || e.User != "analyst" || !e.StartTime.Valid() || !e.StopTime.Valid() || e.StopTime.Time.Before(e.StartTime.Time) {
			t.Errorf("entry %d: %+v", i, e)
		}
		if e.DataDeleted != (e.ID == ids[0]) {
			t.Errorf("entry #%d says data deleted %v", e.ID, e.DataDeleted)
		}
	}
}
