package ui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// handleKey routes a key press: ctrl+c always reaches quit; then the top
// dialog, the command line and the help screen each take every key while
// open; then the root's own bindings, unless the active pane is typing in
// a field; then the pane.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.requestQuit()
	}
	if cmd, taken := m.modalKey(msg); taken {
		return cmd
	}
	if c, ok := m.panes[m.active].(common.InputCapturer); ok && c.CapturingInput() {
		return m.updateActive(msg)
	}
	if cmd, ok := m.bindings().Handle(m.ctx, msg); ok {
		return cmd
	}
	return m.updateActive(msg)
}

// modalKey gives the key to what takes every key while open: the
// too-small screen (q only), the top dialog, the command line, help.
func (m *Model) modalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.ctx.Keys
	switch {
	case m.tooSmall():
		if key.Matches(msg, k.Quit) {
			return m.requestQuit(), true
		}
		return nil, true
	case m.Dialog() != nil:
		next, cmd := m.Dialog().Update(msg)
		m.dialogs = m.dialogs[:len(m.dialogs)-1]
		if next != nil {
			m.dialogs = append(m.dialogs, next)
		}
		return cmd, true
	case m.cmdline.active:
		return m.cmdline.update(msg, m), true
	case m.help.ShowAll:
		return m.helpKey(msg), true
	}
	return nil, false
}

// helpKey handles a key while `?` shows: ? and esc close it, q quits, the
// navigation keys scroll it where it is taller than the terminal.
func (m *Model) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	switch {
	case key.Matches(msg, k.Help, k.Back):
		m.help.ShowAll = false
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	}
	_, bodyH := m.bodySize()
	common.ListBindings(k, bodyH-1, 1<<20, 0, 0, func(delta int) tea.Cmd {
		m.helpTop = max(0, m.helpTop+delta) // fullHelpView keeps it in range
		return nil
	}).Handle(m.ctx, msg)
	return nil
}

// showHelp opens `?` at its top.
func (m *Model) showHelp() {
	m.help.ShowAll, m.helpTop = true, 0
}

// appColumn is the column of the root's keys in `?`, after the panes'.
const appColumn = 100

// bindings are the root's own keys, which every pane shares: the pane
// switches, `:`, the message log, help and quit; esc dismisses an error
// in the status line (and does only that, so the pane behind — its
// permissions, a filter — stays open).
func (m *Model) bindings() common.Bindings {
	k := m.ctx.Keys
	focus := func(i int) func() tea.Cmd { return func() tea.Cmd { m.switchTo(i); return nil } }
	bs := common.Bindings{
		{Key: k.NextPane, Run: func() tea.Cmd { return focus((m.active + 1) % len(m.panes))() }, Column: appColumn},
		{Key: k.PrevPane, Run: func() tea.Cmd { return focus((m.active + len(m.panes) - 1) % len(m.panes))() }, Column: common.NoHelp},
	}
	for i, b := range m.paneKeys {
		bs = append(bs, common.Binding{Key: b, Run: focus(i), Column: appColumn})
	}
	bs = append(bs,
		common.Binding{Key: k.Command, Run: m.cmdline.open, Column: appColumn},
		common.Binding{Key: k.Log, Run: func() tea.Cmd { m.openDialog(newLogDialog(m.ctx, &m.messages)); return nil }, Column: appColumn},
		common.Binding{Key: k.Help, Run: func() tea.Cmd { m.showHelp(); return nil }, Column: appColumn})
	if m.status.level == common.LevelError && m.status.text != "" {
		bs = append(bs, common.Binding{Key: k.Back, Help: "dismiss", Run: func() tea.Cmd { m.status.clear(); return nil }, Column: common.NoHelp})
	}
	return append(bs, common.Binding{Key: k.Quit, Run: m.requestQuit, Column: appColumn})
}

func (m *Model) updateActive(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.panes[m.active], cmd = m.panes[m.active].Update(msg)
	return cmd
}

// requestQuit quits at once, unless a transfer runs: then it asks, with a
// confirmation that cannot be missed; ctrl+c pressed on that question quits.
func (m *Model) requestQuit() tea.Cmd {
	labels := m.tasks.transfers()
	if len(labels) == 0 || (m.quitDialog != nil && m.Dialog() == m.quitDialog) {
		return m.quit()
	}
	m.quitDialog = dialog.NewConfirm(m.ctx, "Quit while a transfer runs?",
		fmt.Sprintf("%s is still running. Quitting cancels it: a backup's incomplete file is removed, a restore changes nothing.", labels[0]),
		"quit", true, quitConfirmedMsg{})
	m.openDialog(m.quitDialog)
	return nil
}

// ShortHelp implements help.KeyMap: the top dialog's keys, the command
// line's, or the hint bar: help, the pane's hints, the command line, quit.
func (m *Model) ShortHelp() []key.Binding {
	if d := m.Dialog(); d != nil {
		return d.ShortHelp()
	}
	if m.cmdline.active {
		return m.cmdline.ShortHelp()
	}
	k := m.ctx.Keys
	hints := append([]key.Binding{k.Help}, m.panes[m.active].Bindings().Hints(m.ctx)...)
	return append(hints, k.Command, k.Quit)
}

// allBindings are the active pane's bindings, then the root's whose keys
// the pane does not take for itself.
func (m *Model) allBindings() common.Bindings {
	pane := m.panes[m.active].Bindings()
	out := append(common.Bindings{}, pane...)
	for _, b := range m.bindings() {
		if !slices.ContainsFunc(b.Key.Keys(), func(k string) bool { return paneTakes(pane, k) }) {
			out = append(out, b)
		}
	}
	return out
}

// paneTakes reports whether a pane's binding with a handler has the key.
func paneTakes(pane common.Bindings, k string) bool {
	return slices.ContainsFunc(pane, func(b common.Binding) bool { return b.Run != nil && slices.Contains(b.Key.Keys(), k) })
}

// FullHelp implements help.KeyMap: the columns of `?`, the pane's, then
// the root's, then the keys disabled here, marked ✗.
func (m *Model) FullHelp() [][]key.Binding {
	columns, disabled, _ := m.allBindings().Help(m.ctx)
	if disabled != nil {
		columns = append(columns, disabled)
	}
	return columns
}
