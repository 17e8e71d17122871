package uitest

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// IsTimer knows a timer by the function that made it; a new release of
// Bubble Tea or Bubbles that renames one shows here, not as tests that
// wait on real clocks again.
func TestIsTimerKnowsTheTimers(t *testing.T) {
	tick := func(time.Time) tea.Msg { return nil }
	input := textinput.New()
	tests := []struct {
		name  string
		cmd   tea.Cmd
		timer bool
	}{
		{"tea.Tick", tea.Tick(time.Hour, tick), true},
		{"tea.Every", tea.Every(time.Hour, tick), true},
		{"a text input's cursor blink", input.Focus(), true},
		{"a command of the console's own", func() tea.Msg { return nil }, false},
		{"tea.Quit", tea.Quit, false},
	}
	for _, tt := range tests {
		if got := IsTimer(tt.cmd); got != tt.timer {
			t.Errorf("IsTimer(%s) = %v, want %v", tt.name, got, tt.timer)
		}
	}
}

// Messages opens batches and sequences and leaves timers out without
// running them.
func TestMessagesLeaveTimersOut(t *testing.T) {
	type note struct{ n int }
	send := func(n int) tea.Cmd { return func() tea.Msg { return note{n} } }
	cmd := tea.Batch(send(1), tea.Tick(time.Hour, func(time.Time) tea.Msg { return note{0} }),
		tea.Sequence(send(2), send(3)))
	got := Messages(cmd)
	want := []tea.Msg{note{1}, note{2}, note{3}}
	if len(got) != len(want) {
		t.Fatalf("messages %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d = %v, want %v", i, got[i], want[i])
		}
	}
}
