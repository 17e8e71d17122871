package common

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestListBindings(t *testing.T) {
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
		moved := 0
		bs := ListBindings(k, 10, 250, 1, 0, func(delta int) tea.Cmd { moved = delta; return nil })
		if _, ok := bs.Handle(&Context{}, tt.key); moved != tt.delta || ok != tt.acting {
			t.Errorf("%s moves %d (%v), want %d (%v)", tt.key, moved, ok, tt.delta, tt.acting)
		}
	}
}

// One list decides what a key does, what the hint bar and ? show and why
// a key is refused: a write key in a read-only session, a key a view
// disables (e over SSH).
func TestBindingsDecideKeysHintsAndHelp(t *testing.T) {
	k := DefaultKeyMap()
	ran := ""
	run := func(name string) func() tea.Cmd { return func() tea.Cmd { ran = name; return nil } }
	bs := Bindings{
		{Key: k.Move, Hint: 1, Column: NoHelp},
		{Key: k.Open, Help: "history", Run: run("open"), Hint: 2},
		{Key: k.Edit, Run: run("edit"), Write: true, Disabled: "not over SSH", Hint: 3, Column: 1},
		// The refusal names the key in its short words, as the hint bar does.
		{Key: k.Delete, Help: "delete the run's data (asks first)", Short: "delete", Run: run("delete"), Write: true, Hint: 4, Column: 1},
		{Key: k.Refresh, Run: run("refresh"), Column: 1},
	}
	tests := []struct {
		name     string
		readOnly bool
		press    string
		ran      string
		refusal  string
		hints    []string
		disabled []string
	}{
		{"a key runs its handler", false, "enter", "open", "", []string{"↑↓", "enter/→/l", "d"}, []string{"e"}},
		{"a disabled key says why", false, "e", "", "edit: not over SSH", []string{"↑↓", "enter/→/l", "d"}, []string{"e"}},
		{"read-only refuses a write key", true, "d", "", "delete: read-only session", []string{"↑↓", "enter/→/l"}, []string{"e", "d"}},
		{"read-only leaves the rest", true, "r", "refresh", "", []string{"↑↓", "enter/→/l"}, []string{"e", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran = ""
			ctx := &Context{ReadOnly: tt.readOnly}
			press := tea.KeyPressMsg{Code: []rune(tt.press)[0], Text: tt.press}
			if tt.press == "enter" {
				press = tea.KeyPressMsg{Code: tea.KeyEnter}
			}
			cmd, ok := bs.Handle(ctx, press)
			if !ok || ran != tt.ran {
				t.Errorf("%s ran %q (taken %v), want %q", tt.press, ran, ok, tt.ran)
			}
			refusal := ""
			if cmd != nil {
				refusal = cmd().(StatusMsg).Text
			}
			if refusal != tt.refusal {
				t.Errorf("refusal %q, want %q", refusal, tt.refusal)
			}
			if got := helpKeys(bs.Hints(ctx)); !slices.Equal(got, tt.hints) {
				t.Errorf("hints %v, want %v", got, tt.hints)
			}
			columns, disabled, reasons := bs.Help(ctx)
			if got := helpKeys(disabled); !slices.Equal(got, tt.disabled) {
				t.Errorf("? marks %v disabled, want %v", got, tt.disabled)
			}
			for _, c := range columns {
				for _, b := range c {
					if slices.Contains(tt.disabled, b.Help().Key) || strings.HasSuffix(b.Help().Desc, "✗") {
						t.Errorf("? offers the disabled %q", b.Help().Key)
					}
				}
			}
			if len(reasons) == 0 {
				t.Error("? gives no reason for the disabled keys")
			}
		})
	}
}

func helpKeys(bs []key.Binding) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Help().Key
	}
	return out
}
