package ui

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
	"github.com/dapconsole/dapconsole/ui/login"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// Every pane reports a failure one way (common.Fail): the status line says
// it in plain words (common.Explain) and the header's health reads it. The
// server is gone, so each pane's read fails as "does not answer" and the
// header turns from "connecting" to "down"; a server that refuses the
// password turns it to "login"; a failure that is not the server's (a
// profile that does not exist) leaves it alone.
func TestFailuresReachTheStatusLineExplained(t *testing.T) {
	gone := uitest.GoneURL()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer refusing.Close()
	const orders = "/Data/ImportJobs/Orders.imp"
	header := map[healthState]func(theme.Symbols) string{
		healthDown:         func(s theme.Symbols) string { return s.Unhealthy },
		healthUnauthorized: func(s theme.Symbols) string { return s.Error + " login" },
		healthUnknown:      func(theme.Symbols) string { return "○ connecting" },
	}
	tests := []struct {
		name    string
		server  string
		id      common.PaneID                     // where pane goes
		pane    func(*common.Context) common.Pane // nil: stubs only
		command string                            // typed at `:` once the console runs; empty when its first read fails
		says    string
		health  healthState
	}{
		{"folders", gone, common.FoldersPane, func(ctx *common.Context) common.Pane { return folders.New(ctx) },
			"", "reading the root folder: the server does not answer", healthDown},
		{"connections", gone, common.ConnectionsPane, func(ctx *common.Context) common.Pane { return connections.New(ctx) },
			"", "reading the connections: the server does not answer", healthDown},
		{"jobs, from its result", gone, common.JobsPane, func(ctx *common.Context) common.Pane { return jobs.New(ctx) },
			"trigger " + orders, "trigger " + orders + ": the server does not answer", healthDown},
		{"jobs, from inside a task", gone, common.JobsPane, func(ctx *common.Context) common.Pane { return jobs.New(ctx) },
			"history " + orders, "history of " + orders + ": the server does not answer", healthDown},
		{"root, a 401 without a login screen", refusing.URL, common.FoldersPane, func(ctx *common.Context) common.Pane { return folders.New(ctx) },
			"", "the server refused the credentials of admin: ", healthUnauthorized},
		{"login's :profile, not the server's failure", gone, common.FoldersPane, nil,
			"profile nosuch", `switching to profile nosuch: profile "nosuch" not found`, healthUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := common.NewContext(api.New(tt.server, "admin", "admin"), "http://dap.test", "admin", "", false)
			panes := ownPanes(ctx,
				uitest.NewStub(ctx, "Folders", "not under test"),
				uitest.NewStub(ctx, "Connections", "not under test"),
				uitest.NewStub(ctx, "Jobs", "not under test"),
			)
			if at := slices.IndexFunc(panes, func(e PaneEntry) bool { return e.ID == tt.id }); tt.pane != nil {
				panes[at].Pane = tt.pane(ctx)
			}
			cfg := login.Config{ProfilesPath: filepath.Join(t.TempDir(), "profiles.json"), Verify: credentials.CheckWithServer}
			m := New(Options{Context: ctx, HeartbeatOff: true, Panes: panes,
				Commands: []common.Command{login.ProfileCommand(ctx, cfg, func(string) string { return "" })}})
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
			want := header[tt.health](ctx.Styles.Symbols)
			if top := strings.SplitN(screen, "\n", 2)[0]; !strings.Contains(top, want) {
				t.Errorf("the header does not say %q:\n%s", want, screen)
			}
		})
	}
}

// A failure a task reports before it has a result of its own (common.Failed)
// feeds the header's health as a result does; a failure that is not the
// server's (a bad argument) leaves it as it was.
func TestFailedFeedsTheHealth(t *testing.T) {
	gone := uitest.GoneURL()
	_, unreachable := api.New(gone, "admin", "admin").RootFolder(t.Context())
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
			ctx := common.NewContext(api.New(gone, "admin", "admin"), "http://dap.test", "admin", "", false)
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
