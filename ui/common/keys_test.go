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
