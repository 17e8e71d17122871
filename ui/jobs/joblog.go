package jobs

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// logEvery is how often the log of an execution that has not ended is
// read again, as `k9s logs -f` follows a pod.
const logEvery = 2 * time.Second

// logView is one execution's log (l), opened from the dashboard, a history
// or details; esc goes back there.
type logView struct {
	execID int64
	label  string
	from   mode
	pager  common.Pager
	lines  int
	cut    bool
	state  model.JobState // from the execution's details; "" until read
	loaded bool
	err    string

	reads    common.Requests
	inFlight bool
	ticks    common.Requests // the schedule a re-read tick must belong to
}

// logMsg answers a read of an execution's log and of its state.
type logMsg struct {
	ticket common.Ticket
	execID int64
	text   string
	cut    bool
	state  model.JobState
	err    error
}

func (m logMsg) Failure() error { return m.err }

type logTickMsg struct{ ticket common.Ticket }

func (p *Pane) openLog(execID int64, label string) tea.Cmd {
	if execID <= 0 {
		return common.Info("no execution selected")
	}
	from := p.mode
	if p.logv != nil {
		from = p.logv.from
	}
	p.logv = &logView{execID: execID, label: label, from: from, pager: common.NewPager(true)}
	p.logv.pager.SetSize(p.width, p.height-1)
	p.mode = modeLog
	return p.readLog()
}

// readLog reads the log and the state of the execution in one task; the
// state says whether to keep following.
func (p *Pane) readLog() tea.Cmd {
	v, client := p.logv, p.ctx.Client
	if v == nil || client == nil {
		return nil
	}
	v.inFlight = true
	ticket, id := v.reads.Next(), v.execID
	kind := common.Quick
	if v.loaded {
		kind = common.Quiet // following: the status line stays still
	}
	return common.StartTask(fmt.Sprintf("reading the log of #%d", id), kind, func(ctx context.Context) tea.Msg {
		text, cut, err := client.JobLog(ctx, id)
		msg := logMsg{ticket: ticket, execID: id, text: text, cut: cut, err: err}
		if err == nil {
			if d, err := client.JobDetails(ctx, id); err == nil {
				msg.state = d.JobStatus
			}
		}
		return msg
	})
}

func (p *Pane) gotLog(msg logMsg) tea.Cmd {
	v := p.logv
	if v == nil || !v.reads.Current(msg.ticket) {
		return nil
	}
	v.inFlight = false
	if msg.err != nil {
		v.err = common.Explain("log", msg.err)
		return common.Fail(fmt.Sprintf("log of #%d", msg.execID), msg.err)
	}
	v.err, v.loaded, v.cut = "", true, msg.cut
	if msg.state != "" {
		v.state = msg.state
	}
	lines := strings.Split(strings.TrimRight(msg.text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = common.Clean(strings.ReplaceAll(l, "\t", "    "))
	}
	v.lines = len(lines)
	v.pager.SetLines(lines)
	if !p.logRunning() {
		return nil
	}
	return p.after(logEvery, logTickMsg{ticket: v.ticks.Next()})
}

// logRunning reports whether the execution may still log: its details say
// it has not ended, or, without details, the dashboard still lists it.
func (p *Pane) logRunning() bool {
	v := p.logv
	if v.state != "" {
		return !v.state.Final()
	}
	r := p.table.rows[v.execID]
	return r != nil && !r.gone()
}

func (p *Pane) gotLogTick(msg logTickMsg) tea.Cmd {
	if p.logv == nil || !p.logv.ticks.Current(msg.ticket) || p.logv.inFlight {
		return nil
	}
	return p.readLog()
}

func (p *Pane) logViewText() string {
	v, st := p.logv, p.ctx.Styles
	title := st.PaneTitle.Render(common.Clean(fmt.Sprintf("Log of %s #%d", v.label, v.execID)))
	var facts []string
	if v.state != "" {
		facts = append(facts, stateText(v.state, st.Symbols))
	}
	switch {
	case !v.loaded && v.err == "":
		facts = append(facts, p.ctx.Spinner+" reading…")
	case v.pager.Following() && p.logRunning():
		facts = append(facts, "following (scroll up to stop)")
	case v.loaded:
		first, last, total := v.pager.Position()
		facts = append(facts, fmt.Sprintf("lines %d–%d of %d (G follows)", first, last, total))
	}
	if v.cut {
		facts = append(facts, "only the last 8 MiB")
	}
	head := title + "  " + st.Label.Render(strings.Join(facts, " · "))
	if v.err != "" {
		return head + "\n" + st.StatusError.Render(v.err)
	}
	return head + "\n" + v.pager.View()
}
