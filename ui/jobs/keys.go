package jobs

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dataview"
)

func (p *Pane) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if p.filter.Active() {
		return p.handleFilterKey(msg)
	}
	cmd, _ := p.Bindings().Handle(p.ctx, msg)
	return cmd
}

// Bindings implements common.Pane: the keys of the dashboard or of the
// view opened from it.
func (p *Pane) Bindings() common.Bindings {
	k := p.ctx.Keys
	switch p.mode {
	case modeHistory:
		return append(p.history.bindings(p), p.closeBinding(), p.backBinding())
	case modeDetails:
		return common.Bindings{
			{Key: k.Logs, Help: "log of the execution", Short: "log", Run: func() tea.Cmd { return p.openLog(p.details.execID, p.detailsLabel()) }, Hint: 1},
			p.closeBinding(), p.backBinding(),
		}
	case modePlan:
		return common.Bindings{p.backBinding()}
	case modeLog:
		return append(p.logv.bindings(p), p.closeBinding(), p.backBinding())
	}
	if p.filter.Active() {
		return common.Bindings{{Key: k.Confirm, Hint: 1}, {Key: k.Back, Hint: 2}}
	}
	return p.dashboardBindings()
}

// backBinding is esc in a view opened from the dashboard: back one step,
// or to the pane the history was opened from.
func (p *Pane) backBinding() common.Binding {
	return common.Binding{Key: p.ctx.Keys.Back, Run: p.goBack, Hint: 10, Column: 1}
}

// closeBinding is h or ←, l's pair: it closes the view as esc does.
func (p *Pane) closeBinding() common.Binding {
	return common.Binding{Key: p.ctx.Keys.Close, Run: p.goBack, Column: 1}
}

func (p *Pane) goBack() tea.Cmd {
	returning := p.jumpedIn && p.mode == modeHistory
	p.back()
	if returning {
		// Opened from another pane: esc goes back there.
		p.jumpedIn = false
		return common.Send(common.BackMsg{})
	}
	return nil
}

func (p *Pane) dashboardBindings() common.Bindings {
	k := p.ctx.Keys
	bs := common.ListBindings(k, p.rowsOnScreen(), len(p.table.view), 0, 0, func(delta int) tea.Cmd {
		p.moveCursor(delta)
		return nil
	})
	bs = append(bs,
		common.Binding{Key: k.Filter, Run: p.filter.Start, Hint: 6, Column: 1},
		common.Binding{Key: k.Back, Help: "clear the filter", Run: p.clearFilter, Column: 1},
		common.Binding{Key: k.SortBy, Run: func() tea.Cmd { return p.sortBy((p.table.sortBy+1)%columnCount, false) }, Hint: 7, Column: 1},
		common.Binding{Key: k.SortReverse, Run: func() tea.Cmd { p.table.reverse = !p.table.reverse; p.resort(); return nil }, Column: 1},
		common.Binding{Key: k.Refresh, Help: "poll now", Run: p.pollNow, Column: 3},
		common.Binding{Key: k.PollFaster, Run: func() tea.Cmd { return p.stepEvery(-1) }, Column: 3},
		common.Binding{Key: k.PollSlower, Run: func() tea.Cmd { return p.stepEvery(1) }, Column: 3},
		common.Binding{Key: k.PollPause, Run: p.togglePause, Hint: 8, Column: 3},
		common.Binding{Key: k.PollOff, Run: p.togglePolling, Column: 3},
	)
	bs = append(bs, p.sortBindings()...)
	return append(bs, p.rowBindings()...)
}

func (p *Pane) clearFilter() tea.Cmd {
	if p.table.filter != "" {
		p.filter.Clear()
		p.setFilter("")
	}
	return nil
}

// sortBy sorts by a column; byKey is a column's own key, which pressed
// again reverses the order.
func (p *Pane) sortBy(by column, byKey bool) tea.Cmd {
	if byKey {
		p.table.reverse = by == p.table.sortBy && !p.table.reverse
	}
	p.table.sortBy = by
	p.resort()
	return nil
}

// rowBindings are the keys that act on the selected row.
func (p *Pane) rowBindings() common.Bindings {
	k := p.ctx.Keys
	r := p.selected()
	on := func(do func(r *row) tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if r == nil {
				return nil
			}
			return do(r)
		}
	}
	return common.Bindings{
		{Key: k.Open, Help: "history", Run: on(p.openRowHistory), Hint: 1, Column: 1},
		{Key: k.Logs, Help: "log of the execution", Short: "log", Run: on(func(r *row) tea.Cmd { return p.openLog(r.job.JobExecutionID, r.job.FileName) }), Hint: 2, Column: 1},
		{Key: k.Mark, Help: "mark for sequence", Run: on(p.toggleMark), Column: 1},
		{Key: k.ViewData, Help: "view the job's newest data", Run: on(func(r *row) tea.Cmd {
			return dataview.OpenFile(p.ctx, p.pathOf(r), r.job.UUID, r.job.DapJobConfigurationID)
		}), Column: 1},
		{Key: k.CopyPath, Run: on(func(r *row) tea.Cmd { return common.Copy("path", p.pathOf(r)) }), Column: 3},
		{Key: k.CopyID, Run: on(func(r *row) tea.Cmd { return common.Copy("file id", strconv.FormatInt(r.job.FileID, 10)) }), Column: 3},
		{Key: k.Trigger, Help: "trigger (asks first)", Short: "trigger", Run: on(func(r *row) tea.Cmd {
			return p.askTrigger(r.ref, strings.TrimSuffix(r.label(), fmt.Sprintf(" #%d", r.job.JobExecutionID)))
		}), Write: true, Hint: 3, Column: 4},
		{Key: k.Stop, Help: "stop (asks first)", Short: "stop", Run: on(p.askStopRow), Write: true, Hint: 4, Column: 4},
		{Key: k.SequentialTrigger, Run: p.sequenceForm, Write: true, Hint: 5, Column: 4},
		{Key: k.Delete, Help: "delete job data (asks first)", Run: on(func(r *row) tea.Cmd { return p.askDelete(r.job.JobExecutionID, r.label()) }), Write: true, Column: 4},
	}
}

// openRowHistory opens the history of a row's job. A row triggered here
// that ended before a poll listed it has no configuration id: its history
// is found through the file's status and details.
func (p *Pane) openRowHistory(r *row) tea.Cmd {
	if r.job.DapJobConfigurationID <= 0 {
		return p.lookUpHistory(historyLookup{ref: r.ref})
	}
	return p.openHistory(r.job.DapJobConfigurationID, r.job.FileName)
}

func (p *Pane) toggleMark(r *row) tea.Cmd {
	p.marked[r.job.FileID] = !p.marked[r.job.FileID]
	if !p.marked[r.job.FileID] {
		delete(p.marked, r.job.FileID)
	}
	p.moveCursor(1)
	return nil
}

func (p *Pane) askStopRow(r *row) tea.Cmd {
	if r.gone() || !r.state.Active() {
		return common.Info(r.label() + " has ended: nothing to stop")
	}
	return p.askStop(r.ref, r.label(), r.job.JobExecutionID)
}

// sortBindings are the dashboard's direct sort keys, shift+letter as in
// k9s, by column.
func (p *Pane) sortBindings() common.Bindings {
	k := p.ctx.Keys
	var keys [columnCount]common.Binding
	keys[colExec].Key, keys[colJob].Key, keys[colFile].Key, keys[colState].Key = k.SortID, k.SortName, k.SortFile, k.SortState
	keys[colProgress].Key, keys[colElapsed].Key, keys[colEstimate].Key, keys[colUser].Key = k.SortProgress, k.SortElapsed, k.SortEstimate, k.SortUser
	out := make(common.Bindings, 0, len(keys))
	for c, b := range keys {
		b.Help, b.Column = "sort by "+columnNames[c], 2
		b.Run = func() tea.Cmd { return p.sortBy(column(c), true) }
		out = append(out, b)
	}
	return out
}

// bindings are the keys of an open history: pages of older and newer
// executions, and the selected execution's details, log and data.
func (h *historyView) bindings(p *Pane) common.Bindings {
	k := p.ctx.Keys
	bs := common.ListBindings(k, len(h.entries), len(h.entries), 0, 0, func(delta int) tea.Cmd {
		h.cursor = max(0, min(len(h.entries)-1, h.cursor+delta))
		return nil
	})
	// Page keys page the history; the rest move within the page.
	bs = append(bs[:3], bs[5:]...)
	on := func(do func(id int64) tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if e, ok := h.selected(); ok {
				return do(e.ID)
			}
			return nil
		}
	}
	return append(bs,
		common.Binding{Key: k.PageDown, Help: "older executions", Short: "older", Run: func() tea.Cmd { return h.older(p) }, Hint: 3, Column: 1},
		common.Binding{Key: k.PageUp, Help: "newer executions", Short: "newer", Run: func() tea.Cmd { return h.newer(p) }, Hint: 4, Column: 1},
		common.Binding{Key: k.Refresh, Run: func() tea.Cmd { return p.readHistory(h.start) }, Column: 1},
		common.Binding{Key: k.Open, Help: "details", Run: on(p.openDetails), Hint: 1, Column: 2},
		common.Binding{Key: k.Logs, Help: "log of the execution", Short: "log", Run: on(func(id int64) tea.Cmd { return p.openLog(id, h.label) }), Hint: 2, Column: 2},
		common.Binding{Key: k.ViewData, Help: "view the job's newest data", Run: func() tea.Cmd {
			return dataview.OpenFile(p.ctx, h.label, "", h.configID)
		}, Column: 2},
		common.Binding{Key: k.Delete, Help: "delete job data", Short: "delete data", Run: on(func(id int64) tea.Cmd { return p.askDelete(id, h.label) }), Write: true, Hint: 5, Column: 2},
	)
}

func (h *historyView) older(p *Pane) tea.Cmd {
	switch {
	case h.loading:
		return nil
	case len(h.entries) < h.page || (h.total >= 0 && h.start+len(h.entries) >= h.total):
		return common.Info("no older executions")
	}
	return p.readHistory(h.start + len(h.entries))
}

func (h *historyView) newer(p *Pane) tea.Cmd {
	switch {
	case h.loading:
		return nil
	case h.start == 0:
		return common.Info("these are the newest executions")
	}
	return p.readHistory(max(0, h.start-p.historyPage()))
}

// bindings are the keys of a job's log: the pager's, read again, and l
// (which opened it) to close it.
func (v *logView) bindings(p *Pane) common.Bindings {
	k := p.ctx.Keys
	return append(v.pager.Bindings(k, 1, 0),
		common.Binding{Key: k.Refresh, Help: "read again", Run: func() tea.Cmd {
			if v.inFlight {
				return nil
			}
			return p.readLog()
		}, Hint: 3, Column: 1},
		common.Binding{Key: k.Logs, Help: "close the log", Run: func() tea.Cmd { p.back(); return nil }, Column: 1},
	)
}
