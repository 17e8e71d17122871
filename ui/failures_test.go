package ui

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// Every pane reports a failure one way (common.Fail): the status line says
// it in plain words (common.Explain) and the header's health reads it. The
// server is gone, so each pane's read fails as "does not answer" and the
// header turns from "connecting" to "down".
func TestFailuresReachTheStatusLineExplained(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	const orders = "/Data/ImportJobs/Orders.imp"
	tests := []struct {
		name    string
		index   int
		pane    func(*common.Context) common.Pane
		command string // typed at `:` once the console runs; empty when its first read fails
		says    string
	}{
		{"folders", common.PaneFolders, func(ctx *common.Context) common.Pane { return folders.New(ctx) },
			"", "reading the root folder: the server does not answer"},
		{"connections", common.PaneConnections, func(ctx *common.Context) common.Pane { return connections.New(ctx) },
			"", "reading the connections: the server does not answer"},
		{"jobs, from its result", common.PaneJobs, func(ctx *common.Context) common.Pane { return jobs.New(ctx) },
			"trigger " + orders, "trigger " + orders + ": the server does not answer"},
		{"jobs, from inside a task", common.PaneJobs, func(ctx *common.Context) common.Pane { return jobs.New(ctx) },
			"history " + orders, "history of " + orders + ": the server does not answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := common.NewContext(api.New(gone.URL, "admin", "admin"), "http://dap.test", "admin", "", false)
			panes := []common.Pane{
				uitest.NewStub(ctx, "Folders", "not under test"),
				uitest.NewStub(ctx, "Connections", "not under test"),
				uitest.NewStub(ctx, "Jobs", "not under test"),
			}
			panes[tt.index] = tt.pane(ctx)
			m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, panes...)})
			tm := teatest.NewTestModel(t, probe{m}, teatest.WithInitialTermSize(160, 20),
				teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
			t.Cleanup(func() {
				tm.Quit()
				tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
			})
			c := &console{t: t, tm: tm}
			if tt.command != "" {
				c.keys(":")
				c.typeText(tt.command)
				c.keys("enter")
			}
			screen := c.waitFor(tt.says)
			if header := strings.SplitN(screen, "\n", 2)[0]; !strings.Contains(header, ctx.Styles.Symbols.Unhealthy) {
				t.Errorf("the header does not say the server is down:\n%s", screen)
			}
		})
	}
}

// A failure a task reports before it has a result of its own (common.Failed)
// feeds the header's health as a result does; a failure that is not the
// server's (a bad argument) leaves it as it was.
func TestFailedFeedsTheHealth(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	_, unreachable := api.New(gone.URL, "admin", "admin").RootFolder(t.Context())
	tests := []struct {
		name string
		err  error
		want healthState
	}{
		{"no answer", unreachable, healthDown},
		{"a refusal is an answer", &api.Error{Op: "GET /x", Status: http.StatusForbidden}, healthUp},
		{"not the server's", errors.New("want a duration"), healthUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := common.NewContext(api.New(gone.URL, "admin", "admin"), "http://dap.test", "admin", "", false)
			m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, uitest.NewStub(ctx, "Folders", ""))})
			m.Update(common.TaskDoneMsg{ID: 1, Msg: common.Failed("reading", tt.err)})
			if m.health.state != tt.want {
				t.Errorf("health %d, want %d", m.health.state, tt.want)
			}
			if want := common.Explain("reading", tt.err); m.Status() != want {
				t.Errorf("status %q, want %q", m.Status(), want)
			}
		})
	}
}
