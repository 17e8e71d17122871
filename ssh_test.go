package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// people are the keys of the SSH tests: admin, a read-only analyst, the
// viewer, and a stranger whose key is in no file.
type people struct {
	admin, analyst, viewer, stranger sshtest.Key
}

func newPeople(t *testing.T) people {
	return people{admin: sshtest.NewKey(t), analyst: sshtest.NewKey(t), viewer: sshtest.NewKey(t), stranger: sshtest.NewKey(t)}
}

func (p people) authorizedKeys() string {
	return strings.Join([]string{
		"# the team",
		p.admin.Line(`user="admin"`, "admin@laptop"),
		p.analyst.Line(`user="analyst",read-only`, "alice@laptop"),
		p.viewer.Line(`user="viewer"`, "vic@laptop"),
	}, "\n") + "\n"
}

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startSSHDemo runs `dapconsole ssh --demo` on loopback with the people's
// keys; change adjusts the flags first. The log is returned for reading.
func startSSHDemo(t *testing.T, p people, change func(*sshFlags)) (*team, *syncBuffer) {
	t.Helper()
	dir := t.TempDir()
	keysFile := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keysFile, []byte(p.authorizedKeys()), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := parseSSHFlags([]string{"--demo", "--addr", "127.0.0.1:0",
		"--host-key", filepath.Join(dir, "host", "ssh_host_ed25519"), "--authorized-keys", keysFile, "--per-ip", "1000"})
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(&f)
	}
	log := &syncBuffer{}
	running, err := startTeam(f, slog.New(slog.NewTextHandler(io.MultiWriter(log), nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := running.stop(); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return running, log
}

func dialConsole(t *testing.T, running *team, key sshtest.Key, opts sshtest.Options) *sshtest.Terminal {
	t.Helper()
	term, err := sshtest.Dial(t, running.ssh.Addr(), key, opts)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	return term
}

// TestSSHAuthorizedKeyGetsTheTree: a key in the file opens the console,
// logged in as the demo user it names, with the folder tree drawn.
func TestSSHAuthorizedKeyGetsTheTree(t *testing.T) {
	p := newPeople(t)
	running, log := startSSHDemo(t, p, nil)
	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 100, Height: 30})
	t.Log("\n" + term.WaitForText("Folders", "admin@", "Data", "Analytics", "Exports"))
	term.Type("q")
	if err := term.Ended(); err != nil {
		t.Errorf("quit ended the session with %v", err)
	}
	for _, want := range []string{"session started", "user=admin", "comment=admin@laptop", "session ended", "why=quit"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}

// TestSSHUnknownKeyRefused: a key in no file is refused by the handshake,
// before any screen; the log names its fingerprint for the admin.
func TestSSHUnknownKeyRefused(t *testing.T) {
	p := newPeople(t)
	running, log := startSSHDemo(t, p, nil)
	if term, err := sshtest.Dial(t, running.ssh.Addr(), p.stranger, sshtest.Options{}); err == nil {
		t.Fatalf("a stranger's key got a session; screen:\n%s", term.Screen())
	} else if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("refused with %v, want an authentication failure", err)
	}
	if !strings.Contains(log.String(), "key refused") {
		t.Errorf("the log does not say a key was refused:\n%s", log)
	}
}

// TestSSHFilesStayInTheUsersDirectory: a backup over SSH lands in the
// user's own directory on the host; a path out of it (.., absolute) is
// refused by the form, and nothing is written there.
func TestSSHFilesStayInTheUsersDirectory(t *testing.T) {
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, nil)
	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 100, Height: 30})
	term.WaitForText("Folders", "Data")
	term.Type("b")
	term.WaitForText("Backup of /", "save to")
	outside := filepath.Join(t.TempDir(), "outside.zip")
	for _, path := range []string{"../escape.zip", "../../escape.zip", outside} {
		term.Type(ctrlU + path + "\r")
		term.WaitForText("does not exist")
		if _, err := os.Stat(outside); err == nil {
			t.Fatalf("%s was written", outside)
		}
	}
	term.Type(ctrlU + "mine.zip\r")
	term.WaitForText("backup written")
	info, err := os.Stat(filepath.Join(running.flags.files, "admin", "mine.zip"))
	if err != nil || info.Size() == 0 {
		t.Fatalf("the backup is not in admin's directory: %v", err)
	}
	for _, escaped := range []string{filepath.Join(running.flags.files, "escape.zip"), filepath.Join(filepath.Dir(running.flags.files), "escape.zip")} {
		if _, err := os.Stat(escaped); err == nil {
			t.Errorf("%s was written", escaped)
		}
	}
}

// TestSSHRunsNoEditor: e (edit a connection in $EDITOR) would start a
// program on the host, whose shell escape is a shell there: a served
// console says why it does not.
func TestSSHRunsNoEditor(t *testing.T) {
	p := newPeople(t)
	ran := filepath.Join(t.TempDir(), "ran")
	t.Setenv("EDITOR", "touch "+ran)
	t.Setenv("VISUAL", "")
	running, _ := startSSHDemo(t, p, nil)
	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 120, Height: 30})
	term.WaitForText("Folders")
	term.Type("2")
	term.WaitForText("PostgreSQL")
	term.Type("e")
	term.WaitForText("never does")
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the editor ran on the host")
	}
}

// ctrlU clears a text field (delete to the start of the line).
const ctrlU = "\x15"
