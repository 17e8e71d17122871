package jobs

import (
	"testing"
	"time"
)

// TestPollIntervalHasAFloor is the reproduction: ":interval 1ms" was
// taken (only the + key stopped at 500 ms), so any SSH user could make the
// console hammer the platform. The command refuses what is under the
// floor, and the pane never polls faster, whatever sets it.
func TestPollIntervalHasAFloor(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"5s", 5 * time.Second, true},
		{"500ms", 500 * time.Millisecond, true},
		{"0.5", 500 * time.Millisecond, true},
		{"0", 0, true},
		{"1ms", 0, false},
		{"0.001", 0, false},
		{"499ms", 0, false},
		{"-1s", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, err := parseInterval(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("parseInterval(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	p := newTestPane(nil, 80, 20, time.Now)
	p.setEvery(time.Millisecond)
	if p.polling.every != 500*time.Millisecond {
		t.Errorf("setEvery(1ms) polls every %v, want the floor of 500ms", p.polling.every)
	}
}
