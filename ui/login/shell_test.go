package login

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/ui"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

type shell struct {
	tm     *teatest.TestModel
	ctx    *common.Context
	server string
	cfg    Config
}

// startShell runs the console on the test platform, as console.go wires it:
// the login screen for a first start and for 401s, and :profile.
func startShell(t *testing.T, loggedIn bool, profile string) *shell {
	t.Helper()
	var ctx *common.Context
	if loggedIn {
		ctx = common.NewContext(api.New(platformURL, "admin", testPassword), platformURL, "admin", profile, false)
	} else {
		ctx = common.NewContext(nil, "", "", "", false)
	}
	return startShellOn(t, ctx, uitest.NewStub(ctx, "Folders", ""))
}

// startShellOn is startShell with the context and the panes given.
func startShellOn(t *testing.T, ctx *common.Context, panes ...common.Pane) *shell {
	t.Helper()
	sh := &shell{ctx: ctx, server: platformURL, cfg: Config{
		ProfilesPath: filepath.Join(t.TempDir(), "profiles.json"),
		Verify:       credentials.CheckWithServer,
	}}
	entries := make([]ui.PaneEntry, len(panes))
	for i, p := range panes {
		entries[i] = ui.PaneEntry{Pane: p}
	}
	m := ui.New(ui.Options{
		Context:      sh.ctx,
		Panes:        entries,
		HeartbeatOff: true,
		Login: func(ctx *common.Context) common.Dialog {
			return New(ctx, sh.cfg, "")
		},
		Commands: []common.Command{ProfileCommand(sh.ctx, sh.cfg, func(string) string { return "" })},
	})
	sh.tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = sh.tm.Quit() })
	return sh
}

func (sh *shell) waitFor(t *testing.T, text string) {
	t.Helper()
	teatest.WaitFor(t, sh.tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func (sh *shell) press(code rune) { sh.tm.Send(tea.KeyPressMsg{Code: code}) }

func TestShellFirstStartShowsTheLoginScreen(t *testing.T) {
	keyring.MockInit()
	sh := startShell(t, false, "")
	sh.waitFor(t, "not logged in") // the header behind the login screen, not "@ ○ connecting"
	sh.tm.Type(sh.server)
	sh.press(tea.KeyTab)
	sh.tm.Type("admin")
	sh.press(tea.KeyTab)
	sh.tm.Type(testPassword)
	sh.press(tea.KeyEnter)
	sh.waitFor(t, "(default)") // the header names the new profile

	if got, err := credentials.LookupPassword(strings.TrimRight(sh.server, "/"), "admin"); err != nil || got != testPassword {
		t.Fatalf("the login screen did not store the password: %v", err)
	}
}

func TestShellUnauthorizedBringsTheLoginScreenBack(t *testing.T) {
	keyring.MockInit()
	sh := startShell(t, true, "local")
	sh.waitFor(t, "admin@")
	refused := &api.Error{Op: "GET /api/filesystem/root-folder", Status: 401}
	sh.tm.Send(common.UnauthorizedMsg{Err: refused})
	sh.tm.Send(common.UnauthorizedMsg{Err: refused}) // a burst opens one screen
	sh.waitFor(t, "Log in")
	sh.tm.Type(testPassword) // server and user are filled: the focus is on the password
	sh.press(tea.KeyEnter)
	sh.waitFor(t, "logged in as admin@")

	profiles, err := credentials.LoadProfiles(sh.cfg.ProfilesPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := profiles.Get("local"); !ok {
		t.Fatalf("the re-login did not save profile local: %v", profiles.Names())
	}
}

// TestShellPasswordChangedOnTheServer: the console runs with a password
// the server no longer takes; the folder read's real 401 brings the login
// screen, and the right password brings the tree.
func TestShellPasswordChangedOnTheServer(t *testing.T) {
	keyring.MockInit()
	ctx := common.NewContext(api.New(platformURL, "admin", "changed-"+testPassword), platformURL, "admin", "local", false)
	sh := startShellOn(t, ctx, folders.New(ctx))
	sh.waitFor(t, "Log in")
	sh.tm.Type(testPassword)
	sh.press(tea.KeyEnter)
	sh.waitFor(t, "· /") // the tree (an empty root on this server), read with the new password
}

func TestShellProfileSwitch(t *testing.T) {
	keyring.MockInit()
	sh := startShell(t, true, "local")
	server := strings.TrimRight(sh.server, "/")
	profiles, err := credentials.LoadProfiles(sh.cfg.ProfilesPath)
	if err != nil {
		t.Fatal(err)
	}
	profiles.Put(credentials.Profile{Name: "local", Server: server, User: "admin"})
	profiles.Put(credentials.Profile{Name: "audit", Server: server, User: "admin", ReadOnly: true})
	if err := profiles.Save(); err != nil {
		t.Fatal(err)
	}
	if err := credentials.StorePassword(server, "admin", testPassword); err != nil {
		t.Fatal(err)
	}
	sh.waitFor(t, "(local)")
	sh.tm.Type(":profile audit")
	sh.press(tea.KeyEnter)
	sh.waitFor(t, "read-only") // the header marks the read-only profile

	if err := sh.tm.Quit(); err != nil {
		t.Fatal(err)
	}
	sh.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	// The views' write bindings read ctx.ReadOnly (common.Binding.Why).
	if !sh.ctx.ReadOnly {
		t.Fatal("switching to a read-only profile left write keys on")
	}
}
