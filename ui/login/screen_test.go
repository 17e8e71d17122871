package login

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// testPassword is admin's password on the test platform; its prefix is what
// the credentials leak scan looks for in golden files.
const testPassword = "dap-test-pw-ui"

// platformURL is the embedded platform every test of the package talks to:
// one user, admin, with testPassword. One for all, since creating a real
// account costs a bcrypt hash; the tests only read from it.
var platformURL string

func TestMain(m *testing.M) {
	os.Exit(runWithPlatform(m))
}

func runWithPlatform(m *testing.M) int {
	dir, err := os.MkdirTemp("", "dapconsole-login-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: dir, AdminPassword: testPassword}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	platformURL = ts.URL
	return m.Run()
}

// newContext is a console context without colour, so views compare as text.
func newContext(client *api.Client, server, user, profile string) *common.Context {
	ctx := common.NewContext(client, server, user, profile, false)
	ctx.Styles = theme.New(true, true)
	return ctx
}

func testConfig(t *testing.T) Config {
	return Config{
		ProfilesPath: filepath.Join(t.TempDir(), "dapconsole", "profiles.json"),
		Verify:       credentials.CheckWithServer,
	}
}

func TestScreenFirstStartLogsInAndStores(t *testing.T) {
	keyring.MockInit()
	url := platformURL
	cfg := testConfig(t)
	ctx := newContext(nil, "", "", "")
	s := New(ctx, cfg, "No profile yet.")
	s.SetSize(80, 20)
	if s.Focused() != "Server" {
		t.Fatalf("focus on %s, want Server at a first start", s.Focused())
	}

	d := uitest.Type(s, url+"/")
	d, _ = d.Update(uitest.Key("enter")) // enter walks down while there is no password
	d = uitest.Type(d, "admin")
	d, _ = d.Update(uitest.Key("enter"))
	if got := d.(*Screen).Focused(); got != "Password" {
		t.Fatalf("focus on %s, want Password", got)
	}
	d = uitest.Type(d, testPassword)
	if view := ansi.Strip(d.View()); strings.Contains(view, testPassword) || !strings.Contains(view, strings.Repeat("•", len(testPassword))) {
		t.Fatalf("the password is not masked:\n%s", view)
	}

	d, msgs := uitest.Submit(d)
	if d != nil {
		t.Fatalf("the screen stays open after an accepted login: %s", ansi.Strip(d.View()))
	}
	loggedIn := uitest.Only[common.LoggedInMsg](t, msgs)
	server := strings.TrimRight(url, "/")
	if loggedIn.Server != server || loggedIn.User != "admin" || loggedIn.Profile != "default" || loggedIn.ReadOnly || loggedIn.Client == nil {
		t.Fatalf("logged in %+v", loggedIn)
	}
	if _, err := loggedIn.Client.RootFolder(t.Context()); err != nil {
		t.Fatalf("the new client does not work: %v", err)
	}
	if got, err := credentials.LookupPassword(server, "admin"); err != nil || got != testPassword {
		t.Fatalf("keyring after login: %v", err)
	}
	profiles, err := credentials.LoadProfiles(cfg.ProfilesPath)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := profiles.DefaultProfile(); !ok || p.Server != server || p.User != "admin" {
		t.Fatalf("default profile %+v, %v", p, ok)
	}
	data, err := os.ReadFile(cfg.ProfilesPath)
	if err != nil || strings.Contains(string(data), testPassword) {
		t.Fatalf("profiles file holds the password (or is unreadable: %v)", err)
	}
}

func TestScreenRefusesAndSaysWhy(t *testing.T) {
	url := platformURL
	down := httptest.NewServer(nil)
	down.Close()

	tests := []struct {
		name, server, user, password string
		keyringErr                   error
		wantProblem                  string
		wantPasswordKept             bool
		wantFocus                    string
		wantNotice                   string
	}{
		{name: "wrong password", server: url, user: "admin", password: "dap-test-pw-wrong", wantProblem: "wrong user or password", wantFocus: "Password"},
		{name: "server down", server: down.URL, user: "admin", password: testPassword, wantProblem: "nothing answers at that server URL", wantPasswordKept: true, wantFocus: "Password"},
		{name: "not a URL", server: "dap.example.com", user: "admin", password: testPassword, wantProblem: "want a URL", wantPasswordKept: true, wantFocus: "Server"},
		{name: "no user", server: url, user: "", password: testPassword, wantProblem: "type a user name", wantPasswordKept: true, wantFocus: "User"},
		{name: "no keyring: logged in all the same, with the advice", server: url, user: "admin", password: testPassword,
			keyringErr: errors.New("dbus: couldn't determine address of session bus"), wantNotice: "set DAP_PASSWORD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keyring.MockInit()
			if tt.keyringErr != nil {
				keyring.MockInitWithError(tt.keyringErr)
			}
			s := ForProfile(newContext(nil, "", "", ""), testConfig(t),
				credentials.Profile{Server: tt.server, User: tt.user}, "")
			s.SetSize(80, 20)
			s.focusField(fieldPassword)
			d, msgs := uitest.Submit(uitest.Type(s, tt.password))
			if tt.wantNotice != "" {
				if d != nil {
					t.Fatalf("screen still open: %s", ansi.Strip(d.View()))
				}
				uitest.Only[common.LoggedInMsg](t, msgs)
				if status := uitest.Only[common.StatusMsg](t, msgs); !strings.Contains(status.Text, tt.wantNotice) || status.Level != common.LevelInfo {
					t.Fatalf("status %q (level %d), want the keyring advice as information", status.Text, status.Level)
				}
				return
			}
			if d == nil {
				t.Fatal("the screen closed on a failed login")
			}
			got := d.(*Screen)
			if view := ansi.Strip(got.View()); !strings.Contains(view, tt.wantProblem) {
				t.Errorf("view lacks %q:\n%s", tt.wantProblem, view)
			}
			if kept := got.inputs[fieldPassword].Value() != ""; kept != tt.wantPasswordKept {
				t.Errorf("password kept = %v, want %v", kept, tt.wantPasswordKept)
			}
			if got.Focused() != tt.wantFocus {
				t.Errorf("focus on %s, want %s", got.Focused(), tt.wantFocus)
			}
			if _, err := credentials.LookupPassword(strings.TrimRight(tt.server, "/"), tt.user); !errors.Is(err, credentials.ErrNoPassword) {
				t.Errorf("a failed login stored a password: %v", err)
			}
		})
	}
}

func TestScreenEscape(t *testing.T) {
	firstStart := New(newContext(nil, "", "", ""), testConfig(t), "")
	if d, _ := firstStart.Update(uitest.Key("esc")); d == nil {
		t.Error("esc closed the screen at a first start, with nothing behind it")
	}
	if keys := firstStart.ShortHelp(); slicesHasKey(keys, "esc") {
		t.Error("help offers esc where it does nothing")
	}
	afterRefusal := New(newContext(api.New("http://127.0.0.1:1", "admin", "x"), "http://127.0.0.1:1", "admin", "p"), testConfig(t), "")
	if d, _ := afterRefusal.Update(uitest.Key("esc")); d != nil {
		t.Error("esc should close the screen over a running console")
	}
}

func slicesHasKey(bindings []key.Binding, k string) bool {
	for _, b := range bindings {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name          string
		ctx           *common.Context
		reason        string
		typed         string
		problem       string
		width, height int
	}{
		{name: "FirstStart", ctx: newContext(nil, "", "", ""), reason: "No profile yet: log in to a server.", width: 80, height: 20},
		{name: "After401", ctx: newContext(api.New("http://127.0.0.1:8080", "admin", "x"), "http://127.0.0.1:8080", "admin", "local"),
			reason: "The server refused the password of admin.", typed: testPassword, width: 80, height: 20},
		{name: "WrongPassword", ctx: newContext(nil, "http://127.0.0.1:8080", "admin", "local"), problem: "wrong user or password", width: 80, height: 20},
		{name: "Tiny", ctx: newContext(nil, "https://a-very-long-host-name.example.com", "administrator", ""), reason: "No profile yet: log in to a server.", typed: testPassword, width: 30, height: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.ctx, testConfig(t), tt.reason)
			s.SetSize(tt.width, tt.height)
			uitest.Type(s, tt.typed)
			s.problem = tt.problem
			got := ansi.Strip(s.View())
			for i, line := range strings.Split(got, "\n") {
				if w := ansi.StringWidth(line); w > tt.width {
					t.Errorf("line %d is %d wide, more than %d", i, w, tt.width)
				}
			}
			if h := strings.Count(got, "\n") + 1; h > tt.height {
				t.Errorf("view is %d lines, more than %d", h, tt.height)
			}
			golden.RequireEqual(t, got) // -update rewrites testdata/TestGolden/*.golden
		})
	}
}
