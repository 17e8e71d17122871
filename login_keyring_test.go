package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/credentials/credtest"
)

// TestKeyringIntegration proves, against a real Secret Service, that a login
// lets the console start without asking for the password, and that after a
// logout the console asks again. credentials/testdata/keyring-it.sh runs it
// inside a private D-Bus session with an unlocked gnome-keyring.
func TestKeyringIntegration(t *testing.T) {
	if os.Getenv("DAP_KEYRING_IT") == "" {
		t.Skip("needs a real Secret Service: run credentials/testdata/keyring-it.sh " +
			"(dbus-run-session and gnome-keyring-daemon; Debian packages dbus-x11 gnome-keyring)")
	}
	if keyringMocked {
		t.Fatal("another test replaced the keyring with a mock in this process; run with -run '^TestKeyringIntegration$'")
	}
	url := startPlatform(t)
	server := strings.TrimRight(url, "/")
	configDir := t.TempDir()
	account := func(stdin string) *testAccount {
		ta := newTestAccount(t, stdin)
		ta.profilesPath = filepath.Join(configDir, "dapconsole", "profiles.json")
		ta.verify = credentials.CheckWithServer
		return ta
	}
	t.Cleanup(func() { _ = credentials.DeletePassword(server, "admin") })

	// login stores the password in the keyring.
	ta := account(testPassword + "\n")
	if err := login([]string{"--server", url, "--user", "admin", "--profile", "it"}, ta.accountIO); err != nil {
		t.Fatalf("login: %v\n%s%s", err, ta.stdout, ta.stderr)
	}
	if ta.stderr.Len() > 0 {
		t.Fatalf("login could not use the Secret Service: %s", ta.stderr)
	}

	// The console starts with no prompt: its stdin is empty, so a prompt fails.
	ta = account("")
	session, err := resolveConsoleSession(credentials.Request{}, ta.accountIO)
	if err != nil {
		t.Fatalf("console start after login: %v\n%s", err, ta.stderr)
	}
	if session.Source != credentials.SourceKeyring || session.Password != testPassword || session.Profile.Name != "it" {
		t.Fatalf("console start after login: profile %q, password from %v; want profile it, from the keyring", session.Profile.Name, session.Source)
	}
	if ta.stderr.Len() > 0 {
		t.Fatalf("console start printed %q, want silence", ta.stderr)
	}
	if err := credentials.CheckWithServer(t.Context(), session.Profile.Server, session.Profile.User, session.Password); err != nil {
		t.Fatalf("the console's credentials do not work: %v", err)
	}

	// logout removes it; the next start asks for the password.
	ta = account("")
	if err := logout([]string{"--profile", "it"}, ta.accountIO); err != nil {
		t.Fatalf("logout: %v", err)
	}
	ta = account(testPassword + "\n")
	session, err = resolveConsoleSession(credentials.Request{}, ta.accountIO)
	if err != nil {
		t.Fatalf("console start after logout: %v", err)
	}
	if session.Source != credentials.SourcePrompt || !strings.Contains(ta.stderr.String(), "Password for admin@"+server) {
		t.Fatalf("console start after logout: password from %v, printed %q; want the prompt", session.Source, ta.stderr)
	}
	if strings.Contains(ta.stderr.String(), "keyring is unavailable") {
		t.Fatalf("the keyring was available, yet: %s", ta.stderr)
	}

	// Nothing on disk holds the password.
	credtest.NoPasswordUnder(t, configDir)
}
