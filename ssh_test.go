package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/pkg/sftp"
	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// people are the keys of the SSH tests: admin, a read-only analyst, the
// viewer, and a stranger whose key is in no file.
type people struct {
	admin, analyst, viewer, stranger sshtest.Key
}

func newPeople(t testing.TB) people {
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

// startSSHDemo runs `dapconsole ssh --demo` on loopback with the people's
// keys; change adjusts the flags first. The log is returned for reading.
func startSSHDemo(t testing.TB, p people, change func(*sshFlags)) (*team, *sshtest.Buffer) {
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
	log := &sshtest.Buffer{}
	running, err := startTeam(f, slog.New(slog.NewTextHandler(log, nil)))
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

func dialConsole(t testing.TB, running *team, key sshtest.Key, opts sshtest.Options) *sshtest.Terminal {
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
		t.Fatalf("a stranger's key got a session; screen:\n%s", term.Text())
	} else if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("refused with %v, want an authentication failure", err)
	}
	if !strings.Contains(log.String(), "key refused") {
		t.Errorf("the log does not say a key was refused:\n%s", log)
	}
}

// TestSSHFilesStayInTheUsersDirectory: a backup over SSH lands in the
// user's own directory on the host, where that user's key fetches it with
// sftp and no other user's can; a path out of it (.., absolute) is refused
// by the form, and nothing is written there.
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
	// The backup is fetched with sftp by the same user's key; another
	// user's key sees its own, empty, directory.
	if got := sftpRead(t, running, p.admin, "mine.zip"); int64(len(got)) != info.Size() {
		t.Errorf("sftp fetched %d bytes, want %d", len(got), info.Size())
	}
	if got := sftpRead(t, running, p.viewer, "/../admin/mine.zip"); got != nil {
		t.Errorf("the viewer fetched admin's backup (%d bytes)", len(got))
	}
}

// sftpRead is the file name read over sftp with key; nil when refused.
func sftpRead(t *testing.T, running *team, key sshtest.Key, name string) []byte {
	t.Helper()
	conn, err := sshtest.Connect(running.ssh.Addr(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client, err := sftp.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	f, err := client.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	body, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return body
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

// stallingPlatform is an empty platform whose admin has password, and whose
// backup downloads send a few bytes and then stall until the client gives
// up; downloading gets a token when one starts.
func stallingPlatform(t *testing.T, password string) (url string, downloading chan struct{}) {
	t.Helper()
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: t.TempDir(), AdminPassword: password}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	downloading = make(chan struct{}, 1)
	platform := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/backup") {
			srv.Handler().ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/zip")
		w.Write([]byte("PK\x03\x04 the first bytes of an archive that never ends"))
		w.(http.Flusher).Flush()
		downloading <- struct{}{}
		<-r.Context().Done() // stalls until the console gives up
	}))
	t.Cleanup(platform.Close)
	return platform.URL, downloading
}

// startStalledBackup logs term in as admin with password through the login
// screen and starts a backup to slow.zip that stalls.
func startStalledBackup(t *testing.T, term *sshtest.Terminal, password string, downloading chan struct{}) {
	t.Helper()
	// DAP_PASSWORD of the host is one password for everyone: not used.
	term.WaitForText("Your platform password for admin@", "stays in this session's memory")
	term.Type(password + "\r")
	term.WaitForText("Folders", "admin@127.0.0.1", "· /") // the tree: an empty root
	term.Type("b")
	term.WaitForText("save to")
	term.Type(ctrlU + "slow.zip\r")
	select {
	case <-downloading:
	case <-time.After(sshtest.Wait):
		t.Fatalf("the backup did not start; screen:\n%s", term.Text())
	}
}

var sshListeningLine = regexp.MustCompile(`^ssh listening on (127\.0\.0\.1:[1-9][0-9]*) \(host key SHA256:\S+\)$`)

// TestSSHSigtermCancelsABackupAndLeavesNoFile runs `dapconsole ssh` as its
// own process against a platform whose backup download stalls: the session
// logs in through the login screen, starts a backup, and SIGTERM then ends
// the session with a notice, the backup cancelled and its partial file
// removed, and the process exits cleanly. The password typed never reaches
// a log, the screen or a file.
func TestSSHSigtermCancelsABackupAndLeavesNoFile(t *testing.T) {
	const password = "pw-ssh-sigterm-test"
	platformURL, downloading := stallingPlatform(t, password)

	dir := t.TempDir()
	admin := sshtest.NewKey(t)
	keysFile := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(keysFile, []byte(admin.Line(`user="admin"`, "admin@laptop")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config")
	cmd := dapconsole(t, []string{"XDG_CONFIG_HOME=" + config, "HOME=" + dir, "DAP_PASSWORD=" + password},
		"ssh", "--server", platformURL, "--addr", "127.0.0.1:0",
		"--host-key", filepath.Join(dir, "ssh", "host_ed25519"), "--authorized-keys", keysFile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var log sshtest.Buffer
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	m := sshListeningLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	if err != nil || m == nil {
		t.Fatalf("first line %q (%v), want `ssh listening on 127.0.0.1:PORT (host key …)`", line, err)
	}
	go io.Copy(io.Discard, out)

	term, err := sshtest.Dial(t, m[1], admin, sshtest.Options{Width: 100, Height: 30})
	if err != nil {
		t.Fatal(err)
	}
	startStalledBackup(t, term, password, downloading)
	partial := filepath.Join(dir, "ssh", "files", "admin", "slow.zip")
	if _, err := os.Stat(partial); err != nil {
		t.Fatalf("the backup's file is not being written: %v", err)
	}

	stop(t, cmd, syscall.SIGTERM)
	if err := term.Ended(); err != nil {
		t.Errorf("the session ended with %v", err)
	}
	if !strings.Contains(term.Raw(), "the server is stopping") {
		t.Errorf("the session got no notice; it read:\n%q", term.Raw())
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cancelled backup left %s (%v)", partial, err)
	}
	if !strings.Contains(log.String(), "why=\"the server is stopping\"") {
		t.Errorf("the log does not say why the session ended:\n%s", log.String())
	}
	for what, text := range map[string]string{"log": log.String(), "screen": term.Raw()} {
		if strings.Contains(text, password) {
			t.Errorf("the password is in the %s", what)
		}
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if body, _ := os.ReadFile(path); bytes.Contains(body, []byte(password)) {
				t.Errorf("the password is in %s", path)
			}
		}
		return nil
	})
}

// laidOutAt reports whether a console screen is laid out for width×height:
// the header reaches the right edge (who is logged in, flush right) and
// the help line is the last row.
func laidOutAt(width, height int) func(string) bool {
	return func(screen string) bool {
		rows := strings.Split(screen, "\n")
		if len(rows) < height || !strings.Contains(rows[0], "Folders") {
			return false
		}
		last := height - 1
		for last > 0 && rows[last] == "" {
			last--
		}
		return ansi.StringWidth(rows[0]) == width && last == height-1 && strings.Contains(rows[last], "help")
	}
}

// TestSSHSessionsDrawAtTheirOwnSize: two sessions of different sizes each
// lay the console out for their own terminal, as the users their keys name.
func TestSSHSessionsDrawAtTheirOwnSize(t *testing.T) {
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, nil)
	small := dialConsole(t, running, p.viewer, sshtest.Options{Width: 80, Height: 24})
	large := dialConsole(t, running, p.admin, sshtest.Options{Width: 130, Height: 40})
	small.WaitFor("the console at 80x24", laidOutAt(80, 24))
	large.WaitFor("the console at 130x40", laidOutAt(130, 40))
	small.WaitForText("viewer@", "Data/")
	large.WaitForText("admin@", "Data/")
	// The viewer may not see /Exports; admin does: each its own platform rights.
	if screen := large.WaitForText("Exports/"); !strings.Contains(screen, "Exports/") {
		t.Fatal("admin does not see /Exports")
	}
	if screen := small.Text(); strings.Contains(screen, "Exports/") {
		t.Errorf("the viewer sees /Exports:\n%s", screen)
	}
	small.Type("3")
	small.WaitForText("Jobs  ")
	if screen := large.Text(); !strings.Contains(screen, "Data/") {
		t.Errorf("a key in one session changed the other:\n%s", screen)
	}
}

// TestSSHWindowChangeRelaysTheView: a window change re-lays the console out
// at the new size, down to the one-line "too small".
func TestSSHWindowChangeRelaysTheView(t *testing.T) {
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, nil)
	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 80, Height: 24})
	term.WaitFor("the console at 80x24", laidOutAt(80, 24))
	term.Resize(120, 35)
	term.WaitFor("the console at 120x35", laidOutAt(120, 35))
	term.Resize(30, 8)
	term.WaitForText("too small")
	term.Resize(100, 20)
	term.WaitFor("the console at 100x20", laidOutAt(100, 20))
}

func TestParseSSHFlags(t *testing.T) {
	base := []string{"--host-key", "k", "--authorized-keys", "a"}
	tests := []struct {
		name string
		args []string
		want string // in the error; empty: accepted
	}{
		{"demo", append([]string{"--demo"}, base...), ""},
		{"server", append([]string{"--server", "https://dap.example.com/"}, base...), ""},
		{"neither platform", base, "--server URL, or --demo"},
		{"both platforms", append([]string{"--demo", "--server", "https://x"}, base...), "--server URL, or --demo"},
		{"no host key", []string{"--demo", "--authorized-keys", "a"}, "--host-key FILE and --authorized-keys FILE are required"},
		{"no keys file", []string{"--demo", "--host-key", "k"}, "are required"},
		{"no sessions", append([]string{"--demo", "--max-sessions", "0"}, base...), "must be positive"},
		{"no sessions on a connection", append([]string{"--demo", "--per-connection", "0"}, base...), "must be positive"},
		{"no room for files", append([]string{"--demo", "--files-max", "0"}, base...), "must be positive"},
		{"negative idle", append([]string{"--demo", "--idle", "-1m"}, base...), "not negative"},
		{"a bad server", append([]string{"--server", "ftp://x"}, base...), "--server"},
		{"an argument", append([]string{"--demo", "extra"}, base...), "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseSSHFlags(tt.args)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("err %v, want %q", err, tt.want)
			case tt.want == "" && f.files != "files":
				t.Errorf("files %q, want files/ beside the host key", f.files)
			}
		})
	}
}

// TestSSHDemoUserUnknown: with --demo, a key naming no demo user gets a
// sentence saying so, not a console.
func TestSSHDemoUserUnknown(t *testing.T) {
	p := newPeople(t)
	stranger := p.stranger
	running, _ := startSSHDemo(t, p, func(f *sshFlags) {
		keys, _ := os.ReadFile(f.ssh.AuthorizedKeysPath)
		keys = append(keys, stranger.Line(`user="nobody"`, "")+"\n"...)
		os.WriteFile(f.ssh.AuthorizedKeysPath, keys, 0o600)
	})
	term := dialConsole(t, running, stranger, sshtest.Options{})
	term.Ended()
	if !strings.Contains(term.Stderr(), `"nobody" is not a demo user`) {
		t.Errorf("stderr %q", term.Stderr())
	}
}

// TestSSHDisconnectCancelsABackupAndLeavesNoFile: a client that goes away
// in the middle of a backup ends its session as quitting would: the backup
// is cancelled and its partial file removed. Another session takes keys
// while the backup stalls and after its session ended.
func TestSSHDisconnectCancelsABackupAndLeavesNoFile(t *testing.T) {
	keyring.MockInit() // no keyring entry for the platform: the login screen asks
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const password = "pw-ssh-disconnect-test"
	platformURL, downloading := stallingPlatform(t, password)
	p := newPeople(t)
	running, log := startSSHDemo(t, p, func(f *sshFlags) { f.demo, f.server = false, platformURL })
	other := dialConsole(t, running, p.viewer, sshtest.Options{})
	other.WaitForText("Your platform password for viewer@")

	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 100, Height: 30})
	startStalledBackup(t, term, password, downloading)
	partial := filepath.Join(running.flags.files, "admin", "slow.zip")
	if _, err := os.Stat(partial); err != nil {
		t.Fatalf("the backup's file is not being written: %v", err)
	}
	other.Type("x")
	other.WaitForText("•") // a stalled server in one session holds up no other
	term.Close()
	deadline := time.Now().Add(sshtest.Wait)
	for !strings.Contains(log.String(), `why="the client disconnected"`) {
		if time.Now().After(deadline) {
			t.Fatalf("the session did not end:\n%s", log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cancelled backup left %s (%v)", partial, err)
	}
	other.Type("y")
	other.WaitForText("••") // and its end neither
	if strings.Contains(log.String(), password) {
		t.Error("the password is in the log")
	}
}

// TestSSHUsesTheHostKeyringEntry: with a keyring entry on the host for the
// key's user on that platform (dapconsole login there), the session opens
// on the tree without asking; a user without one gets the login screen.
func TestSSHUsesTheHostKeyringEntry(t *testing.T) {
	keyring.MockInit()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const password = "pw-ssh-keyring-test"
	platformURL, _ := stallingPlatform(t, password)
	if err := credentials.StorePassword(platformURL, "admin", password); err != nil {
		t.Fatal(err)
	}
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, func(f *sshFlags) { f.demo, f.server = false, platformURL })
	dialConsole(t, running, p.admin, sshtest.Options{}).WaitForText("admin@127.0.0.1", "· /")
	dialConsole(t, running, p.viewer, sshtest.Options{}).WaitForText("Your platform password for viewer@")
}
