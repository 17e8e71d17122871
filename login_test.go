package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/credentials/credtest"
)

// testPassword starts with the prefix the credentials leak scan looks for.
const testPassword = "dap-test-pw-cli"

// keyringMocked records that this test binary swapped the real keyring for
// go-keyring's mock, which cannot be undone; the integration test refuses to
// run after that.
var keyringMocked bool

func mockKeyring(t *testing.T, err error) {
	t.Helper()
	keyringMocked = true
	if err != nil {
		keyring.MockInitWithError(err)
		return
	}
	keyring.MockInit()
}

type testAccount struct {
	accountIO
	stdout, stderr *strings.Builder
	verified       int
}

// newTestAccount gives login/logout a private config dir, stdin and a verifier
// that accepts testPassword for admin and refuses anything else.
func newTestAccount(t *testing.T, stdin string) *testAccount {
	t.Helper()
	ta := &testAccount{stdout: &strings.Builder{}, stderr: &strings.Builder{}}
	ta.accountIO = accountIO{
		stdin:        strings.NewReader(stdin),
		stdout:       ta.stdout,
		stderr:       ta.stderr,
		getenv:       func(string) string { return "" },
		profilesPath: filepath.Join(t.TempDir(), "dapconsole", "profiles.json"),
		verify: func(_ context.Context, _, user, password string) error {
			ta.verified++
			if user != "admin" || password != testPassword {
				return fmt.Errorf("%w: 401 Unauthorized", credentials.ErrRefused)
			}
			return nil
		},
	}
	return ta
}

func (ta *testAccount) profiles(t *testing.T) *credentials.Profiles {
	t.Helper()
	profiles, err := credentials.LoadProfiles(ta.profilesPath)
	if err != nil {
		t.Fatal(err)
	}
	return profiles
}

func TestLoginCommand(t *testing.T) {
	const server = "http://127.0.0.1:18081"
	tests := []struct {
		name        string
		args        []string
		stdin       string
		existing    *credentials.Profile
		keyringErr  error
		wantErr     string
		wantProfile credentials.Profile
		wantStored  bool
		wantStdout  []string
		wantStderr  string
	}{
		{
			name:        "flags and the password",
			args:        []string{"--server", server + "/", "--user", "admin", "--profile", "local"},
			stdin:       testPassword + "\n",
			wantProfile: credentials.Profile{Name: "local", Server: server, User: "admin"},
			wantStored:  true,
			wantStdout:  []string{"Password for admin@" + server + ": ", "Logged in as admin@" + server + "; profile local saved (the default)."},
		},
		{
			name:        "nothing given: asks server until it is a URL, user, password",
			stdin:       "localhost\n" + server + "\nadmin\n" + testPassword + "\n",
			wantProfile: credentials.Profile{Name: "default", Server: server, User: "admin"},
			wantStored:  true,
			wantStdout:  []string{"Server URL: ", `server "localhost": want a URL`, "User: ", "profile default saved"},
		},
		{
			name:        "existing profile: asks only the password, keeps read-only",
			existing:    &credentials.Profile{Name: "default", Server: server, User: "admin", ReadOnly: true},
			stdin:       testPassword + "\n",
			wantProfile: credentials.Profile{Name: "default", Server: server, User: "admin", ReadOnly: true},
			wantStored:  true,
			wantStdout:  []string{"profile default updated"},
		},
		{
			name:        "--read-only=false clears it",
			existing:    &credentials.Profile{Name: "default", Server: server, User: "admin", ReadOnly: true},
			args:        []string{"--read-only=false"},
			stdin:       testPassword + "\n",
			wantProfile: credentials.Profile{Name: "default", Server: server, User: "admin"},
			wantStored:  true,
		},
		{
			name:        "no keyring: the profile is saved and one sentence says what to do",
			args:        []string{"--server", server, "--user", "admin", "--read-only"},
			stdin:       testPassword + "\n",
			keyringErr:  errors.New("dbus: couldn't determine address of session bus"),
			wantProfile: credentials.Profile{Name: "default", Server: server, User: "admin", ReadOnly: true},
			wantStderr:  "The OS keyring is unavailable (no D-Bus session bus, as usual over SSH): unlock a keyring such as gnome-keyring, or set DAP_PASSWORD, or type the password at each start (kept in memory only). Profile default was saved; the password was not stored.\n",
		},
		{
			name:    "wrong password: nothing saved",
			args:    []string{"--server", server, "--user", "admin"},
			stdin:   "dap-test-pw-wrong\n",
			wantErr: "login admin@" + server + ": the server refused this user and password: 401 Unauthorized",
		},
		{
			name:        "a mistyped password is asked again",
			args:        []string{"--server", server, "--user", "admin"},
			stdin:       "dap-test-pw-wrong\ndap-test-pw-wrong2\n" + testPassword + "\n",
			wantProfile: credentials.Profile{Name: "default", Server: server, User: "admin"},
			wantStored:  true,
			wantStdout:  []string{"refused the password (try 1 of 3)", "(try 2 of 3)", "profile default saved"},
		},
		{
			name:    "three refusals end it",
			args:    []string{"--server", server, "--user", "admin"},
			stdin:   "dap-test-pw-a\ndap-test-pw-b\ndap-test-pw-c\n" + testPassword + "\n",
			wantErr: "the server refused this user and password",
		},
		{
			name:    "no password on stdin",
			args:    []string{"--server", server, "--user", "admin"},
			wantErr: "no answer on standard input",
		},
		{name: "bad profile name", args: []string{"--profile", "a b"}, wantErr: "profile name"},
		{name: "stray argument", args: []string{"admin"}, wantErr: `unexpected argument "admin"`},
		{name: "unknown flag", args: []string{"--password", "x"}, wantErr: "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mockKeyring(t, nil)
			ta := newTestAccount(t, tt.stdin)
			if tt.existing != nil {
				profiles := ta.profiles(t)
				profiles.Put(*tt.existing)
				if err := profiles.Save(); err != nil {
					t.Fatal(err)
				}
			}
			if tt.keyringErr != nil {
				mockKeyring(t, tt.keyringErr)
			}

			err := login(tt.args, ta.accountIO)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
			} else if err != nil {
				t.Fatalf("login: %v\nstdout: %s\nstderr: %s", err, ta.stdout, ta.stderr)
			}
			for _, want := range tt.wantStdout {
				if !strings.Contains(ta.stdout.String(), want) {
					t.Errorf("stdout %q lacks %q", ta.stdout, want)
				}
			}
			if tt.wantErr == "" && ta.stderr.String() != tt.wantStderr {
				t.Errorf("stderr\n got %q\nwant %q", ta.stderr, tt.wantStderr)
			}
			if all := ta.stdout.String() + ta.stderr.String(); strings.Contains(all, credtest.PasswordPrefix) {
				t.Errorf("a password was printed: %q", all)
			}

			mockKeyring(t, nil) // look at what the login left, whatever the keyring did
			got, ok := ta.profiles(t).Get(tt.wantProfile.Name)
			if tt.wantProfile.Name == "" {
				if names := ta.profiles(t).Names(); len(names) != 0 && tt.existing == nil {
					t.Errorf("a failed login saved profiles %v", names)
				}
			} else if !ok || got != tt.wantProfile {
				t.Errorf("profile %+v (found %v), want %+v", got, ok, tt.wantProfile)
			}
			if tt.wantErr != "" && ta.verified > passwordTries {
				t.Errorf("%d authenticated calls, want at most %d", ta.verified, passwordTries)
			}
			credtest.NoPasswordUnder(t, filepath.Dir(filepath.Dir(ta.profilesPath))) // the whole config dir
		})
	}
}

func TestLoginStoresOnlyAfterTheCheck(t *testing.T) {
	mockKeyring(t, nil)
	ta := newTestAccount(t, "dap-test-pw-wrong\n")
	if err := login([]string{"--server", "http://127.0.0.1:18081", "--user", "admin"}, ta.accountIO); err == nil {
		t.Fatal("want the refused login to fail")
	}
	if _, err := credentials.LookupPassword("http://127.0.0.1:18081", "admin"); !errors.Is(err, credentials.ErrNoPassword) {
		t.Fatalf("a refused password reached the keyring: %v", err)
	}
}

func TestLogoutCommand(t *testing.T) {
	const server = "http://127.0.0.1:18081"
	local := credentials.Profile{Name: "local", Server: server, User: "admin"}
	other := credentials.Profile{Name: "other", Server: server, User: "viewer"}
	tests := []struct {
		name       string
		args       []string
		noProfiles bool
		keyringErr error
		wantErr    string
		wantStdout string
		wantGone   bool
		// wantForgotten: the profile local is removed too.
		wantForgotten bool
	}{
		{name: "default profile", wantStdout: "Logged out of profile local: password of admin@" + server + " removed", wantGone: true},
		{name: "named profile", args: []string{"--profile", "local"}, wantStdout: "Logged out of profile local", wantGone: true},
		{name: "nothing stored", args: []string{"--profile", "other"}, wantStdout: "No password stored for profile other (viewer@" + server + ")."},
		{name: "unknown profile", args: []string{"--profile", "qa"}, wantErr: `profile "qa" not found`},
		{name: "no profile yet", noProfiles: true, wantErr: "dapconsole login creates one"},
		{name: "no keyring: nothing was stored, the profile goes (issue 30)", keyringErr: errors.New("The name org.freedesktop.secrets was not provided by any .service files"),
			wantStdout: "No password of admin@" + server + " was stored on this host: the OS keyring is unavailable (no Secret Service on the D-Bus session bus).\nProfile local removed.\n", wantForgotten: true},
		{name: "--forget removes the password and the profile", args: []string{"--forget"}, wantStdout: "password of admin@" + server + " removed from the keyring.\nProfile local removed.\n", wantGone: true, wantForgotten: true},
		{name: "stray argument", args: []string{"local"}, wantErr: `unexpected argument "local"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mockKeyring(t, nil)
			ta := newTestAccount(t, "")
			if !tt.noProfiles {
				profiles := ta.profiles(t)
				profiles.Put(local)
				profiles.Put(other)
				if err := profiles.Save(); err != nil {
					t.Fatal(err)
				}
			}
			if err := credentials.StorePassword(server, "admin", testPassword); err != nil {
				t.Fatal(err)
			}
			if tt.keyringErr != nil {
				mockKeyring(t, tt.keyringErr)
			}

			err := logout(tt.args, ta.accountIO)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ta.stdout.String(), tt.wantStdout) {
				t.Errorf("stdout %q lacks %q", ta.stdout, tt.wantStdout)
			}
			_, lookupErr := credentials.LookupPassword(server, "admin")
			if gone := errors.Is(lookupErr, credentials.ErrNoPassword); gone != tt.wantGone {
				t.Errorf("admin's password gone = %v, want %v (%v)", gone, tt.wantGone, lookupErr)
			}
			profiles := ta.profiles(t)
			if _, ok := profiles.Get("local"); ok == tt.wantForgotten {
				t.Errorf("profile local kept = %v, want %v", ok, !tt.wantForgotten)
			}
			if _, ok := profiles.Get("other"); !ok {
				t.Error("logout removed another profile")
			}
			if tt.wantForgotten && profiles.Default != "other" {
				t.Errorf("default after removing local: %q, want other", profiles.Default)
			}
		})
	}
}

func TestConsoleSessionFirstStartAsksNothing(t *testing.T) {
	mockKeyring(t, nil)
	ta := newTestAccount(t, "http://127.0.0.1:18081\nadmin\n"+testPassword+"\n")
	session, err := resolveConsoleSession(credentials.Request{}, ta.accountIO)
	if err != nil {
		t.Fatal(err)
	}
	if session.Complete() || session.Profile != (credentials.Profile{}) || ta.stderr.Len() > 0 {
		t.Fatalf("first start: session %+v, printed %q; want nothing asked, for the login screen", session, ta.stderr)
	}

	// With --server the console knows where to go and asks for the rest.
	session, err = resolveConsoleSession(credentials.Request{Server: "http://127.0.0.1:18081", User: "admin"}, ta.accountIO)
	if err != nil {
		t.Fatal(err)
	}
	if session.Source != credentials.SourcePrompt || !strings.Contains(ta.stderr.String(), "Password for admin@http://127.0.0.1:18081: ") {
		t.Fatalf("with --server: password from %v, printed %q; want the prompt", session.Source, ta.stderr)
	}
}
