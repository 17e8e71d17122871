package dataview

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// View implements common.Dialog: the whole body, boxed. The frame is drawn
// again only when what it shows changed: the box's lipgloss render measures
// every line, most of a frame's cost.
func (v *View) View() string {
	key := fmt.Sprintf("%d\x00%d\x00%d\x00%d\x00%d\x00%d\x00%t\x00%s\x00%d", v.width, v.height, v.ctx.Styles.Generation(),
		v.page, v.cursor, v.col, v.loading, v.ctx.Spinner, v.sheet)
	if key != v.frameKey {
		v.frameKey, v.frame = key, v.draw()
	}
	return v.frame
}

func (v *View) draw() string {
	st := v.ctx.Styles
	box := st.Dialog
	inner := max(10, v.width-box.GetHorizontalFrameSize())
	lines := v.lines(inner)
	height := max(1, v.height-box.GetVerticalFrameSize())
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = common.PadRight(ansi.Truncate(l, inner, ""), inner)
	}
	return box.Render(strings.Join(lines, "\n"))
}

func (v *View) lines(width int) []string {
	st := v.ctx.Styles
	out := []string{st.DialogTitle.Render(ansi.Truncate("Data of "+common.Clean(v.target.Path), width, "…"))}
	if len(v.sheets) > 1 {
		var tabs []string
		for i, s := range v.sheets {
			if i == v.sheet {
				tabs = append(tabs, st.ActiveTab.Render(common.Clean(s.Name)))
			} else {
				tabs = append(tabs, st.Tab.Render(common.Clean(s.Name)))
			}
		}
		out = append(out, strings.Join(tabs, "")+st.Label.Render("  [ ] sheet"))
	} else {
		out = append(out, "")
	}
	switch {
	case v.err != nil && api.IsNotFound(v.err):
		return append(out, st.Empty.Render("No data yet: the job has not run, or its data was deleted."))
	case v.err != nil:
		return append(out, st.StatusError.Render(common.Explain("reading the data", v.err)+" (r reads again)"))
	case v.loading && v.columns == nil:
		return append(out, st.Empty.Render(v.ctx.Spinner+" reading…"))
	case v.columns == nil || (len(v.rows) == 0 && v.start == 0):
		return append(out, st.Empty.Render("No data yet: the job has not run, or its data was deleted."))
	}
	out = append(out, st.Label.Render(v.position()))
	first, last := v.visibleColumns(width)
	out = append(out, st.Label.Render(v.row(v.columns, first, last)))
	for i, r := range v.rows {
		text := v.row(r, first, last)
		if i == v.cursor {
			out = append(out, st.SelectedRow.Render(common.PadRight(ansi.Truncate(text, width, ""), width)))
		} else {
			out = append(out, st.Row.Render(text))
		}
	}
	return out
}

// position says which rows and columns are on screen.
func (v *View) position() string {
	rows := fmt.Sprintf("rows %d–%d", v.start+1, v.start+len(v.rows))
	if n := v.records(); n >= 0 {
		rows += fmt.Sprintf(" of %d", n)
	}
	if v.loading {
		rows += "  " + v.ctx.Spinner
	}
	return fmt.Sprintf("%s · column %d of %d", rows, v.col+1, len(v.columns))
}

// visibleColumns are the columns from v.col that fit the width.
func (v *View) visibleColumns(width int) (first, last int) {
	used := 0
	last = v.col
	for i := v.col; i < len(v.widths); i++ {
		if used > 0 && used+v.widths[i] > width {
			break
		}
		used += v.widths[i] + 2
		last = i + 1
	}
	return v.col, last
}

func (v *View) row(cells []string, first, last int) string {
	parts := make([]string, 0, last-first)
	for i := first; i < last; i++ {
		cell := ""
		if i < len(cells) {
			cell = common.Clean(cells[i])
		}
		parts = append(parts, common.AlignLeft(cell, v.widths[i]))
	}
	return strings.Join(parts, "  ")
}

// ShortHelp implements help.KeyMap: the hint bar of the view's bindings.
func (v *View) ShortHelp() []key.Binding { return v.bindings().Hints(v.ctx) }

// FullHelp implements help.KeyMap: the view's bindings that work, by column.
func (v *View) FullHelp() [][]key.Binding {
	columns, _, _ := v.bindings().Help(v.ctx)
	return columns
}
