package ui

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// held wraps the real handler so that no request is answered before
// release is closed (or the client gives up).
func held(release <-chan struct{}) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
				next.ServeHTTP(w, r)
			case <-r.Context().Done():
			}
		})
	}
}

// TestSlowServerLeavesConsoleResponsive: while the server answers nothing,
// keys keep working, the status line says what is being waited for, the
// header calls the server slow once a task has run longer than slowAfter
// on the console's clock, and the tree arrives when the answer does.
func TestSlowServerLeavesConsoleResponsive(t *testing.T) {
	release := make(chan struct{})
	var answer sync.Once
	var late atomic.Int64 // how far the console's clock is past fixedNow
	c := startConsole(t, consoleOpts{wrap: held(release),
		now: func() time.Time { return fixedNow.Add(time.Duration(late.Load())) }})
	t.Cleanup(func() { answer.Do(func() { close(release) }) })

	// Each step shows while the server has answered nothing: the console
	// does not wait for it.
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
	for _, s := range steps {
		c.keys(s.keys...)
		screen := c.waitFor(s.want)
		if strings.Contains(screen, "Exports/") {
			t.Fatalf("the tree arrived before the slow server answered:\n%s", screen)
		}
	}
	if screen := c.screen(); strings.Contains(screen, "◌ slow") {
		t.Errorf("the server is called slow before slowAfter has passed:\n%s", screen)
	}

	late.Store(int64(slowAfter + time.Second))
	screen := c.waitFor("◌ slow")
	if !strings.Contains(screen, "reading /…") {
		t.Errorf("the status line does not say what is awaited:\n%s", screen)
	}
	answer.Do(func() { close(release) })
	c.waitFor("Exports/")
}
