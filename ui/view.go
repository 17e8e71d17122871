package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// View implements tea.Model.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	if m.opts.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

// Render returns the screen as a string: header, pane (with the top dialog
// drawn over it), status line, help line. Below the minimum size it is one
// line saying so.
func (m *Model) Render() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.tooSmall() {
		// One short line each, the size it needs first: one long line cut
		// at the width lost the size.
		msg := fmt.Sprintf("terminal too small:\nneed %d×%d, have %d×%d\nq quits", MinWidth, MinHeight, m.width, m.height)
		return m.ctx.Styles.TooSmall.Render(common.Fit(msg, m.width, m.height))
	}
	bodyW, bodyH := m.bodySize()
	var body string
	if m.help.ShowAll {
		body = m.fullHelpView()
	} else {
		body = m.panes[m.active].View()
	}
	body = m.fitter.Fit(body, bodyW, bodyH)
	if d := m.Dialog(); d != nil {
		body = overlay(body, d.View(), bodyW, bodyH)
	}
	return strings.Join([]string{m.headerView(), body, m.statusView(), m.helpLineView()}, "\n")
}

// lineCache keeps a line drawn from what its key names.
type lineCache struct{ key, line string }

// get returns the line drawn for key, drawing it when key changed.
func (c *lineCache) get(key string, draw func() string) string {
	if c.key != key {
		c.key, c.line = key, draw()
	}
	return c.line
}

func (m *Model) headerView() string {
	st := m.ctx.Styles
	titles := make([]string, len(m.panes))
	for i, p := range m.panes {
		titles[i] = p.Title()
	}
	healthText := m.healthView()
	if licence := m.licenceText(); licence != "" {
		healthText = m.ctx.Styles.StatusError.Render(st.Symbols.Error+" "+licence) + " " + healthText
	}
	identity := m.ctx.User + "@" + hostOf(m.ctx.Server)
	if m.ctx.Profile != "" {
		identity += " (" + m.ctx.Profile + ")"
	}
	if m.ctx.Client == nil {
		// Before the first login there is nobody and nothing to connect to.
		identity, healthText = "not logged in", ""
	}
	if t := m.tasks.transferText(); t != "" {
		// A backup or restore in the background: how far, before the health.
		healthText = st.StatusBusy.Render(common.Clean(t)) + " " + healthText
	}
	key := fmt.Sprintf("%d\x00%d\x00%d\x00%t\x00%s\x00%s\x00%s", m.width, st.Generation(), m.active, m.ctx.ReadOnly,
		identity, healthText, strings.Join(titles, "\x00"))
	return m.header.get(key, func() string { return m.drawHeader(titles, identity, healthText) })
}

// drawHeader lays out the tabs, who is logged in where and the server's
// health, dropping the least needed parts until they fit the width.
func (m *Model) drawHeader(titles []string, identity, healthText string) string {
	st := m.ctx.Styles
	var tabs []string
	for i, title := range titles {
		label := fmt.Sprintf("%d %s", i+1, title)
		if i == m.active {
			tabs = append(tabs, st.ActiveTab.Render(label))
		} else {
			tabs = append(tabs, st.Tab.Render(label))
		}
	}
	tabLine := strings.Join(tabs, "")
	ro := ""
	if m.ctx.ReadOnly {
		ro = st.ReadOnly.Render(st.Symbols.ReadOnly) + " "
	}
	candidates := [][2]string{
		{st.AppName.Render("dapconsole") + " " + tabLine, ro + st.Identity.Render(identity) + " " + healthText},
		{tabLine, ro + st.Identity.Render(identity) + " " + healthText},
		{tabLine, ro + st.Identity.Render(m.ctx.User) + " " + healthText},
		{tabLine, ro + healthText},
	}
	for _, c := range candidates {
		if gap := m.width - lipgloss.Width(c[0]) - lipgloss.Width(c[1]); gap >= 1 {
			return c[0] + strings.Repeat(" ", gap) + c[1]
		}
	}
	return ansi.Truncate(tabLine, m.width, "…")
}

func (m *Model) healthView() string {
	st := m.ctx.Styles
	if oldest, ok := m.tasks.oldest(); ok && m.ctx.Now().Sub(oldest.started) > slowAfter && m.health.state != healthDown {
		return st.HealthSlow.Render(st.Symbols.Slow)
	}
	switch m.health.state {
	case healthUp:
		return st.HealthOK.Render(st.Symbols.Healthy)
	case healthDown:
		return st.HealthBad.Render(st.Symbols.Unhealthy)
	case healthUnauthorized:
		return st.HealthBad.Render(st.Symbols.Error + " login")
	}
	return st.StatusInfo.Render("○ connecting")
}

func (m *Model) statusView() string {
	st := m.ctx.Styles
	if m.cmdline.active {
		return m.cmdline.input.View()
	}
	var line string
	switch {
	case m.status.text != "" && m.status.level == common.LevelError:
		line = m.fitStatus(st.StatusError, st.Symbols.Error+" "+m.status.text, "  esc dismiss")
	case m.status.text != "" && m.status.level == common.LevelNotice:
		line = m.fitStatus(st.StatusNotice, st.Symbols.Notice+" "+m.status.text, "")
	case m.status.text != "":
		line = m.fitStatus(st.StatusInfo, m.status.text, "")
	default:
		if t, ok := m.tasks.oldest(); ok {
			line = st.StatusBusy.Render(m.ctx.Spinner + " " + t.label + "…")
			if n := m.tasks.shown(); n > 1 {
				line += st.StatusInfo.Render(fmt.Sprintf(" (+%d more)", n-1))
			}
		}
	}
	return ansi.Truncate(line, m.width, "…")
}

// cutHint ends a status message the line had to cut: the message log holds
// it whole.
const cutHint = "… (L: whole message)"

// fitStatus draws a message and its trailing hint in the status line; a
// message too long for it is cut and says where to read it whole.
func (m *Model) fitStatus(style lipgloss.Style, text, hint string) string {
	st := m.ctx.Styles
	if ansi.StringWidth(text)+ansi.StringWidth(hint) <= m.width {
		return style.Render(text) + st.StatusInfo.Render(hint)
	}
	room := max(0, m.width-ansi.StringWidth(cutHint))
	return style.Render(ansi.Truncate(text, room, "")) + st.StatusInfo.Render(cutHint)
}

func (m *Model) helpLineView() string {
	if m.cmdline.active {
		return m.ctx.Styles.CommandHint.Render(ansi.Truncate(m.cmdline.hint(m.width), m.width, "…"))
	}
	bindings := m.ShortHelp()
	var key strings.Builder
	fmt.Fprintf(&key, "%d\x00%d", m.help.Width(), m.ctx.Styles.Generation())
	for _, b := range bindings {
		if b.Enabled() {
			key.WriteString("\x00" + b.Help().Key + "\x01" + b.Help().Desc)
		}
	}
	// Cut again: bubbles' help adds the items past the width when its "…"
	// would not fit either.
	return m.helpLine.get(key.String(), func() string {
		return ansi.Truncate(m.help.ShortHelpView(bindings), m.width, "…")
	})
}

func (m *Model) fullHelpView() string {
	st := m.ctx.Styles
	title := st.PaneTitle.Render("Keys — " + m.panes[m.active].Title() + m.releaseText() + " (? or esc closes)")
	if _, _, reasons := m.allBindings().Help(m.ctx); reasons != nil {
		title += "\n" + st.ReadOnly.Render(ansi.Truncate("keys marked ✗ are disabled: "+strings.Join(reasons, "; "), m.width, "…"))
	}
	return m.helpWindow(title + "\n\n" + m.helpColumnRows(m.FullHelp()))
}

// helpWindow shows the lines of `?` from helpTop on, as many as the body
// holds, with a last line saying where the reader is when not all fit.
func (m *Model) helpWindow(text string) string {
	_, bodyH := m.bodySize()
	lines := strings.Split(text, "\n")
	if len(lines) <= bodyH || bodyH < 2 {
		m.helpTop = 0
		return text
	}
	room := bodyH - 1
	m.helpTop = min(m.helpTop, len(lines)-room)
	shown := lines[m.helpTop : m.helpTop+room]
	where := fmt.Sprintf("lines %d–%d of %d · ↑↓ pgup pgdn scroll", m.helpTop+1, m.helpTop+room, len(lines))
	return strings.Join(append(shown, m.ctx.Styles.Label.Render(where)), "\n")
}

// helpColumnRows lays the groups of keys out as columns, starting a new row
// of columns where the next would pass the width: bubbles/help cuts the
// columns that do not fit to "…", and on the Jobs pane at 120 columns those
// held trigger, stop and every application key.
func (m *Model) helpColumnRows(groups [][]key.Binding) string {
	unbounded := m.help
	unbounded.SetWidth(0)
	var rows []string
	var row [][]key.Binding
	for _, group := range groups {
		if len(row) > 0 && lipgloss.Width(unbounded.FullHelpView(append(row, group))) > m.width {
			rows = append(rows, unbounded.FullHelpView(row))
			row = nil
		}
		row = append(row, group)
	}
	if len(row) > 0 {
		rows = append(rows, unbounded.FullHelpView(row))
	}
	return strings.Join(rows, "\n\n")
}

// overlay draws box centred on base, with a blank column either side
// where there is room, so that no character of what is under it touches
// its frame.
func overlay(base, box string, w, h int) string {
	if lipgloss.Width(box)+2 <= w {
		box = lipgloss.NewStyle().Padding(0, 1).Render(box)
	}
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	box = common.Fit(box, w, h)
	layers := lipgloss.NewCompositor(
		lipgloss.NewLayer(base),
		lipgloss.NewLayer(box).X(max(0, (w-bw)/2)).Y(max(0, (h-bh)/2)).Z(1),
	)
	return lipgloss.NewCanvas(w, h).Compose(layers).Render()
}

// hostOf strips the scheme from a server URL for the header.
func hostOf(server string) string {
	if _, rest, ok := strings.Cut(server, "://"); ok {
		return strings.TrimSuffix(rest, "/")
	}
	return server
}
