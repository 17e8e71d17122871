package main

import (
	"errors"
	"strings"
	"testing"
)

// Without a terminal the console says so in plain words, not Bubble Tea's
// "bubbletea: could not open TTY: …" (bug 10 of issue 30); other errors
// pass as they are.
func TestWithoutTTY(t *testing.T) {
	raw := errors.New("bubbletea: could not open TTY: open /dev/tty: no such device or address")
	if got := withoutTTY(raw).Error(); strings.Contains(got, "bubbletea") || !strings.Contains(got, "needs a terminal") {
		t.Errorf("no TTY says %q", got)
	}
	other := errors.New("something else")
	if withoutTTY(other) != other || withoutTTY(nil) != nil {
		t.Error("other errors changed")
	}
}
