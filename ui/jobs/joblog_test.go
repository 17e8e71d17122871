package jobs

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestFailureReasonInRowAndNotice: the status endpoint's reason shows under
// the dashboard when the failed row is selected, in the details, and in the
// notice that the watched execution ended.
func TestFailureReasonInRowAndNotice(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	wbk := runningJob(45, "Sales by Region", model.StateRunning, clockAt)
	wbk.FileName = "Sales by Region.wbk"
	p.Update(polled(p, append(p.listedJobs(), wbk)))
	p.watched[45] = "Sales by Region.wbk #45"
	p.Update(polled(p, p.listedJobs()[:3]))
	_, cmd := p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{{execID: 45, status: model.JobStatus{Status: "success",
		JobStatus: model.StateError, JobExecutionID: ptr(int64(45)), Reason: failedReason}}}})
	st := uitest.All[common.StatusMsg](uitest.Expand(cmd))
	want := "Sales by Region.wbk #45 ended: ERROR — " + failedReason
	if len(st) != 1 || st[0].Text != want || st[0].Level != common.LevelError {
		t.Fatalf("notice %+v, want the error %q", st, want)
	}
	if strings.Contains(uitest.Screen(p.View()), "has no data") {
		t.Errorf("the reason shows while another row is selected:\n%s", uitest.Screen(p.View()))
	}
	p.keepSelection(45)
	if !strings.Contains(uitest.Screen(p.View()), "#45 ERROR — /Analytics/Sales by Region.wbk: input") {
		t.Errorf("the selected failed row's reason is not shown:\n%s", uitest.Screen(p.View()))
	}
	uitest.Press(p, "d") // opens a confirmation; the details come with enter from history
	p.Update(detailsRequest{execID: 45})
	p.Update(detailsMsg{ticket: p.details.reads.Latest(), execID: 45, details: model.JobDetails{JobStatus: model.StateError}})
	if !strings.Contains(uitest.Screen(p.View()), "has no data: run it first") {
		t.Errorf("the details do not give the reason:\n%s", uitest.Screen(p.View()))
	}
}

// TestLogKeys: l opens the log from the dashboard, a history and details;
// esc (or l again) goes back where it was opened; scrolling up stops
// following and G follows again; an ended execution is read once.
func TestLogKeys(t *testing.T) {
	p := dashboardAt(t, 100, 8)
	uitest.Press(p, "j", "j", "V")
	if p.mode != modeLog || p.logv.execID != 42 {
		t.Fatalf("l opened mode %v %+v", p.mode, p.logv)
	}
	_, cmd := p.Update(logMsg{ticket: p.logv.reads.Latest(), execID: 42, state: model.StateRunning, text: sampleLog(20, false)})
	if cmd == nil {
		t.Error("a running execution's log is not read again")
	}
	if !p.logv.pager.Following() {
		t.Error("the log of a running job does not follow")
	}
	uitest.Press(p, "k")
	if p.logv.pager.Following() || !strings.Contains(uitest.Screen(p.View()), "(G follows)") {
		t.Errorf("scrolling up still follows:\n%s", uitest.Screen(p.View()))
	}
	uitest.Press(p, "G")
	if !p.logv.pager.Following() {
		t.Error("G does not follow again")
	}
	tick := p.logv.ticks.Latest()
	_, cmd = p.Update(logMsg{ticket: p.logv.reads.Latest(), execID: 42, state: model.StateCompleted, text: sampleLog(21, true)})
	if cmd != nil || p.logv.ticks.Latest() != tick {
		t.Error("an ended execution's log is read again")
	}
	uitest.Press(p, "esc")
	if p.mode != modeDashboard || p.logv != nil {
		t.Fatalf("esc left mode %v", p.mode)
	}

	h := historyAt(t)
	uitest.Press(h, "down", "V")
	if h.mode != modeLog || h.logv.execID != 37 || h.logv.label != "Events.imp" {
		t.Fatalf("l in history opened %v %+v", h.mode, h.logv)
	}
	uitest.Press(h, "V")
	if h.mode != modeHistory {
		t.Fatalf("l in the log went to mode %v, want the history", h.mode)
	}
	uitest.Press(h, "enter", "V", "esc")
	if h.mode != modeDetails {
		t.Fatalf("esc from a log opened in details went to mode %v", h.mode)
	}
}

// TestLogFollowsARunningJob reads the log of a job running on the embedded
// platform until it is stopped: it grows while the job runs and ends with
// how the job ended.
func TestLogFollowsARunningJob(t *testing.T) {
	pl := startPlatform(t, nil)
	p := newTestPane(pl.client, 120, 20, time.Now)
	p.polling.every = 0
	u := newPump(t, p)
	p.after = func(d time.Duration, msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
	defer u.drain()
	events := api.Path("/Data/ImportJobs/Events.imp")
	trig, err := pl.client.TriggerJob(t.Context(), events)
	if err != nil {
		t.Fatal(err)
	}
	u.run(p.openLog(trig.JobExecutionID, "Events.imp"))
	u.until("the start in the log", 20*time.Second, func() bool {
		return strings.Contains(uitest.Screen(p.View()), "started /Data/ImportJobs/Events.imp")
	})
	if err := pl.client.StopJob(t.Context(), events); err != nil {
		t.Fatal(err)
	}
	u.until("the end in the log", 20*time.Second, func() bool {
		return strings.Contains(uitest.Screen(p.View()), "ended: CANCELED — stopped by request")
	})
	if p.logRunning() {
		t.Error("the log still follows an execution that ended")
	}
}
