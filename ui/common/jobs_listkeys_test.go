package common

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestListStep(t *testing.T) {
	k := DefaultKeyMap()
	tests := []struct {
		key    tea.KeyPressMsg
		delta  int
		acting bool
	}{
		{tea.KeyPressMsg{Code: tea.KeyUp}, -1, true},
		{tea.KeyPressMsg{Code: 'j', Text: "j"}, 1, true},
		{tea.KeyPressMsg{Code: tea.KeyPgUp}, -10, true},
		{tea.KeyPressMsg{Code: tea.KeyPgDown}, 10, true},
		{tea.KeyPressMsg{Code: 'g', Text: "g"}, -250, true},
		{tea.KeyPressMsg{Code: tea.KeyEnd}, 250, true},
		{tea.KeyPressMsg{Code: 'x', Text: "x"}, 0, false},
	}
	for _, tt := range tests {
		if delta, ok := k.ListStep(tt.key, 10, 250); delta != tt.delta || ok != tt.acting {
			t.Errorf("%s moves %d (%v), want %d (%v)", tt.key, delta, ok, tt.delta, tt.acting)
		}
	}
}

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
			f := NewFilterField("filter")
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
