package jobs

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// "Ended" notices name a job by its file name wherever it was triggered
// (bug 2 of issue 30): from the tree (a UUID ref with the path as label)
// and by a bare file id (`:trigger 21`, once a poll named the file), not by
// the UUID or the id.
func TestEndedNoticesNameTheJob(t *testing.T) {
	tests := []struct {
		name  string
		ref   api.Ref
		label string
	}{
		{"from the tree", api.UUID("a1219d49-7c1e-4a53-9d3b-5f0c2e1d0a11"), "/Data/ImportJobs/Orders.imp"},
		{"by file id", api.FileID(21), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dashboardAt(t, 120, 12)
			label := tt.label
			if label == "" {
				label = tt.ref.String() // as trigger sets it
			}
			p.Update(triggeredMsg{ref: tt.ref, label: label, answer: model.Triggered{JobExecutionID: 34, JobExecutionUser: "admin"}})
			listed := runningJob(34, "Orders", model.StateRunning, clockAt)
			p.Update(polled(p, []model.RunningJob{listed}))
			p.Update(polled(p, nil)) // it ended
			_, cmd := p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{
				{execID: 34, status: model.JobStatus{Status: "success", JobStatus: model.StateCompleted, JobExecutionID: ptr(int64(34))}}}})
			var said []string
			for _, s := range uitest.All[common.StatusMsg](uitest.Expand(cmd)) {
				said = append(said, s.Text)
			}
			if len(said) != 1 || !strings.HasPrefix(said[0], "Orders.imp #34 ended") {
				t.Errorf("notices %q, want one naming Orders.imp #34", said)
			}
		})
	}
}

// The dashboard names who started a run once its history said (bug 10 of
// issue 30: the dashboard showed user — where history showed admin).
func TestDashboardTakesTheUserFromTheHistory(t *testing.T) {
	p := historyOn(t, model.HistoryEntry{ID: 41, JobStatus: model.StateRunning, User: "admin"})
	if got := p.table.rows[41].user; got != "admin" {
		t.Errorf("the dashboard's user of #41 is %q, want admin", got)
	}
}
