package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// wheel scrolls as the arrow keys do, wherever they would go.
func (m *Model) wheel(msg tea.MouseWheelMsg) tea.Cmd {
	switch msg.Button {
	case tea.MouseWheelUp:
		return m.handleKey(tea.KeyPressMsg{Code: tea.KeyUp})
	case tea.MouseWheelDown:
		return m.handleKey(tea.KeyPressMsg{Code: tea.KeyDown})
	}
	return nil
}

// click focuses the pane whose tab in the header was clicked; while a
// dialog is open it waits for its answer, so clicks do nothing.
func (m *Model) click(msg tea.MouseClickMsg) tea.Cmd {
	if msg.Button != tea.MouseLeft || msg.Y != 0 || m.tooSmall() || m.Dialog() != nil {
		return nil
	}
	if i := m.tabAt(msg.X); i >= 0 {
		m.help.ShowAll = false
		m.switchTo(i)
	}
	return nil
}

// tabAt returns the pane whose tab covers column x of the header, -1 for
// none. It reads the header as drawn, which drops the app name when narrow.
func (m *Model) tabAt(x int) int {
	header := ansi.Strip(m.headerView())
	for i, p := range m.panes {
		label := fmt.Sprintf("%d %s", i+1, p.Title())
		at := strings.Index(header, label)
		if at < 0 {
			continue
		}
		start := ansi.StringWidth(header[:at]) - 1 // the tab's padding
		if x >= start && x <= start+ansi.StringWidth(label)+1 {
			return i
		}
	}
	return -1
}
