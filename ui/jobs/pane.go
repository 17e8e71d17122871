package jobs

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// mode is what the pane shows: the dashboard, or one of the views opened
// from it (esc goes back one step).
type mode int

const (
	modeDashboard mode = iota
	modeHistory
	modeDetails
	modePlan
	modeLog
)

// Pane is the live job dashboard.
type Pane struct {
	ctx           *common.Context
	after         afterFunc
	width, height int
	mode          mode

	table   *table
	cursor  int // index into table.view
	offset  int // first view row on screen
	marked  map[int64]bool
	watched map[int64]string // executions this console started, by label
	// stopped are the watched executions whose file this console asked to
	// stop: their CANCELED is what was wanted, not a failure to report.
	stopped map[int64]bool
	polling poller
	status  statusReader

	filter common.FilterField

	// layout is the columns of the frame being drawn: one of layouts, with
	// a path column (1) or without (0).
	layout  layout
	layouts [2]layout
	// paths are the paths of the job files rows show, by file id, read
	// when a path column shows.
	paths   map[int64]string
	reading bool // a read of paths is in flight
	fitter  common.Fitter

	history *historyView
	details *detailsView
	plan    *planView
	logv    *logView
	// jumpedIn says the history on screen was opened from another pane,
	// to which esc returns.
	jumpedIn bool
}

// New returns the job dashboard; it starts polling at Init.
func New(ctx *common.Context) *Pane {
	return &Pane{ctx: ctx, after: realAfter, table: newTable(), marked: map[int64]bool{},
		watched: map[int64]string{}, stopped: map[int64]bool{}, polling: poller{every: defaultEvery}, paths: map[int64]string{},
		filter: common.NewFilterField(ctx, "filter job, file, state, user, execution")}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Jobs" }

// Init implements common.Pane: the first poll.
func (p *Pane) Init() tea.Cmd { return p.poll() }

// SetSize implements common.Pane.
func (p *Pane) SetSize(width, height int) {
	p.width, p.height = width, height
	p.filter.SetWidth(width)
	p.layouts = [2]layout{newLayout(width, false), newLayout(width, true)}
	p.layout = p.layouts[0]
	if p.logv != nil {
		p.logv.pager.SetSize(width, height-1)
	}
	p.scrollToCursor()
}

// CapturingInput implements common.InputCapturer.
func (p *Pane) CapturingInput() bool { return p.filter.Active() }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	for _, route := range []func(tea.Msg) (tea.Cmd, bool){p.routePoll, p.routeActions, p.routeViews} {
		if cmd, ok := route(msg); ok {
			return p, cmd
		}
	}
	return p, nil
}

// routePoll takes the poll, its ticks and status reads, the keys and a new login.
func (p *Pane) routePoll(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case pollMsg:
		return p.gotPoll(msg), true
	case pollTickMsg:
		return p.gotTick(msg), true
	case jobStatusMsg:
		return p.gotStatuses(msg), true
	case common.LoggedInMsg:
		return p.reset(), true
	case tea.KeyPressMsg:
		return p.handleKey(msg), true
	case intervalRequest:
		return p.setEvery(msg.every), true
	case pathsMsg:
		p.gotPaths(msg)
		return nil, true
	}
	return nil, false
}

// routeActions takes triggers, stops and deletions, asked and answered.
func (p *Pane) routeActions(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case triggerRequest:
		return p.trigger(msg), true
	case common.TriggerJobMsg: // a job's row in the folder tree
		return p.askTrigger(msg.Ref, msg.Label), true
	case common.StopJobMsg:
		return p.askStop(msg.Ref, msg.Label, 0), true
	case common.SequenceFormMsg: // jobs marked in the folder tree
		return p.sequenceFormOf(msg.Paths), true
	case triggeredMsg:
		return p.gotTriggered(msg), true
	case stopAsk:
		return p.askStop(msg.ref, msg.label, 0), true
	case stopRequest:
		return p.stop(msg), true
	case stoppedMsg:
		return p.gotStopped(msg), true
	case deleteRequest:
		return p.deleteData(msg), true
	case deletedMsg:
		return p.gotDeleted(msg), true
	case sequenceRequest:
		// The dashboard, where the plan shows, comes to the front with the
		// trigger: the form may have been opened over the folder tree (the
		// root ignores a jump to the pane already shown).
		return tea.Batch(p.triggerSequence(msg), common.Send(common.FocusPaneMsg{Pane: common.JobsPane})), true
	case sequenceMsg:
		return p.gotSequence(msg), true
	}
	return nil, false
}

// routeViews takes what the views opened from the dashboard read.
func (p *Pane) routeViews(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case historyRequest:
		return p.openHistory(msg.configID, msg.label), true
	case common.OpenJobMsg: // a dependency opened from the connections pane
		p.jumpedIn = true
		return p.openJob(msg), true
	case historyLookup:
		return p.lookUpHistory(msg), true
	case historyMsg:
		return p.gotHistory(msg), true
	case detailsRequest:
		return p.openDetails(msg.execID), true
	case detailsMsg:
		return p.gotDetails(msg), true
	case planTickMsg:
		return p.gotPlanTick(msg), true
	case planStatusMsg:
		return p.gotPlanStatus(msg), true
	case logMsg:
		return p.gotLog(msg), true
	case logTickMsg:
		return p.gotLogTick(msg), true
	}
	return nil, false
}

// reset forgets everything read as the previous user and polls as the new one.
func (p *Pane) reset() tea.Cmd {
	sortBy, reverse := p.table.sortBy, p.table.reverse
	p.table = newTable()
	p.table.sortBy, p.table.reverse = sortBy, reverse
	p.cursor, p.offset, p.mode = 0, 0, modeDashboard
	p.marked, p.watched, p.stopped = map[int64]bool{}, map[int64]string{}, map[int64]bool{}
	p.paths, p.reading = map[int64]string{}, false
	p.history, p.details, p.plan, p.logv = nil, nil, nil, nil
	// Answers read as the previous user are dropped.
	p.polling.reads.Reset()
	p.status.reads.Reset()
	p.polling.failures, p.polling.lastErr = 0, nil
	return p.pollNow()
}

func (p *Pane) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	action, cmd := p.filter.Update(msg, p.ctx.Keys)
	switch action {
	case common.FilterLeft:
		return p.handleKey(msg)
	case common.FilterKept:
		return nil
	}
	p.setFilter(p.filter.Value())
	return cmd
}

func (p *Pane) setFilter(text string) {
	selected := p.selectedExec()
	p.table.filter = text
	p.table.regroup = true
	p.table.rebuild()
	p.keepSelection(selected)
}

func (p *Pane) resort() {
	selected := p.selectedExec()
	p.table.rebuild()
	p.keepSelection(selected)
}

// back leaves the current view for the one it was opened from.
func (p *Pane) back() {
	switch p.mode {
	case modeLog:
		p.mode, p.logv = p.logv.from, nil // a tick for it finds it gone
		return
	case modeDetails:
		if p.history != nil {
			p.mode = modeHistory
			return
		}
	case modePlan:
		p.plan = nil // a tick for it finds it gone
	}
	p.mode = modeDashboard
	p.history, p.details = nil, nil
}

func (p *Pane) selected() *row {
	if p.cursor >= 0 && p.cursor < len(p.table.view) {
		return p.table.view[p.cursor]
	}
	return nil
}

// selectedReason is why the selected execution failed, "" when it did not
// or nobody said.
func (p *Pane) selectedReason() string {
	if r := p.selected(); r != nil {
		return r.reason
	}
	return ""
}

func (p *Pane) selectedExec() int64 {
	if r := p.selected(); r != nil {
		return r.job.JobExecutionID
	}
	return 0
}

// keepSelection puts the cursor back on the same execution after the view
// changed, or keeps its index when that execution is no longer shown.
func (p *Pane) keepSelection(execID int64) {
	if execID != 0 {
		if i := p.table.indexOf(execID, p.cursor); i >= 0 {
			p.cursor = i
		}
	}
	p.cursor = max(0, min(p.cursor, len(p.table.view)-1))
	p.scrollToCursor()
}

func (p *Pane) moveCursor(delta int) {
	p.cursor = max(0, min(p.cursor+delta, len(p.table.view)-1))
	p.scrollToCursor()
}

// rowsOnScreen is how many table rows fit below the summary and header
// lines (and above the filter line when there is one).
func (p *Pane) rowsOnScreen() int {
	n := p.height - 2
	if p.filter.Active() || p.table.filter != "" {
		n--
	}
	if p.selectedReason() != "" {
		n--
	}
	return max(1, n)
}

func (p *Pane) scrollToCursor() {
	p.offset = common.ScrollOffset(p.cursor, p.offset, p.rowsOnScreen(), len(p.table.view))
}

// visibleRange is the slice of the view on screen.
func (p *Pane) visibleRange() (int, int) {
	first := min(p.offset, len(p.table.view))
	return first, min(len(p.table.view), first+p.rowsOnScreen())
}

func (p *Pane) isVisible(execID int64) bool {
	first, last := p.visibleRange()
	for _, r := range p.table.view[first:last] {
		if r.job.JobExecutionID == execID {
			return true
		}
	}
	return false
}

// label names an execution for messages: "Orders.imp #42".
func (r *row) label() string {
	name := r.job.FileName
	if name == "" {
		name = r.job.JobName
	}
	if name == "" {
		name = r.ref.String()
	}
	return fmt.Sprintf("%s #%d", name, r.job.JobExecutionID)
}

// trigger starts a job and watches the new execution.
func (p *Pane) trigger(req triggerRequest) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	label := req.label
	if label == "" {
		label = req.ref.String()
	}
	return common.StartTask("triggering "+label, common.Quick, func(ctx context.Context) tea.Msg {
		t, err := client.TriggerJob(ctx, req.ref)
		return triggeredMsg{ref: req.ref, label: label, answer: t, err: err}
	})
}

func (p *Pane) gotTriggered(msg triggeredMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("trigger "+msg.ref.String(), msg.err)
	}
	id := msg.answer.JobExecutionID
	name := p.jobName(msg.ref, msg.label)
	p.table.add(&row{ref: msg.ref, state: model.StateQueued, user: msg.answer.JobExecutionUser,
		job: model.RunningJob{JobExecutionID: id, FileName: name, JobStatus: model.StateQueued}})
	p.watched[id] = fmt.Sprintf("%s #%d", name, id)
	selected := p.selectedExec()
	p.table.rebuild()
	p.keepSelection(selected)
	return tea.Batch(common.Notify(fmt.Sprintf("triggered %s: execution #%d by %s", msg.label, id, msg.answer.JobExecutionUser)),
		p.pollNow())
}

// jobName names a triggered job for notices: the file name its label
// (a path or a file name) ends with, or, for a bare UUID, the name the file
// index knows; a bare file id stays until a poll names the file.
func (p *Pane) jobName(ref api.Ref, label string) string {
	if label == "" || label == ref.String() {
		if e, ok := p.ctx.FileIndex.ByUUID(ref.String()); ok {
			return e.FileName()
		}
		label = ref.String()
	}
	return label[strings.LastIndexByte(label, '/')+1:]
}

// openJob shows the history of a job another pane pointed at (a
// dependency in the connections pane).
func (p *Pane) openJob(msg common.OpenJobMsg) tea.Cmd {
	label := path.Base(msg.Path)
	if msg.Path == "" {
		label = msg.UUID
	}
	if msg.ConfigID > 0 {
		return p.openHistory(msg.ConfigID, label)
	}
	if msg.Path != "" {
		return p.lookUpHistory(historyLookup{ref: api.Path(msg.Path)})
	}
	return p.lookUpHistory(historyLookup{ref: api.UUID(msg.UUID)})
}

// askTrigger asks before a key triggers a job, as k9s asks before an
// action: a stray t starts nothing. (:trigger, typed out, does not ask.)
func (p *Pane) askTrigger(ref api.Ref, label string) tea.Cmd {
	body := fmt.Sprintf("Run %s now? A new execution starts, as %s, and what it writes replaces its data.", label, p.ctx.User)
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Trigger job", body, "trigger", false,
		triggerRequest{ref: ref, label: label}))
}

// stopAsk is :stop PATH|ID, which asks first like the key does.
type stopAsk struct {
	ref   api.Ref
	label string
}

func (p *Pane) askStop(ref api.Ref, label string, execID int64) tea.Cmd {
	body := fmt.Sprintf("Stop %s? Its queued and running executions are canceled; what it wrote so far stays.", label)
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Stop job", body, "stop", true,
		stopRequest{ref: ref, label: label, execID: execID}))
}

func (p *Pane) stop(req stopRequest) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	if req.execID != 0 {
		p.watched[req.execID] = req.label
	}
	// A stop ends every queued and running execution of the file, so each
	// watched one of them ends as asked, not only the row it was asked on.
	for id := range p.watched {
		if r := p.table.rows[id]; id == req.execID || (r != nil && r.ref == req.ref) {
			p.stopped[id] = true
		}
	}
	return common.StartTask("stopping "+req.label, common.Quick, func(ctx context.Context) tea.Msg {
		return stoppedMsg{label: req.label, err: client.StopJob(ctx, req.ref)}
	})
}

func (p *Pane) gotStopped(msg stoppedMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("stop "+msg.label, msg.err)
	}
	return tea.Batch(common.Notify("stopped "+msg.label), p.pollNow())
}

func (p *Pane) askDelete(execID int64, label string) tea.Cmd {
	body := fmt.Sprintf("Delete the data execution #%d of %s produced? Workbooks and exports that read it lose their input.", execID, label)
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete job data", body, "delete", true, deleteRequest{execID: execID}))
}

func (p *Pane) deleteData(req deleteRequest) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask(fmt.Sprintf("deleting data of #%d", req.execID), common.Quick, func(ctx context.Context) tea.Msg {
		d, err := client.DeleteJobData(ctx, req.execID)
		return deletedMsg{execID: req.execID, answer: d, err: err}
	})
}

// gotDeleted says each of the three answers plainly; an open history is
// read again, so its row shows the data as deleted.
func (p *Pane) gotDeleted(msg deletedMsg) tea.Cmd {
	switch {
	case msg.err == nil && msg.answer.Outcome == model.DeletionMarked:
		notice := common.Notify(fmt.Sprintf("data of execution #%d is now marked for deletion", msg.execID))
		if p.history != nil && p.mode == modeHistory {
			return tea.Batch(notice, p.readHistory(p.history.start))
		}
		return notice
	case msg.err == nil && msg.answer.Outcome == model.DeletionAlreadyMarked:
		return common.Info(fmt.Sprintf("data of execution #%d was already deleted or marked for deletion: nothing changed", msg.execID))
	}
	err := msg.err
	if err == nil {
		err = errors.New("the server refused: " + msg.answer.Reason)
	}
	return common.Fail(fmt.Sprintf("data of execution #%d not deleted", msg.execID), err)
}
