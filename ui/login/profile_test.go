package login

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func TestProfileCommand(t *testing.T) {
	url := platformURL
	server := strings.TrimRight(url, "/")
	profiles := []credentials.Profile{
		{Name: "local", Server: server, User: "admin"},
		{Name: "audit", Server: server, User: "admin", ReadOnly: true},
		{Name: "fresh", Server: server, User: "viewer"},
		{Name: "stale", Server: "http://127.0.0.1:9", User: "admin"}, // nothing answers there
	}
	tests := []struct {
		name       string
		args       string
		stored     map[string]string // user → keyring password on server
		keyringErr error
		env        string
		forceRO    bool
		check      func(t *testing.T, msgs []tea.Msg)
	}{
		{
			name: "switch with the keyring's password", args: "local", stored: map[string]string{"admin": testPassword},
			check: wantLoggedIn("local", false),
		},
		{
			name: "a read-only profile makes the console read-only", args: "audit", stored: map[string]string{"admin": testPassword},
			check: wantLoggedIn("audit", true),
		},
		{
			name: "--read-only holds across switches", args: "local", stored: map[string]string{"admin": testPassword}, forceRO: true,
			check: wantLoggedIn("local", true),
		},
		{
			name: "DAP_PASSWORD when the keyring is unavailable", args: "local", env: testPassword,
			keyringErr: errors.New("dbus: couldn't determine address of session bus"),
			check:      wantLoggedIn("local", false),
		},
		{
			name: "no password: the login screen, on the password", args: "fresh",
			check: wantScreen("No stored password for profile fresh.", "viewer"),
		},
		{
			name: "no keyring: the login screen says so", args: "local",
			keyringErr: errors.New("The name org.freedesktop.secrets was not provided by any .service files"),
			check:      wantScreen("no Secret Service", "admin"),
		},
		{
			name: "a stored password the server refuses: the login screen", args: "local", stored: map[string]string{"admin": "dap-test-pw-old"},
			check: wantScreen("The server refused the password of profile local (from keyring).", "admin"),
		},
		{
			name: "unknown profile", args: "qa",
			check: wantStatus(common.LevelError, `profile "qa" not found (profiles: local, audit, fresh, stale)`),
		},
		{
			name: "server down: stays, says so", args: "stale", stored: map[string]string{"admin": testPassword},
			check: wantStatus(common.LevelError, "profile stale: "),
		},
		{
			name: "no name lists the profiles", args: "",
			check: wantStatus(common.LevelInfo, "profiles: [local], audit (read-only), fresh, stale — :profile NAME switches"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keyring.MockInit()
			for user, password := range tt.stored {
				if err := credentials.StorePassword(server, user, password); err != nil {
					t.Fatal(err)
				}
			}
			if err := credentials.StorePassword("http://127.0.0.1:9", "admin", testPassword); err != nil {
				t.Fatal(err)
			}
			if tt.keyringErr != nil {
				keyring.MockInitWithError(tt.keyringErr)
			}
			cfg := testConfig(t)
			cfg.ForceReadOnly = tt.forceRO
			file, err := credentials.LoadProfiles(cfg.ProfilesPath)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range profiles {
				file.Put(p)
			}
			if err := file.Save(); err != nil {
				t.Fatal(err)
			}
			ctx := newContext(nil, server, "admin", "local")
			getenv := func(name string) string {
				if name == credentials.PasswordEnv {
					return tt.env
				}
				return ""
			}

			cmd := ProfileCommand(ctx, cfg, getenv)
			tt.check(t, uitest.Expand(cmd.Run(tt.args)))
		})
	}
}

func wantLoggedIn(profile string, readOnly bool) func(*testing.T, []tea.Msg) {
	return func(t *testing.T, msgs []tea.Msg) {
		t.Helper()
		got := uitest.Only[common.LoggedInMsg](t, msgs)
		if got.Profile != profile || got.ReadOnly != readOnly || got.Client == nil {
			t.Fatalf("logged in to %q read-only=%v, want %q read-only=%v", got.Profile, got.ReadOnly, profile, readOnly)
		}
		if _, err := got.Client.RootFolder(t.Context()); err != nil {
			t.Fatalf("the switched client does not work: %v", err)
		}
	}
}

func wantScreen(reason, user string) func(*testing.T, []tea.Msg) {
	return func(t *testing.T, msgs []tea.Msg) {
		t.Helper()
		open := uitest.Only[common.OpenDialogMsg](t, msgs)
		s, ok := open.Dialog.(*Screen)
		if !ok {
			t.Fatalf("opened %T, want the login screen", open.Dialog)
		}
		if !strings.Contains(s.reason, reason) {
			t.Errorf("reason %q, want it to contain %q", s.reason, reason)
		}
		if s.inputs[fieldUser].Value() != user || s.Focused() != "Password" {
			t.Errorf("user %q, focus %s; want %q and the password", s.inputs[fieldUser].Value(), s.Focused(), user)
		}
	}
}

func wantStatus(level common.Level, text string) func(*testing.T, []tea.Msg) {
	return func(t *testing.T, msgs []tea.Msg) {
		t.Helper()
		got := uitest.Only[common.StatusMsg](t, msgs)
		if got.Level != level || !strings.Contains(got.Text, text) {
			t.Fatalf("status %v %q, want %v containing %q", got.Level, got.Text, level, text)
		}
	}
}
