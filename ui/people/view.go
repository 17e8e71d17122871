package people

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

// View implements common.Pane.
func (p *Pane) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	var lines []string
	switch {
	case p.me != nil:
		lines = p.ownView()
	case !p.loaded:
		lines = p.waitView()
	default:
		lines = p.listView()
	}
	if len(lines) > p.height {
		lines = lines[:p.height]
	}
	return strings.Join(lines, "\n")
}

func (p *Pane) waitView() []string {
	st := p.ctx.Styles
	title := st.PaneTitle.Render("People")
	switch {
	case p.unsupported:
		return []string{title, st.Empty.Render("This platform has no user management (/rest/user-management).")}
	case p.err != nil:
		return []string{title, st.Empty.Render(common.Explain("reading the users", p.err) + " (r reads again)")}
	}
	return []string{title, st.Empty.Render(p.ctx.Spinner + " reading users, groups and roles…")}
}

// ownView is what a non-administrator sees: a sentence and their account.
func (p *Pane) ownView() []string {
	st := p.ctx.Styles
	me := p.me
	enabled := "yes"
	if !me.Enabled {
		enabled = "no"
	}
	field := func(label, value string) string {
		return ansi.Truncate(st.Label.Render(common.PadRight(label, 10))+st.Value.Render(common.Clean(value)), p.width, "…")
	}
	return []string{
		st.PaneTitle.Render("People"),
		ansi.Truncate("User management is for administrators; this is your account.", p.width, "…"),
		"",
		field("user", me.Username),
		field("e-mail", me.Email),
		field("enabled", enabled),
		field("groups", strings.Join(me.Groups, ", ")),
		field("roles", strings.Join(me.Roles, ", ")),
	}
}

// widths of the section's columns for the pane's width: the name a fifth,
// the rest shared, the last taking what is left.
func (p *Pane) widths() []int {
	n := len(columnNames[p.section])
	avail := max(0, p.width-2-(n-1)*2)
	out := make([]int, n)
	switch p.section {
	case users:
		out[0], out[1], out[2], out[3] = avail*18/100, 7, avail*28/100, avail*22/100
	case groups:
		out[0] = avail * 25 / 100
	case roles:
		out[0], out[2] = avail*20/100, 9
	}
	used := 0
	for _, w := range out {
		used += w
	}
	for i := range out {
		if out[i] == 0 {
			out[i] = max(0, avail-used)
		}
	}
	return out
}

func (p *Pane) line(cells []string, widths []int) string {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = common.AlignLeft(common.Clean(c), widths[i])
	}
	return strings.Join(parts, "  ")
}

func (p *Pane) listView() []string {
	st := p.ctx.Styles
	s := p.section
	var tabs []string
	for i, name := range sectionNames {
		if section(i) == s {
			tabs = append(tabs, st.ActiveTab.Render(name))
		} else {
			tabs = append(tabs, st.Tab.Render(name))
		}
	}
	lines := []string{ansi.Truncate(st.PaneTitle.Render("People")+" "+strings.Join(tabs, "")+st.Label.Render("  [ ] switch"), p.width, "…")}
	count := common.MatchCount(len(p.rows), p.total)
	switch {
	case p.filter.Active():
		lines = append(lines, p.filter.ViewCount(count))
	case p.filters[s] != "":
		lines = append(lines, st.Label.Render(ansi.Truncate(p.filter.Line(p.filters[s], count), p.width, "…")))
	default:
		lines = append(lines, st.Label.Render(count))
	}
	widths := p.widths()
	head := append([]string(nil), columnNames[s]...)
	arrow := theme.Graph().SortUp
	if p.descending[s] {
		arrow = theme.Graph().SortDown
	}
	head[p.sortBy[s]] += " " + arrow
	lines = append(lines, st.Label.Render(ansi.Truncate("  "+p.line(head, widths), p.width, "")))
	if len(p.rows) == 0 {
		return append(lines, st.Empty.Render("  nothing here"))
	}
	off := p.offset[s]
	for i := off; i < min(len(p.rows), off+p.listHeight()); i++ {
		if i == p.cursor[s] {
			text := ansi.Truncate("› "+p.line(p.rows[i].cells, widths), p.width, "")
			lines = append(lines, st.SelectedRow.Render(common.PadRight(text, p.width)))
		} else {
			lines = append(lines, st.Row.Render(ansi.Truncate("  "+p.line(p.rows[i].cells, widths), p.width, "")))
		}
	}
	return lines
}

// Bindings implements common.Pane: moving, switching lists, filtering
// and sorting, then the section's write keys.
func (p *Pane) Bindings() common.Bindings {
	k := p.ctx.Keys
	switch {
	case p.filter.Active():
		return common.Bindings{{Key: k.Confirm, Hint: 1}, {Key: k.Back, Hint: 2}}
	case p.me != nil:
		return common.Bindings{{Key: k.Refresh, Help: "read your account again", Run: func() tea.Cmd { return p.readLists(common.Quick) }, Hint: 1}}
	}
	bs := common.ListBindings(k, p.listHeight(), len(p.rows), 1, 0, p.moveCursor)
	bs = append(bs,
		common.Binding{Key: k.NextSection, Help: "next list (users, groups, roles)", Short: "next list", Run: func() tea.Cmd { return p.switchSection(1) }, Hint: 2, Column: 0},
		common.Binding{Key: k.PrevSection, Help: "previous list", Run: func() tea.Cmd { return p.switchSection(sectionCount - 1) }, Column: 0},
		common.Binding{Key: k.Filter, Run: p.filter.Start, Hint: 3, Column: 1},
		common.Binding{Key: k.SortBy, Run: func() tea.Cmd {
			p.sortBy[p.section] = (p.sortBy[p.section] + 1) % len(columnNames[p.section])
			p.build()
			return nil
		}, Hint: 4, Column: 1},
		common.Binding{Key: k.SortReverse, Run: func() tea.Cmd { p.descending[p.section] = !p.descending[p.section]; p.build(); return nil }, Column: 1},
		common.Binding{Key: k.Refresh, Run: func() tea.Cmd { return p.readLists(common.Quick) }, Column: 1},
		common.Binding{Key: k.Back, Help: "clear the filter", Run: p.clearFilter, Column: 1},
	)
	return append(bs, p.writeBindings()...)
}
