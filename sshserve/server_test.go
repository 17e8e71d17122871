package sshserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// echo is the program of these tests: it shows who it serves, its size and
// the keys typed; q quits, p panics, and stopMsg ends it saying so.
type echo struct {
	s             Session
	width, height int
	typed         string
}

type stopMsg struct{}

func (e *echo) Init() tea.Cmd { return nil }

func (e *echo) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		e.width, e.height = msg.Width, msg.Height
	case stopMsg:
		return e, tea.Quit
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q":
			return e, tea.Quit
		case "p":
			panic("the echo program panics, as asked")
		}
		e.typed += msg.String()
	}
	return e, nil
}

func (e *echo) View() tea.View {
	ro := ""
	if e.s.ReadOnly {
		ro = " read-only"
	}
	v := tea.NewView(fmt.Sprintf("hello %s%s at %dx%d\ntyped [%s]\ncolours %s no-color %v env %q",
		e.s.User, ro, e.width, e.height, e.typed, e.s.Profile, e.s.NoColor, e.s.Environ))
	v.AltScreen = true
	return v
}

type testServer struct {
	*Server
	log        *sshtest.Buffer
	alice, bob sshtest.Key
}

// start runs a server whose file lets alice (analyst, read-only) and bob
// (admin) in; change adjusts the configuration first.
func start(t *testing.T, change func(*Config)) *testServer {
	t.Helper()
	dir := t.TempDir()
	ts := &testServer{log: &sshtest.Buffer{}, alice: sshtest.NewKey(t), bob: sshtest.NewKey(t)}
	keys := ts.alice.Line(`user="analyst",read-only`, "alice@laptop") + "\n" + ts.bob.Line(`user="admin"`, "bob@desk") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "keys"), []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Addr: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "host_ed25519"), AuthorizedKeysPath: filepath.Join(dir, "keys"),
		PerMinute: 1000, Log: slog.New(slog.NewTextHandler(ts.log, nil)),
		Program: func(s Session) (tea.Model, error) { return &echo{s: s}, nil },
		Stop:    stopMsg{},
	}
	if change != nil {
		change(&cfg)
	}
	var err error
	if ts.Server, err = Start(cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), sshtest.Wait)
		defer cancel()
		if err := ts.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return ts
}

func (ts *testServer) dial(t *testing.T, key sshtest.Key, opts sshtest.Options) *sshtest.Terminal {
	t.Helper()
	term, err := sshtest.Dial(t, ts.Addr(), key, opts)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	return term
}

func exitStatus(err error) int {
	var exit *gossh.ExitError
	if errors.As(err, &exit) {
		return exit.ExitStatus()
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestSessionsAreTheirOwn(t *testing.T) {
	ts := start(t, nil)
	alice := ts.dial(t, ts.alice, sshtest.Options{Width: 60, Height: 10})
	bob := ts.dial(t, ts.bob, sshtest.Options{Width: 90, Height: 20})
	alice.WaitForText("hello analyst read-only at 60x10")
	bob.WaitForText("hello admin at 90x20")
	alice.Type("xy")
	alice.WaitForText("typed [xy]")
	bob.Resize(100, 25)
	bob.WaitForText("hello admin at 100x25", "typed []")
	alice.Type("q")
	if err := alice.Ended(); err != nil {
		t.Fatalf("alice's quit: %v", err)
	}
	bob.Type("z")
	bob.WaitForText("typed [z]")
	// A client's size is believed up to what a screen can be, not further:
	// the renderer's buffer is the window's size.
	bob.Resize(1_000_000, 1_000_000)
	bob.WaitForText("hello admin at 512x256")
	huge := ts.dial(t, ts.alice, sshtest.Options{Width: 1 << 20, Height: 1 << 20})
	huge.WaitForText("at 512x256")
}

// TestColourProfileOfTheClient: each session's colours come from what its
// client says of its terminal (TERM of the pty, COLORTERM, NO_COLOR), and
// the program sees none of the server's environment nor the client's other
// variables.
func TestColourProfileOfTheClient(t *testing.T) {
	t.Setenv("NO_COLOR", "1") // the server's: not the sessions'
	t.Setenv("DAP_PASSWORD", "pw-of-the-host")
	ts := start(t, nil)
	tests := []struct {
		term string
		env  []string
		want string
	}{
		{"xterm-256color", []string{"COLORTERM=truecolor"}, "colours TrueColor no-color false"},
		{"xterm-256color", nil, "colours ANSI256 no-color false"},
		{"xterm", nil, "colours ANSI no-color false"},
		{"xterm-256color", []string{"NO_COLOR=1", "DAP_PASSWORD=sent", "LD_PRELOAD=/tmp/x.so"}, "colours Ascii no-color true"},
	}
	for _, tt := range tests {
		term := ts.dial(t, ts.bob, sshtest.Options{Width: 200, Term: tt.term, Env: tt.env})
		screen := term.WaitForText(tt.want)
		for _, leaked := range []string{"DAP_PASSWORD", "LD_PRELOAD", "pw-of-the-host"} {
			if strings.Contains(screen, leaked) {
				t.Errorf("TERM=%s %v: the program sees %s:\n%s", tt.term, tt.env, leaked, screen)
			}
		}
	}
}

func TestRefusals(t *testing.T) {
	ts := start(t, nil)
	tests := []struct {
		name string
		opts sshtest.Options
		want string
	}{
		{"no terminal", sshtest.Options{NoPty: true}, "needs a terminal"},
		{"a command", sshtest.Options{Command: "cat /etc/passwd"}, "takes no command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term := ts.dial(t, ts.bob, tt.opts)
			if err := term.Ended(); exitStatus(err) != 1 {
				t.Errorf("ended with %v, want status 1", err)
			}
			if !strings.Contains(term.Stderr(), tt.want) {
				t.Errorf("stderr %q, want %q", term.Stderr(), tt.want)
			}
			if strings.Contains(term.Raw(), "hello") {
				t.Errorf("a program ran: %q", term.Raw())
			}
		})
	}
}

func TestMaxSessions(t *testing.T) {
	ts := start(t, func(c *Config) { c.MaxSessions = 1 })
	first := ts.dial(t, ts.alice, sshtest.Options{})
	first.WaitForText("hello analyst")
	second := ts.dial(t, ts.bob, sshtest.Options{})
	if err := second.Ended(); exitStatus(err) != 1 || !strings.Contains(second.Stderr(), "busy") {
		t.Fatalf("the second session ended with %v, stderr %q; want busy and status 1", err, second.Stderr())
	}
	first.Type("q")
	first.Ended()
	ts.dial(t, ts.bob, sshtest.Options{}).WaitForText("hello admin")
	if !strings.Contains(ts.log.String(), "busy") {
		t.Errorf("the log does not say busy:\n%s", ts.log)
	}
}

func TestIdleSessionEnds(t *testing.T) {
	ts := start(t, func(c *Config) { c.Idle = shortWhile })
	term := ts.dial(t, ts.bob, sshtest.Options{})
	if err := term.Ended(); err != nil {
		t.Fatalf("ended with %v", err)
	}
	if !strings.Contains(term.Raw(), "no key pressed for") {
		t.Errorf("no idle notice in %q", term.Raw())
	}
	if !strings.Contains(ts.log.String(), "why=idle") {
		t.Errorf("the log does not say idle:\n%s", ts.log)
	}
}

// shortWhile is the idle limit and login grace of these tests: short, so
// they end soon; they assert no timing.
const shortWhile = 300 * time.Millisecond

func TestPerAddressRate(t *testing.T) {
	ts := start(t, func(c *Config) { c.PerMinute = 2 })
	for range 2 {
		ts.dial(t, ts.bob, sshtest.Options{}).WaitForText("hello admin")
	}
	if _, err := sshtest.Dial(t, ts.Addr(), ts.bob, sshtest.Options{}); err == nil {
		t.Fatal("a third connection within the minute was let in")
	}
	if !strings.Contains(ts.log.String(), "too many from this address") {
		t.Errorf("the log does not say why:\n%s", ts.log)
	}
}

// TestLoginGrace: a connection that never completes a login is closed,
// so idle handshakes cannot hold the server's connections.
func TestLoginGrace(t *testing.T) {
	ts := start(t, func(c *Config) { c.LoginGrace = shortWhile })
	conn, err := net.Dial("tcp", ts.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The server sends its version line, then waits for ours; we send none.
	if _, err := io.Copy(io.Discard, conn); err != nil {
		t.Fatalf("the connection ended with %v, want the server to close it", err)
	}
}

func TestPanicEndsThatSessionOnly(t *testing.T) {
	ts := start(t, nil)
	alice := ts.dial(t, ts.alice, sshtest.Options{})
	bob := ts.dial(t, ts.bob, sshtest.Options{})
	alice.WaitForText("hello analyst")
	bob.WaitForText("hello admin")
	alice.Type("p")
	if err := alice.Ended(); exitStatus(err) != 1 {
		t.Errorf("the panicking session ended with %v, want status 1", err)
	}
	if !strings.Contains(alice.Stderr(), "internal error") {
		t.Errorf("stderr %q does not say what happened", alice.Stderr())
	}
	bob.Type("k")
	bob.WaitForText("typed [k]")
	ts.dial(t, ts.alice, sshtest.Options{}).WaitForText("hello analyst")
	if !strings.Contains(ts.log.String(), "session panicked") {
		t.Errorf("the log does not have the panic:\n%s", ts.log)
	}
}

func TestShutdownEndsSessionsWithANotice(t *testing.T) {
	ts := start(t, nil)
	term := ts.dial(t, ts.bob, sshtest.Options{})
	term.WaitForText("hello admin")
	ctx, cancel := context.WithTimeout(context.Background(), sshtest.Wait)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := term.Ended(); err != nil {
		t.Errorf("ended with %v", err)
	}
	if !strings.Contains(term.Raw(), "the server is stopping") {
		t.Errorf("no notice in %q", term.Raw())
	}
	if _, err := sshtest.Dial(t, ts.Addr(), ts.bob, sshtest.Options{}); err == nil {
		t.Error("a stopped server took a connection")
	}
}

func TestStartRefuses(t *testing.T) {
	key := sshtest.NewKey(t)
	tests := []struct {
		name     string
		keys     string
		keyMode  os.FileMode
		keysMode os.FileMode
		want     string
	}{
		{name: "a line without user", keys: "# x\n" + key.Line("", "a") + "\n", want: "line 2: no user="},
		{name: "no key", keys: "# nobody yet\n", want: "no key in it"},
		{name: "a host key others may read", keys: key.Line(`user="admin"`, "") + "\n", keyMode: 0o644, want: "readable by others"},
		{name: "a keys file others may write", keys: key.Line(`user="admin"`, "") + "\n", keysMode: 0o666, want: "others may write it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			keysPath, hostKey := filepath.Join(dir, "keys"), filepath.Join(dir, "host")
			if err := os.WriteFile(keysPath, []byte(tt.keys), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.keysMode != 0 {
				if err := os.Chmod(keysPath, tt.keysMode); err != nil {
					t.Fatal(err)
				}
			}
			cfg := Config{Addr: "127.0.0.1:0", HostKeyPath: hostKey, AuthorizedKeysPath: keysPath,
				Program: func(Session) (tea.Model, error) { return &echo{}, nil }, Stop: stopMsg{}}
			if tt.keyMode != 0 {
				if s, err := Start(cfg); err != nil {
					t.Fatal(err)
				} else {
					s.Shutdown(t.Context())
				}
				if err := os.Chmod(hostKey, tt.keyMode); err != nil {
					t.Fatal(err)
				}
			}
			if s, err := Start(cfg); err == nil {
				s.Shutdown(t.Context())
				t.Fatal("started")
			} else if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// TestHostKeyMadeOnce: the first start writes an ed25519 host key only its
// owner may read; the next start uses the same key.
func TestHostKeyMadeOnce(t *testing.T) {
	var dir string
	first := start(t, func(c *Config) { dir = filepath.Dir(c.HostKeyPath) })
	info, err := os.Stat(filepath.Join(dir, "host_ed25519"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("host key %v, mode %v; want 0600", err, info.Mode().Perm())
	}
	ctx, cancel := context.WithTimeout(context.Background(), sshtest.Wait)
	defer cancel()
	first.Shutdown(ctx)
	second := start(t, func(c *Config) { c.HostKeyPath = filepath.Join(dir, "host_ed25519") })
	if first.HostKey() != second.HostKey() || !strings.HasPrefix(second.HostKey(), "SHA256:") {
		t.Errorf("host key %s, then %s", first.HostKey(), second.HostKey())
	}
}

// rewriteKeys replaces the keys file with lines, as editors save: a new
// file renamed over the old one.
func rewriteKeys(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path+".new", []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// TestKeysFileFollowedWhileRunning: a person added to the file gets in
// without a restart; removed, they no longer do.
func TestKeysFileFollowedWhileRunning(t *testing.T) {
	var keysPath string
	ts := start(t, func(c *Config) { keysPath = c.AuthorizedKeysPath })
	carol := sshtest.NewKey(t)
	if _, err := sshtest.Dial(t, ts.Addr(), carol, sshtest.Options{}); err == nil {
		t.Fatal("carol got in before she was in the file")
	}
	alice, bob := ts.alice.Line(`user="analyst",read-only`, "alice@laptop"), ts.bob.Line(`user="admin"`, "bob@desk")
	rewriteKeys(t, keysPath, alice, bob, carol.Line(`user="viewer"`, "carol"))
	ts.dial(t, carol, sshtest.Options{}).WaitForText("hello viewer")
	rewriteKeys(t, keysPath, alice, bob)
	if _, err := sshtest.Dial(t, ts.Addr(), carol, sshtest.Options{}); err == nil {
		t.Fatal("carol still gets in after her line was removed")
	}
	if !strings.Contains(ts.log.String(), "authorized keys read again") {
		t.Errorf("the log does not say the file was read again:\n%s", ts.log)
	}
}

// TestRemovedOrChangedKeyEndsItsSessions: a key taken out of the file, or
// given other rights there, ends its running sessions within KeysEvery,
// each with a notice; sessions whose line kept its meaning (a new comment
// aside) go on.
func TestRemovedOrChangedKeyEndsItsSessions(t *testing.T) {
	var keysPath string
	ts := start(t, func(c *Config) { keysPath = c.AuthorizedKeysPath; c.KeysEvery = 20 * time.Millisecond })
	carol, dave, erin := sshtest.NewKey(t), sshtest.NewKey(t), sshtest.NewKey(t)
	alice := ts.alice.Line(`user="analyst",read-only`, "alice@laptop")
	rewriteKeys(t, keysPath, alice, ts.bob.Line(`user="admin"`, "bob@desk"),
		carol.Line(`user="viewer"`, "carol"), dave.Line(`user="viewer"`, "dave"), erin.Line(`user="viewer"`, "erin"))
	terms := map[string]*sshtest.Terminal{}
	for name, key := range map[string]sshtest.Key{"alice": ts.alice, "bob": ts.bob, "carol": carol, "dave": dave, "erin": erin} {
		terms[name] = ts.dial(t, key, sshtest.Options{})
		terms[name].WaitForText("hello ")
	}
	// carol removed, dave read-only now, erin another user; bob's comment
	// changed and his line moved; alice's line as it was.
	rewriteKeys(t, keysPath, dave.Line(`user="viewer",read-only`, "dave"), erin.Line(`user="admin"`, "erin"),
		alice, ts.bob.Line(`user="admin"`, "bob@laptop"))
	for _, name := range []string{"carol", "dave", "erin"} {
		if err := terms[name].Ended(); err != nil {
			t.Errorf("%s's session ended with %v", name, err)
		}
		if !strings.Contains(terms[name].Raw(), "your key was removed from or changed") {
			t.Errorf("%s got no notice: %q", name, terms[name].Raw())
		}
	}
	for _, name := range []string{"alice", "bob"} {
		terms[name].Type("k")
		terms[name].WaitForText("typed [k]")
	}
	if n := strings.Count(ts.log.String(), `why="key removed or changed"`); n != 3 {
		t.Errorf("the log has %d sessions ended for their key, want 3:\n%s", n, ts.log)
	}
}

// TestRemovedKeyEndsItsSessionsThoughALoginReadTheFileFirst: a login just
// after the change reads the file before the next look at the running
// sessions does; the removed key's session ends all the same.
func TestRemovedKeyEndsItsSessionsThoughALoginReadTheFileFirst(t *testing.T) {
	var keysPath string
	ts := start(t, func(c *Config) { keysPath = c.AuthorizedKeysPath; c.KeysEvery = time.Second })
	carol := sshtest.NewKey(t)
	alice, bob := ts.alice.Line(`user="analyst",read-only`, "alice@laptop"), ts.bob.Line(`user="admin"`, "bob@desk")
	rewriteKeys(t, keysPath, alice, bob, carol.Line(`user="viewer"`, "carol"))
	term := ts.dial(t, carol, sshtest.Options{})
	term.WaitForText("hello viewer")
	rewriteKeys(t, keysPath, alice, bob)
	ts.dial(t, ts.bob, sshtest.Options{}).WaitForText("hello admin")
	if err := term.Ended(); err != nil {
		t.Errorf("carol's session ended with %v", err)
	}
}

// TestSessionsPerConnectionAreCapped: one connection holds at most
// PerConnection sessions at once, so one key cannot take every session over
// a single connection, past the per-address rate; a closed session frees
// its slot, and other connections still get in.
func TestSessionsPerConnectionAreCapped(t *testing.T) {
	ts := start(t, nil)
	client, err := sshtest.Connect(ts.Addr(), ts.bob)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var open []*sshtest.Terminal
	for i := range DefaultPerConnection {
		term, err := sshtest.Open(t, client, sshtest.Options{})
		if err != nil {
			t.Fatalf("session %d: %v", i+1, err)
		}
		term.WaitForText("hello admin")
		open = append(open, term)
	}
	want := fmt.Sprintf("at most %d sessions on one connection", DefaultPerConnection)
	if _, err := sshtest.Open(t, client, sshtest.Options{}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("session %d on one connection: %v; want it refused with %q", DefaultPerConnection+1, err, want)
	}
	ts.dial(t, ts.alice, sshtest.Options{}).WaitForText("hello analyst")
	open[0].Type("q")
	if err := open[0].Ended(); err != nil {
		t.Fatal(err)
	}
	// The slot is free once both sides closed the channel.
	deadline := time.Now().Add(sshtest.Wait)
	for {
		term, err := sshtest.Open(t, client, sshtest.Options{})
		if err == nil {
			term.WaitForText("hello admin")
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot of a closed session was not freed: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(ts.log.String(), "too many on one connection") {
		t.Errorf("the log does not say why:\n%s", ts.log)
	}
}
