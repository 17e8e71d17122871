package common

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestFilterField(t *testing.T) {
	k := DefaultKeyMap()
	type step struct {
		key    tea.KeyPressMsg
		action FilterAction
		value  string
		active bool
	}
	letter := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }
	tests := []struct {
		name  string
		steps []step
	}{
		{"typing filters, j and k are letters", []step{{letter('j'), FilterEdited, "j", true}, {letter('k'), FilterEdited, "jk", true}}},
		{"enter keeps the filter", []step{{letter('o'), FilterEdited, "o", true}, {tea.KeyPressMsg{Code: tea.KeyEnter}, FilterKept, "o", false}}},
		{"esc clears it", []step{{letter('o'), FilterEdited, "o", true}, {tea.KeyPressMsg{Code: tea.KeyEscape}, FilterCleared, "", false}}},
		{"an arrow leaves with the filter kept", []step{{letter('o'), FilterEdited, "o", true}, {tea.KeyPressMsg{Code: tea.KeyDown}, FilterLeft, "o", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFilterField(NewContext(nil, "", "", "", false), "filter")
			f.Start()
			for i, s := range tt.steps {
				action, _ := f.Update(s.key, k)
				if action != s.action || f.Value() != s.value || f.Active() != s.active {
					t.Errorf("step %d: action %d value %q active %v, want %d %q %v", i, action, f.Value(), f.Active(), s.action, s.value, s.active)
				}
			}
		})
	}
}
