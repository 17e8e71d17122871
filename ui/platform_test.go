package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// platformModel is a console against a platform started with cfg (demo
// data), wrapped by wrap, with its licence read.
func platformModel(t *testing.T, cfg server.Config, wrap func(next http.Handler) http.Handler) (*Model, []tea.Msg) {
	t.Helper()
	cfg.DemoData = true
	url := servertest.Start(t, cfg, wrap).URL
	ctx := common.NewContext(api.New(url, "admin", "admin"), "http://dap.test", "admin", "", false)
	ctx.Now = func() time.Time { return fixedNow }
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, uitest.NewStub(ctx, "Folders", ""))})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	return m, uitest.RunAsRoot(m, m.readPlatform(), func(msg tea.Msg) bool {
		_, mine := msg.(platformMsg)
		_, task := msg.(common.TaskDoneMsg)
		_, started := msg.(common.TaskStartedMsg)
		return !mine && !task && !started
	})
}

func TestLicenceEndingSoonWarns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ends    time.Time
		warning string
	}{
		{"in ten days", fixedNow.Add(9*24*time.Hour + time.Hour), "licence ends in 10 days"},
		{"tomorrow", fixedNow.Add(2 * time.Hour), "licence ends in 1 day"},
		{"ended", fixedNow.Add(-48 * time.Hour), "licence ended Nov 21"},
		{"in two months", fixedNow.Add(60 * 24 * time.Hour), ""},
		{"never", time.Time{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, said := platformModel(t, server.Config{LicenseExpires: tc.ends}, nil)
			header := strings.SplitN(uitest.Screen(m.Render()), "\n", 2)[0]
			if tc.warning == "" && strings.Contains(header, "licence") || tc.warning != "" && !strings.Contains(header, tc.warning) {
				t.Fatalf("header %q, want %q", header, tc.warning)
			}
			if len(said) > 0 {
				t.Fatalf("reading the licence said %#v", said)
			}
			m.Update(uitest.Key("?"))
			if !strings.Contains(m.Render(), "platform "+server.ProductVersion) {
				t.Fatalf("help does not name the release:\n%s", m.Render())
			}
		})
	}
}

// Against a platform without licence details the console shows and says
// nothing of it, however often it reads.
func TestNoLicenceEndpointSaysNothing(t *testing.T) {
	m, said := platformModel(t, server.Config{}, servertest.Lacking("/rest/license-details"))
	again := uitest.RunAsRoot(m, m.readPlatform(), func(msg tea.Msg) bool { _, ok := msg.(common.StatusMsg); return ok })
	if len(said)+len(again) > 0 || m.Status() != "" {
		t.Fatalf("said %#v %#v, status %q", said, again, m.Status())
	}
	m.Update(uitest.Key("?"))
	if strings.Contains(m.Render(), "platform ") || strings.Contains(m.Render(), "licence") {
		t.Fatalf("a release or a licence shown:\n%s", m.Render())
	}
}
