package jobs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func TestKeys(t *testing.T) {
	tests := []struct {
		name  string
		keys  []string
		check func(t *testing.T, p *Pane, cmd tea.Cmd)
	}{
		{"o sorts by the next column, O reverses", []string{"o", "O"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.table.sortBy != colJob || !p.table.reverse {
				t.Errorf("sort = %s reverse %v, want job reversed", columnNames[p.table.sortBy], p.table.reverse)
			}
			if p.table.view[0].job.JobName != "Sales" {
				t.Errorf("first row %s, want Sales (names reversed)", p.table.view[0].job.JobName)
			}
		}},
		{"+ polls faster", []string{"+"}, func(t *testing.T, p *Pane, _ tea.Cmd) { wantEvery(t, p, time.Second) }},
		{"- polls slower", []string{"-", "-"}, func(t *testing.T, p *Pane, _ tea.Cmd) { wantEvery(t, p, 10*time.Second) }},
		{"+ stops at the fastest step", []string{"+", "+", "+", "+"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			wantEvery(t, p, 500*time.Millisecond)
		}},
		{"0 turns polling off and drops the pending tick", []string{"0"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			wantEvery(t, p, 0)
			if cmd := p.gotTick(pollTickMsg{ticket: p.polling.ticks.Latest()}); cmd != nil {
				t.Error("a tick of the old schedule still polls")
			}
		}},
		{"+ after 0 turns polling back on at 2 s", []string{"0", "+"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			wantEvery(t, p, 2*time.Second)
		}},
		{"0 again turns polling back on at the interval it had", []string{"-", "0", "0"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			wantEvery(t, p, 5*time.Second)
		}},
		{"P pauses", []string{"P"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			if !p.polling.paused || p.schedule() != nil {
				t.Error("not paused, or a paused pane still schedules a tick")
			}
		}},
		{"P again resumes and polls at once", []string{"P", "P"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.polling.paused || !p.polling.inFlight {
				t.Errorf("paused %v, poll in flight %v", p.polling.paused, p.polling.inFlight)
			}
		}},
		{"r while a poll is in flight starts no second one", []string{"r"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if cmd := uitest.Press(p, "r"); cmd != nil {
				t.Error("second refresh returned a poll")
			}
		}},
		{"/ captures typing", []string{"/", "q", "u"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if !p.CapturingInput() || p.table.filter != "qu" {
				t.Errorf("capturing %v filter %q", p.CapturingInput(), p.table.filter)
			}
		}},
		{"esc leaves and clears the filter", []string{"/", "o", "r", "esc"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.CapturingInput() || p.table.filter != "" || len(p.table.view) != 5 {
				t.Errorf("capturing %v filter %q rows %d", p.CapturingInput(), p.table.filter, len(p.table.view))
			}
		}},
		{"an arrow leaves the filter and moves among the matches", []string{"/", "e", "down"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.CapturingInput() || p.table.filter != "e" || p.cursor != 1 {
				t.Errorf("capturing %v filter %q cursor %d", p.CapturingInput(), p.table.filter, p.cursor)
			}
		}},
		{"esc on the list drops a kept filter, and / starts empty", []string{"/", "o", "enter", "esc", "/"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.table.filter != "" || p.filter.Value() != "" || len(p.table.view) != 5 {
				t.Errorf("filter %q field %q rows %d", p.table.filter, p.filter.Value(), len(p.table.view))
			}
		}},
		{"space marks the file and moves on", []string{"space"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if !p.marked[140] || p.cursor != 1 {
				t.Errorf("marked %v cursor %d", p.marked, p.cursor)
			}
		}},
		{"t asks, and y triggers the selected job", []string{"j", "t"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			ask := uitest.Dialog(uitest.Expand(cmd))
			if ask == nil {
				t.Fatal("t triggered without asking")
			}
			_, yes := ask.Update(uitest.Key("y"))
			msgs := uitest.Expand(yes)
			req, ok := msgs[0].(triggerRequest)
			if len(msgs) != 1 || !ok || req.ref != api.FileID(141) {
				t.Fatalf("y sent %#v, want a trigger of file 141", msgs)
			}
			msgs = uitest.Expand(p.trigger(req))
			if got, ok := msgs[0].(triggeredMsg); !ok || got.ref != api.FileID(141) {
				t.Errorf("got %#v, want a trigger of file 141", msgs[0])
			}
		}},
		{"s asks before stopping", []string{"j", "s"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			wantConfirm(t, cmd, stopRequest{ref: api.FileID(141), label: "Events.imp #41", execID: 41})
		}},
		{"s on an ended row says so", []string{"s"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			st := uitest.All[common.StatusMsg](uitest.Expand(cmd))
			if len(st) != 1 || !strings.Contains(st[0].Text, "has ended") {
				t.Errorf("status %v", st)
			}
		}},
		{"Y copies the file id", []string{"j", "Y"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			st := uitest.All[common.StatusMsg](uitest.Expand(cmd))
			if len(st) != 1 || !strings.HasPrefix(st[0].Text, "copied file id 141") {
				t.Errorf("status %v", st)
			}
		}},
		{"d asks before deleting data", []string{"d"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			wantConfirm(t, cmd, deleteRequest{execID: 40})
		}},
		{"T opens the sequential form with the marked files", []string{"space", "space", "T"}, func(t *testing.T, p *Pane, cmd tea.Cmd) {
			f, ok := uitest.Dialog(uitest.Expand(cmd)).(*dialog.Form)
			if !ok {
				t.Fatalf("no form: %T", uitest.Dialog(uitest.Expand(cmd)))
			}
			d, cmd := f.Update(uitest.Key("enter"))
			if d != nil {
				t.Fatal("form stayed open")
			}
			got := uitest.Expand(cmd)
			want := sequenceRequest{refs: []api.Ref{api.FileID(140), api.FileID(141)}, variables: map[string]string{}}
			if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
				t.Errorf("submitted %#v, want %#v", got, want)
			}
		}},
		{"enter opens the history, esc comes back", []string{"j", "enter"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.mode != modeHistory || p.history.configID != 241 {
				t.Fatalf("mode %d history %+v", p.mode, p.history)
			}
			uitest.Press(p, "esc")
			if p.mode != modeDashboard {
				t.Errorf("esc left mode %d", p.mode)
			}
		}},
		{"G and g move to the ends", []string{"G"}, func(t *testing.T, p *Pane, _ tea.Cmd) {
			if p.cursor != 4 {
				t.Errorf("cursor %d after G", p.cursor)
			}
			uitest.Press(p, "g")
			if p.cursor != 0 {
				t.Errorf("cursor %d after g", p.cursor)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dashboardAt(t, 100, 12)
			p.polling.inFlight = false
			tt.check(t, p, uitest.Press(p, tt.keys...))
		})
	}
}

func wantEvery(t *testing.T, p *Pane, want time.Duration) {
	t.Helper()
	if p.polling.every != want {
		t.Errorf("interval %s, want %s", p.polling.every, want)
	}
}

// wantConfirm checks that cmd opens a dangerous confirmation whose "y"
// sends want.
func wantConfirm(t *testing.T, cmd tea.Cmd, want tea.Msg) {
	t.Helper()
	d := uitest.Dialog(uitest.Expand(cmd))
	if d == nil {
		t.Fatal("no confirmation")
	}
	if d2, _ := d.Update(uitest.Key("enter")); d2 != nil {
		t.Error("enter did not close the confirmation")
	} else if _, cmd := d.Update(uitest.Key("enter")); cmd != nil {
		t.Error("enter accepted a dangerous confirmation (the focus must start on no)")
	}
	_, yes := d.Update(uitest.Key("y"))
	got := uitest.Expand(yes)
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("y sent %#v, want %#v", got, want)
	}
}

func TestReadOnlyDisablesWriteKeys(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	p.ctx.ReadOnly = true
	for _, k := range []string{"t", "s", "d", "T"} {
		if got := uitest.Messages(uitest.Press(p, "j", k)); !uitest.OnlyRefusal(got, common.ReadOnlyReason) {
			t.Errorf("%s in read-only mode sent %#v, want only the refusal", k, got)
		}
	}
}

func TestSelectionStaysOnTheSameExecution(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	uitest.Press(p, "j", "j") // on #42
	jobs := []model.RunningJob{
		runningJob(39, "Zeta", model.StateRunning, clockAt),
		runningJob(38, "Alpha", model.StateQueued, time.Time{}),
		runningJob(42, "Orders", model.StateRunning, clockAt.Add(-12*time.Second)),
	}
	p.Update(polled(p, jobs))
	if r := p.selected(); r == nil || r.job.JobExecutionID != 42 {
		t.Fatalf("selected %+v, want #42", r)
	}
	// #42 leaves; it lingers, and the cursor stays with it.
	p.Update(polled(p, jobs[:2]))
	if r := p.selected(); r == nil || r.job.JobExecutionID != 42 || !r.gone() {
		t.Fatalf("selected %+v, want #42 lingering", r)
	}
}

func TestEndedExecutionsLingerThirtySeconds(t *testing.T) {
	now := clockAt
	p := newTestPane(nil, 100, 12, func() time.Time { return now })
	p.Init()
	p.Update(polled(p, []model.RunningJob{runningJob(7, "Orders", model.StateRunning, now)}))
	p.Update(polled(p, nil))
	if len(p.table.view) != 1 || !p.table.view[0].gone() {
		t.Fatal("the ended execution did not linger")
	}
	now = now.Add(lingerFor)
	p.Update(polled(p, nil))
	if len(p.table.view) != 1 {
		t.Fatal("gone before its time")
	}
	now = now.Add(time.Second)
	p.Update(polled(p, nil))
	if len(p.table.view) != 0 {
		t.Fatal("still there after the linger time")
	}
}

// A status that speaks of a newer execution of the same file does not
// change the row, and a stale answer is dropped.
func TestStatusOfAnotherExecutionIsIgnored(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	before := *p.table.rows[41]
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{running(41, 80, time.Second)}})
	p.Update(polled(p, []model.RunningJob{runningJob(41, "Events", model.StateRunning, clockAt)}))
	other := running(99, 5, time.Hour)
	other.execID = 41
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{other}})
	if r := p.table.rows[41]; r.progress == 5 || r.estimate == time.Hour {
		t.Errorf("status of #99 applied to #41: %+v (before %+v)", r, before)
	}
}

func TestCommands(t *testing.T) {
	p := newTestPane(nil, 100, 12, time.Now)
	byName := map[string]common.Command{}
	for _, c := range p.Commands() {
		byName[c.Name] = c
	}
	tests := []struct {
		cmd, args string
		want      tea.Msg
	}{
		{"trigger", "/Data/ImportJobs/Orders.imp", triggerRequest{ref: api.Path("/Data/ImportJobs/Orders.imp")}},
		{"trigger", "21", triggerRequest{ref: api.FileID(21)}},
		{"trigger", "9e6635dd-0000-4000-8000-000000000141", triggerRequest{ref: api.UUID("9e6635dd-0000-4000-8000-000000000141")}},
		{"trigger", "Orders.imp", triggerRequest{ref: api.Path("Orders.imp")}},
		{"stop", "/Data/ImportJobs/Events.imp", stopAsk{ref: api.Path("/Data/ImportJobs/Events.imp"), label: "/Data/ImportJobs/Events.imp"}},
		{"history", "21", historyLookup{ref: api.FileID(21)}},
		{"seq", "21 /Data/ImportJobs/Orders.imp minAmount=100 region=", sequenceRequest{
			refs:      []api.Ref{api.FileID(21), api.Path("/Data/ImportJobs/Orders.imp")},
			variables: map[string]string{"minAmount": "100", "region": ""}}},
		{"details", "#42", detailsRequest{execID: 42}},
		{"interval", "5s", intervalRequest{every: 5 * time.Second}},
		{"interval", "0", intervalRequest{}},
		{"interval", "1.5", intervalRequest{every: 1500 * time.Millisecond}},
	}
	for _, tt := range tests {
		if got := byName[tt.cmd].Run(tt.args)(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf(":%s %s = %#v, want %#v", tt.cmd, tt.args, got, tt.want)
		}
	}
	for _, bad := range []struct{ cmd, args, says string }{
		{"trigger", "", "give a job's path"},
		{"seq", "minAmount=1", "at least one job"},
		{"seq", "=1 21", "has no name"},
		{"details", "x", "execution id"},
		{"interval", "soon", "not a duration"},
		{"interval", "-5s", "not a duration"},
	} {
		st, ok := byName[bad.cmd].Run(bad.args)().(common.StatusMsg)
		// A bad argument is the user's, not the server's: it carries no
		// error for the header's health.
		if !ok || st.Level != common.LevelError || !strings.Contains(st.Text, bad.says) || st.Err != nil {
			t.Errorf(":%s %q = %#v, want a problem saying %q", bad.cmd, bad.args, st, bad.says)
		}
	}
}

// Each of delete data's three answers is said plainly.
func TestDeleteAnswers(t *testing.T) {
	tests := []struct {
		msg   deletedMsg
		level common.Level
		says  string
	}{
		{deletedMsg{execID: 5, answer: model.DataDeletion{Outcome: model.DeletionMarked}}, common.LevelNotice, "now marked for deletion"},
		{deletedMsg{execID: 5, answer: model.DataDeletion{Outcome: model.DeletionAlreadyMarked}}, common.LevelInfo, "already deleted or marked for deletion: nothing changed"},
		{deletedMsg{execID: 5, answer: model.DataDeletion{Outcome: model.DeletionFailed, Reason: "Job data with id 5 doesn't exist"},
			err: &api.Error{Op: "DELETE /rest/data/5", Status: 404, Reason: "Job data with id 5 doesn't exist"}}, common.LevelError,
			"data of execution #5 not deleted: not found — it does not exist or you may not see it (404): Job data with id 5 doesn't exist"},
	}
	p := newTestPane(nil, 100, 12, time.Now)
	for _, tt := range tests {
		st := uitest.All[common.StatusMsg](uitest.Expand(p.gotDeleted(tt.msg)))
		if len(st) != 1 || st[0].Level != tt.level || !strings.Contains(st[0].Text, tt.says) {
			t.Errorf("%+v said %+v, want level %d saying %q", tt.msg, st, tt.level, tt.says)
		}
	}
}

// A 401 on a poll goes to the root (login screen); the poll goes on.
func TestUnauthorizedPollReachesTheRoot(t *testing.T) {
	p := newTestPane(nil, 100, 12, time.Now)
	p.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } } // the backoff's tick at once
	p.Init()
	_, cmd := p.Update(pollMsg{ticket: p.polling.reads.Latest(), err: &api.Error{Status: 401, Err: errors.New("unauthorized")}})
	var unauthorized bool
	for _, m := range uitest.Expand(cmd) {
		if _, ok := m.(common.UnauthorizedMsg); ok {
			unauthorized = true
		}
	}
	if !unauthorized {
		t.Error("401 not reported")
	}
}

// The connections pane opens a job's history here.
func TestOpenJobFromAnotherPane(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	p.Update(common.OpenJobMsg{ConfigID: 8, Path: "/Data/ImportJobs/Orders.imp"})
	if p.mode != modeHistory || p.history.configID != 8 || p.history.label != "Orders.imp" {
		t.Fatalf("mode %d history %+v", p.mode, p.history)
	}
}

// Two executions of one file run at once: the file's status speaks of the
// newer only, so the older keeps its last progress, shown as "at least",
// its estimate comes from list-running, and its status is not read again.
func TestNewerExecutionOfTheSameFileTakesTheStatus(t *testing.T) {
	p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
	p.Init()
	older := runningJob(50, "Events", model.StateRunning, clockAt.Add(-time.Minute))
	newer := runningJob(51, "Events", model.StateRunning, clockAt.Add(-5*time.Second))
	newer.FileID = older.FileID
	older.EstimatedTime = 30_000
	p.Update(polled(p, []model.RunningJob{older, newer}))
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{running(50, 40, time.Minute)}})
	if r := p.table.rows[50]; !r.hasProgress || r.progress != 40 {
		t.Fatalf("own status not applied: %+v", r)
	}

	ofNewer := running(51, 3, 2*time.Minute)
	asOlder := ofNewer
	asOlder.execID = 50
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: []statusResult{asOlder, ofNewer}})
	older.EstimatedTime = 20_000
	p.Update(polled(p, []model.RunningJob{older, newer}))

	view := uitest.Screen(p.View())
	for _, want := range []string{"[###-----] ≥40%", "0m20s", "[--------]   3%"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	p.status.inFlight = false
	for _, msg := range uitest.Expand(p.readStatuses()) {
		for _, res := range msg.(jobStatusMsg).results {
			if res.execID == 50 {
				t.Error("the superseded execution's status is read again")
			}
		}
	}
}

// list-running names no user: the user column shows who started what this
// console started (the trigger answer; a sequential trigger runs as the
// user who asked), and a dash for the rest.
func TestUserColumn(t *testing.T) {
	p := newTestPane(nil, 120, 12, func() time.Time { return clockAt })
	p.Init()
	p.Update(triggeredMsg{ref: api.Path("/Data/ImportJobs/Orders.imp"), answer: model.Triggered{
		Status: "success", JobExecutionID: 60, JobExecutionUser: "analyst", JobExecutionTrigger: "RESTAPI"}})
	p.Update(sequenceMsg{plan: model.ExecutionPlan{Status: "success", ExecutionPlan: []model.PlanEntry{
		{JobConfigurationName: "Sales", JobConfigurationID: 13, Trigger: true, JobExecutionID: 61}}}})
	p.Update(polled(p, []model.RunningJob{
		runningJob(60, "Orders", model.StateRunning, clockAt),
		runningJob(61, "Sales", model.StateQueued, time.Time{}),
		runningJob(62, "Events", model.StateRunning, clockAt),
	}))
	want := map[int64]string{60: "analyst", 61: "admin", 62: ""}
	for id, user := range want {
		if got := p.table.rows[id].user; got != user {
			t.Errorf("user of #%d = %q, want %q", id, got, user)
		}
	}
	p.back() // from the plan to the dashboard
	if line := lineOf(uitest.Screen(p.View()), "#62"); !strings.Contains(line, " "+unknownUser+" ") {
		t.Errorf("unknown user not shown as %s: %q", unknownUser, line)
	}
}

// lineOf returns the first line of a screen that holds text.
func lineOf(screen, text string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// A refused trigger, stop, history, details or sequential trigger is said
// in plain words; a 401 on any of them brings the login screen instead.
func TestFailuresAreExplainedAnd401BringsTheLogin(t *testing.T) {
	unauthorized := &api.Error{Status: 401, Err: errors.New("unauthorized")}
	notFound := &api.Error{Status: 404, Reason: "File doesn't exist or isn't accessible with current permissions"}
	answers := []struct {
		name string
		msg  func(p *Pane, err error) tea.Msg
	}{
		{"trigger", func(p *Pane, err error) tea.Msg {
			return triggeredMsg{ref: api.Path("/Data/ImportJobs/x"), err: err}
		}},
		{"stop", func(p *Pane, err error) tea.Msg { return stoppedMsg{label: "x.imp", err: err} }},
		{"history", func(p *Pane, err error) tea.Msg {
			uitest.Press(p, "enter")
			return historyMsg{ticket: p.history.reads.Latest(), configID: p.history.configID, err: err}
		}},
		{"details", func(p *Pane, err error) tea.Msg {
			p.Update(detailsRequest{execID: 41})
			return detailsMsg{ticket: p.details.reads.Latest(), execID: 41, err: err}
		}},
		{"sequential trigger", func(p *Pane, err error) tea.Msg { return sequenceMsg{err: err} }},
	}
	for _, a := range answers {
		t.Run(a.name, func(t *testing.T) {
			p := dashboardAt(t, 100, 12)
			_, cmd := p.Update(a.msg(p, notFound))
			st := uitest.All[common.StatusMsg](uitest.Expand(cmd))
			if len(st) != 1 || st[0].Level != common.LevelError || !strings.Contains(st[0].Text, "not found") ||
				!strings.Contains(st[0].Text, notFound.Reason) {
				t.Errorf("404 said %+v", st)
			}
			p = dashboardAt(t, 100, 12)
			_, cmd = p.Update(a.msg(p, unauthorized))
			msgs := uitest.Expand(cmd)
			if len(msgs) != 1 {
				t.Fatalf("401 gave %#v", msgs)
			}
			if _, ok := msgs[0].(common.UnauthorizedMsg); !ok {
				t.Errorf("401 gave %#v, want the login screen", msgs[0])
			}
		})
	}
}

// `?` lists every key a view acts on.
func TestHelpListsEveryKey(t *testing.T) {
	tests := []struct {
		name string
		open func(p *Pane)
		keys []string
	}{
		{"dashboard", func(*Pane) {}, []string{"up", "down", "pgup", "pgdown", "g", "G", "enter", "/", "space",
			"o", "O", "esc", "r", "+", "-", "P", "0", "t", "s", "T", "d"}},
		{"history", func(p *Pane) { uitest.Press(p, "enter") }, []string{"up", "down", "g", "G", "pgdown", "pgup", "r", "enter", "d", "esc"}},
		{"details", func(p *Pane) { p.Update(detailsRequest{execID: 41}) }, []string{"esc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dashboardAt(t, 100, 12)
			tt.open(p)
			listed := map[string]bool{}
			columns, _, _ := p.Bindings().Help(p.ctx)
			for _, column := range columns {
				for _, b := range column {
					for _, k := range b.Keys() {
						listed[k] = true
					}
				}
			}
			for _, k := range tt.keys {
				if !listed[k] {
					t.Errorf("help does not list %q", k)
				}
			}
		})
	}
}
