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
// open; then global keys, unless the active pane is typing in a field.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.ctx.Keys
	if msg.String() == "ctrl+c" {
		return m.requestQuit()
	}
	if m.tooSmall() {
		if key.Matches(msg, k.Quit) {
			return m.requestQuit()
		}
		return nil
	}
	if d := m.Dialog(); d != nil {
		next, cmd := d.Update(msg)
		m.dialogs = m.dialogs[:len(m.dialogs)-1]
		if next != nil {
			m.dialogs = append(m.dialogs, next)
		}
		return cmd
	}
	if m.cmdline.active {
		return m.cmdline.update(msg, m)
	}
	if m.help.ShowAll {
		switch {
		case key.Matches(msg, k.Help, k.Back):
			m.help.ShowAll = false
		case key.Matches(msg, k.Quit):
			return m.requestQuit()
		}
		return nil
	}
	if c, ok := m.panes[m.active].(common.InputCapturer); ok && c.CapturingInput() {
		return m.updateActive(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.help.ShowAll = true
		return nil
	case key.Matches(msg, k.Command):
		return m.cmdline.open()
	case key.Matches(msg, k.Log):
		m.openDialog(newLogDialog(m.ctx, &m.messages))
		return nil
	case key.Matches(msg, k.NextPane):
		m.focus((m.active + 1) % len(m.panes))
		return nil
	case key.Matches(msg, k.PrevPane):
		m.focus((m.active + len(m.panes) - 1) % len(m.panes))
		return nil
	case key.Matches(msg, m.paneKeys...):
		m.focus(slices.IndexFunc(m.paneKeys, func(b key.Binding) bool { return key.Matches(msg, b) }))
		return nil
	case key.Matches(msg, k.Back) && m.status.level == common.LevelError:
		// The status line says "esc dismiss": esc does that and nothing
		// more, so the pane behind (permissions, a filter) stays open.
		m.status.clear()
		return nil
	}
	if blocked, ok := k.BlockedWrite(msg.String()); ok && !m.matchesEnabledKey(msg) {
		return m.status.set(common.StatusMsg{Level: common.LevelError,
			Text: fmt.Sprintf("read-only session: %s is disabled", blocked.Help().Desc)})
	}
	return m.updateActive(msg)
}

// matchesEnabledKey reports whether the active pane lists an enabled binding
// for the key (space marks even when it cannot toggle).
func (m *Model) matchesEnabledKey(msg tea.KeyPressMsg) bool {
	for _, group := range m.panes[m.active].FullHelp() {
		if key.Matches(msg, group...) {
			return true
		}
	}
	return false
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

// ShortHelp implements help.KeyMap: the active pane's keys (or the top
// dialog's), then the global ones.
func (m *Model) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	if d := m.Dialog(); d != nil {
		return d.ShortHelp()
	}
	if m.cmdline.active {
		return m.cmdline.ShortHelp()
	}
	out := append([]key.Binding{k.Help}, m.panes[m.active].ShortHelp()...)
	return append(out, k.Command, k.Quit)
}

// FullHelp implements help.KeyMap: the pane's groups, then the application
// group, then (read-only sessions) the disabled write keys.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.ctx.Keys
	groups := append([][]key.Binding{}, m.panes[m.active].FullHelp()...)
	app := append(append([]key.Binding{k.NextPane}, m.paneKeys...), k.Command, k.Log, k.Help, k.Back, k.Quit)
	groups = append(groups, withoutListed(groups, app...))
	// A disabled write key whose key the pane uses for something allowed
	// (space marks) is left out: "space toggle ✗" beside "space mark"
	// would say space does nothing.
	if ro := withoutListed(groups, k.ReadOnlyHelp()...); ro != nil {
		groups = append(groups, ro)
	}
	return groups
}

// withoutListed drops the bindings one of whose keys an enabled binding of
// the groups already uses (a pane that lists esc itself), so help names
// each key once.
func withoutListed(groups [][]key.Binding, bindings ...key.Binding) []key.Binding {
	listed := map[string]bool{}
	for _, group := range groups {
		for _, b := range group {
			if !b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				listed[k] = true
			}
		}
	}
	var out []key.Binding
	for _, b := range bindings {
		if !slices.ContainsFunc(b.Keys(), func(k string) bool { return listed[k] }) {
			out = append(out, b)
		}
	}
	return out
}
