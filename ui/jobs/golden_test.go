package jobs

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// dashboardAt fills a pane from fixed answers, as two polls and their
// status rounds would: two running jobs with progress, one queued, one in
// a state the spec does not name, and one that just ended.
func dashboardAt(t *testing.T, width, height int) *Pane {
	t.Helper()
	now := func() time.Time { return clockAt }
	p := newTestPane(nil, width, height, now)
	p.Init()
	first := []model.RunningJob{
		runningJob(40, "Sales", model.StateRunning, clockAt.Add(-40*time.Second)),
		runningJob(41, "Events", model.StateRunning, clockAt.Add(-125*time.Second)),
		runningJob(42, "Orders", model.StateRunning, clockAt.Add(-12*time.Second)),
		runningJob(43, "Customers", model.StateQueued, time.Time{}),
		runningJob(44, "Products", "WAITING_FOR_OTHER_JOB", time.Time{}),
	}
	p.Update(polled(p, first))
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{
		running(41, 37, 210*time.Second), running(42, 90, time.Second), running(40, 99, time.Second)}})
	p.Update(polled(p, first[1:]))
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{
		running(41, 37, 210*time.Second), running(42, 90, time.Second),
		{execID: 40, status: model.JobStatus{Status: "success", JobStatus: model.StateCompleted, JobExecutionID: ptr(int64(40))}}}})
	p.watched[42] = "Orders.imp #42"
	p.table.rows[42].user = "analyst"
	p.table.rows[42].touch()
	return p
}

func running(id int64, percent float64, left time.Duration) statusResult {
	progress, estimate := model.Progress(percent), model.Estimate(left)
	return statusResult{execID: id, status: model.JobStatus{Status: "success", JobStatus: model.StateRunning,
		JobExecutionID: ptr(id), JobProgress: &progress, EstimateTime: &estimate}}
}

func ptr[T any](v T) *T { return &v }

// Golden views of the dashboard and of every view and confirmation opened
// from it, at fixed sizes, ASCII. Regenerate with
// `go test ./ui/jobs -run TestGolden -update`.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		build func(t *testing.T) string
	}{
		{"Dashboard", func(t *testing.T) string {
			return dashboardAt(t, 100, 12).View()
		}},
		{"DashboardNarrow", func(t *testing.T) string {
			return dashboardAt(t, 60, 10).View()
		}},
		{"DashboardSmallScrolled", func(t *testing.T) string {
			p := dashboardAt(t, 100, 5)
			uitest.Press(p, "G")
			return p.View()
		}},
		{"SortedByProgressReversed", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "o", "o", "o", "o", "O")
			return p.View()
		}},
		{"SortedByEstimate", func(t *testing.T) string { // the head reads "estimate▲", not "estimat…"
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "W")
			return p.View()
		}},
		{"Filter", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "/", "o", "r", "d")
			return p.View()
		}},
		{"MarkedAndPaused", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "space", "space", "P")
			return p.View()
		}},
		{"Stale", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			p.Update(pollTickMsg{ticket: p.polling.ticks.Latest()})
			p.Update(pollMsg{ticket: p.polling.reads.Latest(), err: errors.New("read tcp: connection reset by peer")})
			p.Update(pollTickMsg{ticket: p.polling.ticks.Latest()})
			p.Update(pollMsg{ticket: p.polling.reads.Latest(), err: errors.New("read tcp: connection reset by peer")})
			return p.View()
		}},
		{"Empty", func(t *testing.T) string {
			p := newTestPane(nil, 100, 8, func() time.Time { return clockAt })
			p.Init()
			p.Update(polled(p, nil))
			return p.View()
		}},
		{"History", func(t *testing.T) string {
			p := historyAt(t)
			return p.View()
		}},
		{"Details", func(t *testing.T) string {
			p := historyAt(t)
			p.SetSize(100, 20)
			uitest.Press(p, "down", "enter")
			p.Update(detailsMsg{ticket: p.details.reads.Latest(), execID: 37, details: model.JobDetails{
				StartTime: model.At(clockAt.Add(-2 * time.Minute)), StopTime: model.At(clockAt.Add(-2*time.Minute + 118*time.Second)),
				JobStatus: model.StateCompleted, JobConfigurationID: 241, File: model.DetailsFile{ID: 141, UUID: "9e6635dd-0000-4000-8000-000000000141"},
				SuccessCount: 494400, Counters: map[string]int64{
					model.CounterImportRecords: 494400, "IMPORT_BYTES": 23911522, model.CounterImportDroppedRecords: 0,
					model.CounterImportPreviewRecords: 5000, model.CounterImportOutputBytes: 24444883, "IMPORT_OUTPUT_PARTITIONS": 0},
			}})
			return p.View()
		}},
		{"SequentialPlan", func(t *testing.T) string {
			p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
			p.Update(sequenceMsg{plan: model.ExecutionPlan{Status: "success", ExecutionPlan: []model.PlanEntry{
				{JobConfigurationName: "Orders", JobConfigurationID: 8, Trigger: true, JobExecutionID: 50},
				{JobConfigurationName: "Customers", JobConfigurationID: 9, Trigger: true, JobExecutionID: 51},
				{JobConfigurationName: "Sales", JobConfigurationID: 13, Trigger: true, JobExecutionID: 52},
				{JobConfigurationName: "Sales by Region", JobConfigurationID: 14, Trigger: true, JobExecutionID: 53},
				{JobConfigurationName: "Sales Dashboard", JobConfigurationID: 16, Trigger: false},
			}}})
			p.Update(planStatusMsg{ticket: p.plan.reads.Latest(), states: map[int64]model.JobState{
				50: model.StateCompleted, 51: model.StateCompleted, 52: model.StateRunning, 53: model.StateQueued}})
			return p.View()
		}},
		{"FailedWithReason", func(t *testing.T) string {
			p := failedAt(t)
			return p.View()
		}},
		{"LogFollowing", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "j", "j", "V") // #42, running
			p.Update(logMsg{ticket: p.logv.reads.Latest(), execID: 42, state: model.StateRunning, text: sampleLog(9, false)})
			return p.View()
		}},
		{"LogEnded", func(t *testing.T) string {
			p := failedAt(t)
			uitest.Press(p, "V")
			p.Update(logMsg{ticket: p.logv.reads.Latest(), execID: 45, state: model.StateError, text: sampleLog(30, true)})
			uitest.Press(p, "k", "k")
			return p.View()
		}},
		{"DuplicateNamesShowPath", func(t *testing.T) string {
			p := duplicatesAt(t, 100)
			return p.View()
		}},
		{"WideShowsPath", func(t *testing.T) string {
			p := duplicatesAt(t, 170)
			return p.View()
		}},
		{"StopConfirm", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			return dialogView(t, uitest.Press(p, "j", "s"))
		}},
		{"DeleteDataConfirm", func(t *testing.T) string {
			p := historyAt(t)
			return dialogView(t, uitest.Press(p, "down", "d"))
		}},
		{"SequentialTriggerForm", func(t *testing.T) string {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "space", "space")
			return dialogView(t, uitest.Press(p, "T"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.RequireEqual(t, uitest.Screen(tt.build(t)))
		})
	}
}

func historyAt(t *testing.T) *Pane {
	t.Helper()
	p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
	p.Update(historyRequest{configID: 241, label: "Events.imp"})
	uitest.Press(p, "pgdown") // nothing to page yet: the first page is still loading
	at := func(ago, took time.Duration) (model.DateTime, model.DateTime) {
		return model.At(clockAt.Add(-ago)), model.At(clockAt.Add(-ago + took))
	}
	entries := []model.HistoryEntry{
		{ID: 41, JobStatus: model.StateCanceled, User: "analyst"}, {ID: 37, JobStatus: model.StateCompleted, User: "admin"},
		{ID: 33, JobStatus: "COMPLETED_WITH_Warnings", User: "admin", DataDeleted: true}, {ID: 29, JobStatus: model.StateError},
		{ID: 23, JobStatus: "CANCELLED", User: "analyst"}, {ID: 19, JobStatus: "SOMETHING_NEW"},
	}
	for i := range entries[:5] {
		entries[i].StartTime, entries[i].StopTime = at(time.Duration(i+1)*time.Hour, time.Duration(7*i+3)*time.Second)
	}
	entries[1].StopTime = model.At(entries[1].StartTime.Time.Add(83 * time.Second))
	p.Update(historyMsg{ticket: p.history.reads.Latest(), configID: 241, start: 10, total: 16, entries: entries})
	return p
}

func dialogView(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	d := uitest.Dialog(uitest.Expand(cmd))
	if d == nil {
		t.Fatal("no dialog opened")
	}
	d.SetSize(100, 20)
	return d.View()
}

// failedAt is the dashboard with a watched workbook that ended in error,
// selected, its reason read from its status.
func failedAt(t *testing.T) *Pane {
	t.Helper()
	p := dashboardAt(t, 100, 12)
	wbk := runningJob(45, "Sales by Region", model.StateRunning, clockAt.Add(-3*time.Second))
	wbk.FileName = "Sales by Region.wbk"
	p.Update(polled(p, append(p.listedJobs(), wbk)))
	p.watched[45] = "Sales by Region.wbk #45"
	p.Update(polled(p, p.listedJobs()[:3]))
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{{execID: 45, status: model.JobStatus{Status: "success",
		JobStatus: model.StateError, JobExecutionID: ptr(int64(45)), Reason: failedReason}}}})
	p.keepSelection(45)
	return p
}

const failedReason = "/Analytics/Sales by Region.wbk: input /Analytics/Sales.wbk has no data: run it first"

// listedJobs are the executions the dashboard shows as listed.
func (p *Pane) listedJobs() []model.RunningJob {
	var out []model.RunningJob
	for _, r := range p.table.view {
		if !r.gone() {
			out = append(out, r.job)
		}
	}
	return out
}

// sampleLog is a log of n lines as the server writes it, ended or not.
func sampleLog(n int, ended bool) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "2026-11-23 09:29:%02d step %d of the run\n", i%60, i+1)
	}
	if ended {
		b.WriteString("2026-11-23 09:29:59 ERROR " + failedReason + "\n")
		b.WriteString("2026-11-23 09:29:59 ended: ERROR — " + failedReason + "\n")
	}
	return b.String()
}

// duplicatesAt is the dashboard with two Sales.wbk of different folders
// running, their paths read.
func duplicatesAt(t *testing.T, width int) *Pane {
	t.Helper()
	p := dashboardAt(t, width, 12)
	finance := runningJob(46, "Sales", model.StateRunning, clockAt.Add(-7*time.Second))
	finance.FileName, finance.FileID = "Sales.wbk", 501
	analytics := runningJob(47, "Sales", model.StateRunning, clockAt.Add(-3*time.Second))
	analytics.FileName, analytics.FileID = "Sales.wbk", 502
	p.Update(polled(p, append(p.listedJobs(), finance, analytics)))
	p.Update(pathsMsg{paths: map[int64]string{501: "/Analytics/Finance/Sales.wbk", 502: "/Analytics/Sales.wbk"}})
	return p
}

// TestFailedReasonLineCleansState: the reason line under the dashboard
// names the selected execution's state as the server sent it, so a hostile
// state is cleaned there as in the state column.
func TestFailedReasonLineCleansState(t *testing.T) {
	for _, hostile := range uitest.Hostile {
		p := dashboardAt(t, 100, 12)
		wbk := runningJob(45, "Sales by Region", model.StateRunning, clockAt.Add(-3*time.Second))
		p.Update(polled(p, append(p.listedJobs(), wbk)))
		p.watched[45] = "Sales by Region.wbk #45"
		p.Update(polled(p, p.listedJobs()[:3]))
		p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{{execID: 45, status: model.JobStatus{Status: "success",
			JobStatus: model.JobState(hostile), JobExecutionID: ptr(int64(45)), Reason: failedReason}}}})
		p.keepSelection(45)
		if found := uitest.Controls(p.View()); len(found) > 0 {
			t.Errorf("state %q: the dashboard holds %d control(s), first %s", hostile, len(found), found[0])
		}
	}
}
