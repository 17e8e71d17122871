package sshserve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

func TestParseAuthorizedKeys(t *testing.T) {
	alice, bob := sshtest.NewKey(t), sshtest.NewKey(t)
	tests := []struct {
		name    string
		lines   []string
		want    map[string]Entry // by comment
		wantErr string
	}{
		{name: "user and read-only, comments and blank lines skipped",
			lines: []string{"# team", "", alice.Line(`user="analyst",read-only`, "alice@laptop"), "  " + bob.Line(`user="admin"`, "bob@desk")},
			want: map[string]Entry{
				"alice@laptop": {User: "analyst", ReadOnly: true, Line: 3},
				"bob@desk":     {User: "admin", Line: 4},
			}},
		{name: "read-only first", lines: []string{alice.Line(`read-only,user="viewer"`, "a")},
			want: map[string]Entry{"a": {User: "viewer", ReadOnly: true, Line: 1}}},
		{name: "no user", lines: []string{"# x", alice.Line("read-only", "a")}, wantErr: `line 2: no user="NAME"`},
		{name: "no options at all", lines: []string{alice.Line("", "a")}, wantErr: `line 1: no user="NAME"`},
		{name: "unquoted user", lines: []string{alice.Line("user=analyst", "a")}, wantErr: `line 1: user=analyst: write the name in double quotes`},
		{name: "empty user", lines: []string{alice.Line(`user=""`, "a")}, wantErr: "line 1: user=\"\": want a user name"},
		{name: "user with a space", lines: []string{alice.Line(`user="a b"`, "a")}, wantErr: "want a user name without spaces"},
		{name: "user with a slash", lines: []string{alice.Line(`user="../admin"`, "a")}, wantErr: "without spaces or slashes"},
		{name: "user dot dot", lines: []string{alice.Line(`user=".."`, "a")}, wantErr: "without spaces or slashes"},
		{name: "an OpenSSH option we would not enforce", lines: []string{alice.Line(`user="admin",from="10.0.0.0/8"`, "a")},
			wantErr: `line 1: option "from=\"10.0.0.0/8\"" is not supported`},
		{name: "read-only with a value", lines: []string{alice.Line(`user="admin",read-only=no`, "a")}, wantErr: "is not supported"},
		{name: "not a key", lines: []string{"", `user="admin" ssh-ed25519 notbase64 x`}, wantErr: "line 2: "},
		{name: "the same key twice", lines: []string{alice.Line(`user="admin"`, "a"), alice.Line(`user="viewer"`, "b")},
			wantErr: "line 2: the key of line 1 again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys, err := ParseAuthorizedKeys(strings.NewReader(strings.Join(tt.lines, "\n")))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(keys) != len(tt.want) {
				t.Fatalf("%d keys, want %d", len(keys), len(tt.want))
			}
			for _, got := range keys {
				want, ok := tt.want[got.Comment]
				if !ok || got.User != want.User || got.ReadOnly != want.ReadOnly || got.Line != want.Line ||
					!strings.HasPrefix(got.Fingerprint, "SHA256:") {
					t.Errorf("entry %+v, want %+v", got, want)
				}
			}
		})
	}
}

// TestAuthorizedKeysFollowTheFile: a key added to the file lets its person
// in without a restart, a removed one no longer does, and a file that stops
// parsing lets nobody in until it is fixed.
func TestAuthorizedKeysFollowTheFile(t *testing.T) {
	alice, bob := sshtest.NewKey(t), sshtest.NewKey(t)
	path := filepath.Join(t.TempDir(), "authorized_keys")
	write := func(lines ...string) {
		t.Helper()
		// A new file each time, as editors save: another inode even when the
		// size and the modification time happen to match.
		tmp := path + ".new"
		if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write(alice.Line(`user="analyst"`, "alice"))
	a, err := loadAuthorizedKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	lets := func(k sshtest.Key) bool {
		t.Helper()
		a.refresh()
		_, ok := a.lookup(k.Signer.PublicKey())
		return ok
	}
	steps := []struct {
		name       string
		lines      []string
		alice, bob bool
	}{
		{"as started", nil, true, false},
		{"bob added", []string{alice.Line(`user="analyst"`, "alice"), bob.Line(`user="viewer"`, "bob")}, true, true},
		{"alice removed", []string{bob.Line(`user="viewer"`, "bob")}, false, true},
		{"a broken line", []string{bob.Line(`user="viewer"`, "bob"), "garbage"}, false, false},
		{"fixed", []string{bob.Line(`user="viewer"`, "bob")}, false, true},
	}
	for _, step := range steps {
		if step.lines != nil {
			write(step.lines...)
		}
		if got := lets(alice); got != step.alice {
			t.Errorf("%s: alice let in: %v", step.name, got)
		}
		if got := lets(bob); got != step.bob {
			t.Errorf("%s: bob let in: %v", step.name, got)
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if lets(bob) {
		t.Error("a removed file still lets bob in")
	}
}
