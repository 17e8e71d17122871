package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// A server that comes back clears every pane's error without r (issue 30:
// Jobs recovered by itself but Folders kept "✗ /" and the old error): the
// root tells every pane (common.ServerBackMsg) when the health turns from
// down to up, and the tree reads again what failed.
func TestServerBackClearsTheTreesError(t *testing.T) {
	var down atomic.Bool
	down.Store(true)
	away := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if down.Load() {
				// No answer at all, as from a server that is gone.
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close()
				}
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	c := startConsole(t, consoleOpts{wrap: away})
	c.waitFor("✗ down")
	down.Store(false)
	c.tm.Send(healthMsg{}) // the heartbeat's answer: up again
	screen := c.waitFor("Data/")
	if strings.Contains(screen, "does not answer") {
		t.Errorf("the error stayed after the server came back:\n%s", screen)
	}
}
