package jobs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Fixed column widths; job and file share what is left.
const (
	prefixWidth   = 3 // cursor, mark, space
	stateWidth    = 14
	progressWidth = 15 // [########] 100%
	barWidth      = 8
	elapsedWidth  = 8
	estimateWidth = 9 // "estimate▲" when sorted by it
	userWidth     = 10
	execWidth     = 8
	minNameWidth  = 8
	// wideNameWidth is what names keep before the state column widens by
	// up to wideStateExtra.
	wideNameWidth  = 16
	wideStateExtra = 10
)

// layout is the width of each column for a pane width; 0 hides a column.
// Narrow terminals lose user, estimate, exec and elapsed, in that order.
type layout struct {
	job, file, path, state, progress, elapsed, estimate, user, exec int
}

// wideAt is the pane width from which the path column always shows.
const wideAt = 160

// newLayout is the columns for a pane width, with a path column when
// withPath (two rows share a file name, or the pane is wide). The path, which
// ends with the file name, takes the file column's place and two thirds
// of what the names have.
func newLayout(width int, withPath bool) layout {
	l := newNamesLayout(width)
	if !withPath {
		return l
	}
	names := l.job + l.file
	l.job = max(minNameWidth/2, names/3)
	l.path, l.file = names-l.job, 0
	return l
}

func newNamesLayout(width int) layout {
	l := layout{state: stateWidth, progress: progressWidth, elapsed: elapsedWidth,
		estimate: estimateWidth, user: userWidth, exec: execWidth}
	optional := []*int{&l.user, &l.estimate, &l.exec, &l.elapsed}
	for {
		fixed := prefixWidth + l.state + l.progress
		gaps := 3 // between job, file, state, progress
		for _, w := range optional {
			if *w > 0 {
				fixed += *w
				gaps++
			}
		}
		rest := width - fixed - gaps
		if rest >= 2*minNameWidth || len(optional) == 0 {
			// States the spec does not name (WAITING_FOR_OTHER_JOB) are
			// long: give the state what the names can spare.
			spare := min(wideStateExtra, max(0, rest-2*wideNameWidth))
			l.state += spare
			rest -= spare
			l.job = max(minNameWidth/2, rest/2)
			l.file = max(minNameWidth/2, rest-l.job)
			return l
		}
		*optional[0] = 0
		optional = optional[1:]
	}
}

// cells joins the columns a layout shows, each cut or padded to its width;
// paintState, when set, colours the padded state cell.
func (l layout) cells(c rowCells, paintState func(string) string) string {
	var b strings.Builder
	add := func(text string, width int, right bool, paint func(string) string) {
		if width == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if right {
			text = common.AlignRight(text, width)
		} else {
			text = common.AlignLeft(text, width)
		}
		if paint != nil {
			text = paint(text)
		}
		b.WriteString(text)
	}
	add(c.job, l.job, false, nil)
	add(c.file, l.file, false, nil)
	if l.path > 0 && ansi.StringWidth(c.path) > l.path {
		// A path is cut at its start: its end names the file.
		c.path = "…" + ansi.TruncateLeft(c.path, ansi.StringWidth(c.path)-l.path+1, "")
	}
	add(c.path, l.path, false, nil)
	add(c.state, l.state, false, paintState)
	add(c.progress, l.progress, false, nil)
	add(c.elapsed, l.elapsed, true, nil)
	add(c.estimate, l.estimate, true, nil)
	add(c.user, l.user, false, nil)
	add(c.exec, l.exec, true, nil)
	return b.String()
}

// unknownUser fills the user cell of an execution this console did not
// start: list-running, status and details name no user, only the trigger
// answer does.
const unknownUser = "—"

// rowCells is the text of each column of one row.
type rowCells struct {
	job, file, path, state, progress, elapsed, estimate, user, exec string
}

// View implements common.Pane.
func (p *Pane) View() string {
	var body string
	switch p.mode {
	case modeHistory:
		body = p.historyView()
	case modeDetails:
		body = p.detailsView()
	case modePlan:
		body = p.planView()
	case modeLog:
		body = p.logViewText()
	default:
		body = p.dashboardView()
	}
	return p.fitter.Fit(strings.TrimSuffix(body, "\n"), p.width, p.height)
}

func (p *Pane) dashboardView() string {
	p.chooseLayout()
	st := p.ctx.Styles
	now := p.ctx.Now()
	var b strings.Builder
	b.WriteString(p.summaryLine())
	b.WriteByte('\n')
	b.WriteString(st.Label.Render(p.headerLine()))
	b.WriteByte('\n')
	first, last := p.visibleRange()
	if first == last {
		msg := "no running or queued jobs"
		switch {
		case p.table.filter != "":
			msg = "no job matches /" + p.table.filter
		case p.polling.polls == 0 && p.polling.lastErr == nil:
			msg = p.ctx.Spinner + " reading running jobs…"
		}
		b.WriteString(st.Empty.Render("   " + msg))
		b.WriteByte('\n')
	}
	for i := first; i < last; i++ {
		r := p.table.view[i]
		if i == p.cursor {
			b.WriteString(st.SelectedRow.Render(common.AlignLeft(p.plainRow(r, now, true), p.width)))
		} else {
			b.WriteString(p.renderRow(r, now))
		}
		b.WriteByte('\n')
	}
	for i := last - first; i < p.rowsOnScreen() && first != last; i++ {
		b.WriteByte('\n')
	}
	if reason := p.selectedReason(); reason != "" {
		r := p.selected()
		line := fmt.Sprintf("#%d %s — %s", r.job.JobExecutionID, common.Clean(string(r.state)), common.Clean(reason))
		b.WriteString(stateStyle(st, r.state).Render(ansi.Truncate(line, p.width, "…")))
		b.WriteByte('\n')
	}
	count := common.MatchCount(len(p.table.view), len(p.table.rows))
	if p.filter.Active() {
		b.WriteString(p.filter.ViewCount(count))
	} else if p.table.filter != "" {
		b.WriteString(st.Label.Render(ansi.Truncate(p.filter.Line(p.table.filter, count), p.width, "…")))
	}
	return b.String()
}

// summaryLine counts what is listed and says how fresh it is.
func (p *Pane) summaryLine() string {
	st := p.ctx.Styles
	t := p.table
	text := fmt.Sprintf("%d running · %d queued", t.running, t.queued)
	if t.lingered > 0 {
		text += fmt.Sprintf(" · %d just ended", t.lingered)
	}
	if t.filter != "" {
		text += fmt.Sprintf(" · %d shown", len(t.view))
	}
	line := st.PaneTitle.Render("Jobs") + "  " + st.Value.Render(text) + "  " + st.Label.Render(p.polling.modeText())
	if t.sortBy != colExec || t.reverse {
		line += st.Label.Render(" · sorted by " + columnNames[t.sortBy])
	}

	var stale string
	switch waited := p.polling.waiting(p.ctx.Now()); {
	case waited > 0:
		stale = fmt.Sprintf("stale: list-running has not answered for %s", shortDuration(waited.Truncate(time.Second)))
	case p.polling.lastErr != nil:
		stale = fmt.Sprintf("stale: %d polls failed, retry in %s — %s", p.polling.failures,
			shortDuration(p.polling.delay()), common.Explain("list-running", p.polling.lastErr))
	}
	if stale != "" {
		line += "  " + st.HealthSlow.Render(st.Symbols.Warning+" "+stale)
	}
	switch p.polling.jobAPI { // which job endpoints answer, once one has
	case api.JobAPIV2:
		line += st.Label.Render(" · " + p.polling.jobAPI.String())
	case api.JobAPILegacy:
		line += st.Label.Render(" · " + p.polling.jobAPI.String() + " (no REST-v2: states, no progress)")
	}
	return line
}

func (p *Pane) headerLine() string {
	names := columnNames
	arrow := "▲"
	if p.table.reverse {
		arrow = "▼"
	}
	names[p.table.sortBy] += arrow
	return strings.Repeat(" ", prefixWidth) + p.layout.cells(rowCells{job: names[colJob], file: names[colFile], path: "path",
		state: names[colState], progress: names[colProgress], elapsed: names[colElapsed],
		estimate: names[colEstimate], user: names[colUser], exec: names[colExec]}, nil)
}

// renderRow returns a row's line, from its cache while nothing it shows
// changed (the elapsed time counts in whole seconds).
func (p *Pane) renderRow(r *row, now time.Time) string {
	k := lineKey{version: r.version, width: p.width, elapsed: int64(r.elapsed(now) / time.Second), path: p.layout.path,
		marked: p.marked[r.job.FileID], styles: p.ctx.Styles.Generation()}
	if r.lineKey == k && r.line != "" {
		return r.line
	}
	r.line, r.lineKey = p.styledRow(r, now), k
	return r.line
}

func (p *Pane) styledRow(r *row, now time.Time) string {
	st := p.ctx.Styles
	if r.gone() {
		return st.DimRow.Render(p.plainRow(r, now, false))
	}
	// Colour the state cell only: the rest reads as plain text.
	paint := stateStyle(st, r.state)
	return p.rowPrefix(r, false, true) + p.layout.cells(p.rowCells(r, now), func(s string) string { return paint.Render(s) })
}

func (p *Pane) plainRow(r *row, now time.Time, selected bool) string {
	return p.rowPrefix(r, selected, false) + p.layout.cells(p.rowCells(r, now), nil)
}

// rowPrefix is the cursor and the mark of a row; paint draws the mark in
// its style, which a row drawn whole in one style (selected, gone) leaves
// to that style.
func (p *Pane) rowPrefix(r *row, selected, paint bool) string {
	st := p.ctx.Styles
	cursor, mark := " ", " "
	if selected {
		cursor = st.Symbols.Cursor
	}
	if p.marked[r.job.FileID] {
		mark = st.Symbols.Marked
		if paint {
			mark = st.MarkedRow.Render(mark)
		}
	}
	return cursor + mark + " "
}

func (p *Pane) rowCells(r *row, now time.Time) rowCells {
	// Names come from the server: cleaned for the terminal.
	c := rowCells{file: common.Clean(r.job.FileName), state: stateText(r.state, p.ctx.Styles.Symbols), user: common.Clean(r.user),
		exec: "#" + strconv.FormatInt(r.job.JobExecutionID, 10), job: common.Clean(r.job.JobName)}
	if p.layout.path > 0 {
		c.path = common.Clean(p.pathOf(r))
	}
	if c.job == "" {
		c.job = strings.TrimSuffix(c.file, fileExt(c.file))
	}
	if c.user == "" {
		c.user = unknownUser
	}
	switch {
	case r.hasProgress && r.superseded && !r.gone():
		c.progress = atLeastBar(r.progress)
	case r.hasProgress:
		c.progress = progressBar(r.progress)
	case r.superseded && !r.gone():
		c.progress = "not reported"
	}
	if d := r.elapsed(now); d > 0 && !r.gone() {
		c.elapsed = shortDuration(max(d.Truncate(time.Second), time.Second))
	}
	if r.estimate > 0 && !r.gone() && r.state.Canonical() == model.StateRunning {
		c.estimate = estimateText(r.estimate)
	}
	return c
}

func fileExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[i:]
	}
	return ""
}

// stateCell is a state drawn with its symbol and colour, cut to width.
func (p *Pane) stateCell(s model.JobState, width int, dim bool) string {
	st := p.ctx.Styles
	text := stateText(s, st.Symbols)
	if ansi.StringWidth(text) > width {
		text = ansi.Truncate(text, width, "…")
	}
	if dim {
		return st.DimRow.Render(text)
	}
	return stateStyle(st, s).Render(text)
}

// stateText tells a state by a symbol and its name; unknown states show as
// they come, behind a question mark.
func stateText(s model.JobState, sym theme.Symbols) string {
	switch s.Canonical() {
	case model.StateRunning:
		return sym.JobRunning + " RUNNING"
	case model.StateQueued:
		return sym.JobQueued + " QUEUED"
	case model.StateCompleted:
		return sym.Notice + " COMPLETED"
	case model.StateCompletedWithWarnings:
		return sym.Warning + " WARNINGS"
	case model.StateCanceled:
		return sym.JobCanceled + " CANCELED"
	case model.StateError:
		return sym.Error + " ERROR"
	case model.StateNone:
		return "  never run"
	case "":
		return sym.JobUnknown + " unknown"
	}
	return sym.JobUnknown + " " + common.Clean(string(s))
}

func stateStyle(st *theme.Styles, s model.JobState) lipgloss.Style {
	switch s.Canonical() {
	case model.StateRunning:
		return st.JobRunning
	case model.StateQueued:
		return st.JobQueued
	case model.StateCompleted:
		return st.JobCompleted
	case model.StateCompletedWithWarnings:
		return st.JobWarnings
	case model.StateCanceled:
		return st.JobCanceled
	case model.StateError:
		return st.JobFailed
	}
	return st.JobOther
}

// progressBar draws a percentage: [###-----]  37%.
func progressBar(percent float64) string {
	percent = max(0, min(100, percent))
	filled := int(percent / 100 * barWidth)
	return "[" + strings.Repeat("#", filled) + strings.Repeat("-", barWidth-filled) + "] " + fmt.Sprintf("%3.0f%%", percent)
}

// atLeastBar is the last progress read of an execution whose status now
// speaks of a newer one: it has gone on since, so it reads "≥37%".
func atLeastBar(percent float64) string {
	bar := progressBar(percent)
	if percent >= 100 {
		return bar
	}
	return bar[:len(bar)-4] + fmt.Sprintf("≥%2.0f%%", max(0, percent))
}

// estimateText is a time left in one format whatever its size, minutes and
// seconds: 0m01s, 1m23s, 75m00s.
func estimateText(d time.Duration) string {
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}

// shortDuration is a duration in at most 8 characters: 12s, 3m05s, 1h02m.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
