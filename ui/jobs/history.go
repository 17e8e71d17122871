package jobs

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// historyPage is how many executions one history page asks for: as many
// as the pane has rows for, at least minHistoryPage.
func (p *Pane) historyPage() int { return max(minHistoryPage, p.height-historyChrome) }

// The title, a blank line and the column header take three lines.
const (
	historyChrome  = 3
	minHistoryPage = 3
)

// historyView is one page of a job configuration's executions.
type historyView struct {
	configID int64
	label    string
	start    int
	page     int // executions asked for per page
	entries  []model.HistoryEntry
	total    int // -1 while the server has not said
	cursor   int
	loading  bool
	reads    common.Requests
	err      string
}

// detailsView is one execution's details.
type detailsView struct {
	execID  int64
	details model.JobDetails
	loaded  bool
	reads   common.Requests
	err     string
}

// detailsRequest opens the details of an execution (:details ID).
type detailsRequest struct{ execID int64 }

// historyLookup opens the history of a job named by path or file id: its
// configuration id comes from the details of its newest execution, or,
// where details carry none (older releases), from list-running and the
// per-kind lists.
type historyLookup struct{ ref api.Ref }

func (p *Pane) lookUpHistory(req historyLookup) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask("finding the history of "+req.ref.String(), common.Quick, func(ctx context.Context) tea.Msg {
		st, err := client.JobStatus(ctx, req.ref)
		if err != nil {
			return common.Failed("history of "+req.ref.String(), err)
		}
		if st.JobExecutionID == nil {
			return common.StatusMsg{Level: common.LevelInfo, Text: req.ref.String() + " has never run: no history"}
		}
		d, err := client.JobDetails(ctx, *st.JobExecutionID)
		if err != nil {
			return common.Failed("history of "+req.ref.String(), err)
		}
		configID := d.JobConfigurationID
		if configID <= 0 {
			if configID, err = client.ConfigurationID(ctx, req.ref); err != nil {
				return common.Failed("history of "+req.ref.String(), err)
			}
		}
		return historyRequest{configID: configID, label: path.Base(req.ref.String())}
	})
}

func (p *Pane) openHistory(configID int64, label string) tea.Cmd {
	if configID <= 0 {
		return common.Info("no job configuration known for " + label + " yet")
	}
	p.history = &historyView{configID: configID, label: label, total: -1}
	p.details = nil
	p.mode = modeHistory
	return p.readHistory(0)
}

func (p *Pane) readHistory(start int) tea.Cmd { return p.readHistoryAs(start, common.Quick) }

// readHistoryAs reads a page of the open history in a task of kind: Quiet
// when the jobs poll says the page on screen went out of date.
func (p *Pane) readHistoryAs(start int, kind common.TaskKind) tea.Cmd {
	h, client := p.history, p.ctx.Client
	if h == nil || client == nil {
		return nil
	}
	h.loading, h.page = true, p.historyPage()
	ticket, configID, length := h.reads.Next(), h.configID, h.page
	return common.StartTask(fmt.Sprintf("reading history of %s", h.label), kind, func(ctx context.Context) tea.Msg {
		page, err := client.JobHistoryPage(ctx, configID, start, length)
		if err == nil {
			withTimes(ctx, client, page.Entries)
		}
		return historyMsg{ticket: ticket, configID: configID, start: start, entries: page.Entries, total: page.Total, err: err}
	})
}

// withTimes reads, from their details, the start and stop of entries the
// history did not give them for (the real platform's history holds ids and
// states only); the page is as long as the screen, so these reads are few.
func withTimes(ctx context.Context, client *api.Client, entries []model.HistoryEntry) {
	fanOut(len(entries), func(i int) {
		e := &entries[i]
		if e.StartTime.Valid() || e.JobStatus.Canonical() == model.StateQueued {
			return
		}
		if d, err := client.JobDetails(ctx, e.ID); err == nil {
			e.StartTime, e.StopTime = d.StartTime, d.StopTime
		}
	})
}

func (p *Pane) gotHistory(msg historyMsg) tea.Cmd {
	h := p.history
	if h == nil || !h.reads.Current(msg.ticket) {
		return nil
	}
	h.loading = false
	if msg.err != nil {
		h.err = common.Explain("history", msg.err)
		return common.Fail("history of "+h.label, msg.err)
	}
	if len(msg.entries) == 0 && msg.start > 0 {
		return common.Info("no older executions")
	}
	cursor := 0
	if msg.start == h.start {
		// The same page read again (r, a deletion, the poll): the cursor
		// stays on the execution it was on, else where it was.
		cursor = h.cursor
		if e, ok := h.selected(); ok {
			if i := slices.IndexFunc(msg.entries, func(n model.HistoryEntry) bool { return n.ID == e.ID }); i >= 0 {
				cursor = i
			}
		}
		cursor = max(0, min(cursor, len(msg.entries)-1))
	}
	h.err, h.start, h.entries, h.cursor, h.total = "", msg.start, msg.entries, cursor, msg.total
	for _, e := range msg.entries {
		if e.User != "" {
			// list-running names nobody: the dashboard shows who the
			// history says started a run it lists.
			p.table.noteStarter(e.ID, e.User)
		}
	}
	return nil
}

// stale reports whether the page on screen is out of date by what the jobs
// poll lists: an execution on it shows as queued or running but the poll
// no longer lists it, or the poll lists one of the job the page lacks (on
// the first page, where new executions come). It costs the page and the
// job's listed runs, not the whole poll: it runs in Update on every poll.
func (h *historyView) stale(running *pollIndex) bool {
	if h.loading {
		return false
	}
	onPage := make(map[int64]bool, len(h.entries))
	for _, e := range h.entries {
		onPage[e.ID] = true
		j, listed := running.byExec[e.ID]
		if e.JobStatus.Active() && !listed || listed && e.JobStatus.Canonical() != j.JobStatus.Canonical() {
			return true
		}
	}
	if h.start != 0 {
		return false
	}
	for _, j := range running.byJob[h.configID] {
		if !onPage[j.JobExecutionID] {
			return true
		}
	}
	return false
}

// followPoll reads again, quietly, what an open history or an execution's
// details show when the jobs poll says it changed, so neither needs r.
func (p *Pane) followPoll(running *pollIndex) tea.Cmd {
	var cmds []tea.Cmd
	if h := p.history; h != nil && h.stale(running) {
		cmds = append(cmds, p.readHistoryAs(h.start, common.Quiet))
	}
	if d := p.details; d != nil && d.loaded && d.details.JobStatus.Active() {
		if j, listed := running.byExec[d.execID]; !listed || j.JobStatus.Canonical() != d.details.JobStatus.Canonical() {
			cmds = append(cmds, p.readDetailsAs(common.Quiet))
		}
	}
	return tea.Batch(cmds...)
}

func (h *historyView) selected() (model.HistoryEntry, bool) {
	if h.cursor >= 0 && h.cursor < len(h.entries) {
		return h.entries[h.cursor], true
	}
	return model.HistoryEntry{}, false
}

func (p *Pane) openDetails(execID int64) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	p.details = &detailsView{execID: execID}
	p.mode = modeDetails
	return p.readDetailsAs(common.Quick)
}

// readDetailsAs reads the open details in a task of kind.
func (p *Pane) readDetailsAs(kind common.TaskKind) tea.Cmd {
	client := p.ctx.Client
	if client == nil || p.details == nil {
		return nil
	}
	ticket, execID := p.details.reads.Next(), p.details.execID
	return common.StartTask(fmt.Sprintf("reading details of #%d", execID), kind, func(ctx context.Context) tea.Msg {
		d, err := client.JobDetails(ctx, execID)
		return detailsMsg{ticket: ticket, execID: execID, details: d, err: err}
	})
}

func (p *Pane) gotDetails(msg detailsMsg) tea.Cmd {
	d := p.details
	if d == nil || !d.reads.Current(msg.ticket) {
		return nil
	}
	if msg.err != nil {
		d.err = common.Explain("details", msg.err)
		return common.Fail(fmt.Sprintf("details of #%d", msg.execID), msg.err)
	}
	d.details, d.loaded = msg.details, true
	return nil
}

func (p *Pane) historyView() string {
	h, st := p.history, p.ctx.Styles
	var b strings.Builder
	title := fmt.Sprintf("History of %s (configuration %d)", common.Clean(h.label), h.configID)
	b.WriteString(st.PaneTitle.Render(title))
	page := fmt.Sprintf("   executions %d–%d", h.start+1, h.start+len(h.entries))
	if h.total >= 0 {
		page += fmt.Sprintf(" of %d", h.total)
	}
	if len(h.entries) == 0 {
		page = "   no executions"
	}
	b.WriteString(st.Label.Render(page))
	b.WriteString("\n\n")
	b.WriteString(st.Label.Render(historyLine(" ", "exec", "state", "started", "duration", "user", "data")))
	b.WriteByte('\n')
	switch {
	case h.err != "":
		b.WriteString(st.StatusError.Render(h.err))
	case h.loading && len(h.entries) == 0:
		b.WriteString(st.Empty.Render(p.ctx.Spinner + " reading…"))
	}
	for i, e := range h.entries {
		exec, user := "#"+strconv.FormatInt(e.ID, 10), e.User
		if user == "" {
			user = unknownUser
		}
		data := ""
		if e.DataDeleted {
			data = "deleted"
		}
		started := "—"
		if e.StartTime.Valid() {
			started = e.StartTime.Time.Format("2006-01-02 15:04:05")
		}
		if i == h.cursor {
			line := historyLine(st.Symbols.Cursor, exec, stateText(e.JobStatus, st.Symbols), started, runDuration(e.StartTime, e.StopTime), common.Clean(user), data)
			b.WriteString(st.SelectedRow.Render(common.AlignLeft(line, max(0, p.width))))
		} else {
			b.WriteString(historyLine(" ", exec, p.stateCell(e.JobStatus, historyStateWidth, false), started,
				runDuration(e.StartTime, e.StopTime), common.Clean(user), st.JobDataDeleted.Render(data)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

const historyStateWidth = 16

// historyLine lays out one history row: cursor, execution, state, start,
// duration, user and what became of its data.
func historyLine(cursor, exec, state, started, duration, user, data string) string {
	return cursor + " " + common.AlignLeft(exec, 8) + " " + common.AlignLeft(state, historyStateWidth) + " " + common.AlignLeft(started, 19) + " " +
		common.AlignRight(duration, 9) + "  " + common.AlignLeft(user, userWidth) + " " + data
}

func (p *Pane) detailsView() string {
	d, st := p.details, p.ctx.Styles
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render(fmt.Sprintf("Execution #%d", d.execID)))
	b.WriteString("\n\n")
	if d.err != "" {
		b.WriteString(st.StatusError.Render(d.err))
		return b.String()
	}
	if !d.loaded {
		b.WriteString(st.Empty.Render(p.ctx.Spinner + " reading…"))
		return b.String()
	}
	x := d.details
	field := func(label, value string) {
		b.WriteString(st.Label.Render(common.AlignLeft(label, 16)))
		b.WriteString(st.Value.Render(value))
		b.WriteByte('\n')
	}
	b.WriteString(st.Label.Render(common.AlignLeft("state", 16)))
	b.WriteString(p.stateCell(x.JobStatus, 30, false))
	b.WriteByte('\n')
	// Details of older releases name neither; a history opened by other
	// means knows the configuration.
	configID := x.JobConfigurationID
	if configID <= 0 && p.history != nil {
		configID = p.history.configID
	}
	configuration, file := "—", "—"
	if configID > 0 {
		configuration = strconv.FormatInt(configID, 10)
	}
	if x.File.ID > 0 || x.File.UUID != "" {
		file = fmt.Sprintf("%d  %s", x.File.ID, common.Clean(x.File.UUID))
	}
	field("configuration", configuration)
	field("file", file)

	field("started", formatTime(x.StartTime))
	field("stopped", formatTime(x.StopTime))
	if r := p.table.rows[d.execID]; r != nil && r.reason != "" {
		field("reason", common.Clean(r.reason))
	}
	field("duration", runDuration(x.StartTime, x.StopTime))
	field("succeeded", groupDigits(x.SuccessCount))
	field("failed", groupDigits(x.FailureCount))
	b.WriteByte('\n')
	if len(x.Counters) == 0 {
		b.WriteString(st.Empty.Render("no counters"))
		return b.String()
	}
	names := make([]string, 0, len(x.Counters))
	width := len("counter")
	for name := range x.Counters {
		names = append(names, name)
		width = max(width, len(common.Clean(name)))
	}
	slices.Sort(names)
	b.WriteString(st.Label.Render(common.AlignLeft("counter", width+2) + fmt.Sprintf("%15s", "value")))
	b.WriteByte('\n')
	for _, name := range names {
		b.WriteString(common.AlignLeft(common.Clean(name), width+2) + fmt.Sprintf("%15s", groupDigits(x.Counters[name])))
		b.WriteByte('\n')
	}
	return b.String()
}

func formatTime(t model.DateTime) string {
	if !t.Valid() {
		return "—"
	}
	return t.Time.Format("2006-01-02 15:04:05")
}

func runDuration(start, stop model.DateTime) string {
	if !start.Valid() || !stop.Valid() || stop.Time.Before(start.Time) {
		return "—"
	}
	return longDuration(stop.Time.Sub(start.Time))
}

// groupDigits writes 494400 as 494,400.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// longDuration is a duration to the second: 3s, 2m05s, 1h02m03s.
func longDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

// detailsLabel names the job of the execution whose details are open.
func (p *Pane) detailsLabel() string {
	if p.history != nil {
		return p.history.label
	}
	if r := p.table.rows[p.details.execID]; r != nil {
		return r.job.FileName
	}
	return "execution"
}
