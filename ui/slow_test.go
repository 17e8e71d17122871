package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// serverDelay is how long the slow server takes to answer each request.
const serverDelay = 5 * time.Second

// delayed wraps the real handler so that every answer takes serverDelay.
func delayed(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(serverDelay):
			next.ServeHTTP(w, r)
		case <-r.Context().Done():
		}
	})
}

// TestSlowServerLeavesConsoleResponsive: while every request takes five
// seconds, keys keep working at once, the status line says what is being
// waited for, the header calls the server slow, and the tree arrives when
// the answer does.
func TestSlowServerLeavesConsoleResponsive(t *testing.T) {
	c := startConsole(t, consoleOpts{wrap: delayed})
	started := time.Now()

	// Each step must be on screen well before the server answers anything.
	steps := []struct {
		keys []string
		want string
	}{
		{nil, "reading /…"},
		{[]string{"?"}, "Keys — Folders"},
		{[]string{"esc", "2"}, "tested in ui/connections"},
		{[]string{":"}, ":cd PATH"},
		{[]string{"esc", "1", "r", "j", "k"}, "reading /…"},
	}
	const responsive = 2 * time.Second // generous for a busy machine; far below serverDelay
	for _, s := range steps {
		asked := time.Now()
		c.keys(s.keys...)
		screen := c.waitFor(s.want)
		if took := time.Since(asked); took > responsive {
			t.Errorf("keys %v took %s to show %q", s.keys, took, s.want)
		}
		if strings.Contains(screen, "Exports/") {
			t.Fatalf("the tree arrived before the slow server answered:\n%s", screen)
		}
	}
	if time.Since(started) >= serverDelay {
		t.Fatalf("the steps took %s, longer than the server's delay: the console waited for it", time.Since(started))
	}

	screen := c.waitFor("◌ slow")
	if !strings.Contains(screen, "reading /…") {
		t.Errorf("the status line does not say what is awaited:\n%s", screen)
	}
	c.waitFor("Exports/")
	if took := time.Since(started); took < serverDelay {
		t.Errorf("the tree came after %s, before the server's delay", took)
	}
}
