package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/ui/common"
)

// TestWatchAndCdFindFoldersMadeElsewhere: a folder another client made is
// reached by :cd without r, and appears at the next watch tick, the cursor
// staying where it was.
func TestWatchAndCdFindFoldersMadeElsewhere(t *testing.T) {
	var url string
	c := startConsole(t, consoleOpts{width: 100, height: 30, seed: func(_ *server.Server, u string) { url = u }})
	other := api.New(url, "admin", "admin")
	c.waitFor("Exports/")
	c.keys("j", "j", "j", "enter")
	c.waitFor("ImportJobs/")
	if _, err := other.CreateFolder(t.Context(), api.Path("/Data"), "Fresh"); err != nil {
		t.Fatal(err)
	}
	c.keys(":")
	c.typeText("cd /Data/Fresh")
	c.keys("enter")
	c.waitFor("at /Data/Fresh")
	if _, err := other.CreateFolder(t.Context(), api.Path("/Data"), "Later"); err != nil {
		t.Fatal(err)
	}
	c.tm.Send(common.WatchTickMsg{})
	screen := c.waitFor("Later/")
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, "›") && !strings.Contains(line, "Fresh/") {
			t.Errorf("the watch moved the cursor to %q", line)
		}
	}
}

func TestWatchCommand(t *testing.T) {
	tests := []struct {
		line, status string
		every        string
	}{
		{"watch 10s", "every 10s", "10s"},
		{"watch 45", "every 45s", "45s"},
		{"watch off", "watch off", "0s"},
		{"watch", "every 30s", "30s"},
		{"watch soon", "give an interval", "0s"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			m := newTestModel(t, false, 80, 24)
			typeKeys(t, m, ":")
			typeKeys(t, m, strings.Split(tt.line, "")...)
			typeKeys(t, m, "enter")
			if !strings.Contains(m.Status(), tt.status) || m.watch.every.String() != tt.every {
				t.Errorf("status %q, every %s; want %q, %s", m.Status(), m.watch.every, tt.status, tt.every)
			}
		})
	}
}

// TestWatchTickReachesThePanes: a tick of the current schedule is given to
// every pane as common.WatchTickMsg; one of an older schedule is dropped.
func TestWatchTickReachesThePanes(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	m.ctx.Client = api.New("http://127.0.0.1:1", "admin", "admin")
	seen := &watchCounter{Pane: m.panes[1]}
	m.panes[1] = seen
	m.setWatch(defaultWatch)
	stale := m.watch.ticks.Latest()
	m.setWatch(defaultWatch)
	m.Update(watchTimerMsg{ticket: stale})
	m.Update(watchTimerMsg{ticket: m.watch.ticks.Latest()})
	if seen.n != 1 {
		t.Errorf("the pane saw %d watch ticks, want 1", seen.n)
	}
}

type watchCounter struct {
	common.Pane
	n int
}

func (w *watchCounter) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	if _, ok := msg.(common.WatchTickMsg); ok {
		w.n++
	}
	return w, nil
}
