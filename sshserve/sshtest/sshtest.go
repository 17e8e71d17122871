// Package sshtest is the SSH client the tests of dapconsole ssh use: a
// golang.org/x/crypto/ssh session with a pty, whose output feeds a virtual
// terminal, so a test reads the screen a person would see and types keys.
package sshtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"
)

// Wait is how long Terminal.WaitFor waits for a screen before failing.
const Wait = 15 * time.Second

// Key is a new ed25519 key: its signer, and its line for an
// authorized_keys file with the given options.
type Key struct {
	Signer gossh.Signer
}

// NewKey makes a key.
func NewKey(t testing.TB) Key {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return Key{Signer: signer}
}

// Line is the key's authorized_keys line, with options before it (e.g.
// `user="analyst",read-only`) and comment after.
func (k Key) Line(options, comment string) string {
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.Signer.PublicKey())))
	if options != "" {
		line = options + " " + line
	}
	if comment != "" {
		line += " " + comment
	}
	return line
}

// Options of a Terminal.
type Options struct {
	Width, Height int
	Term          string   // TERM of the pty request; xterm-256color when empty
	Env           []string // NAME=VALUE sent before the shell
	NoPty         bool
	Command       string // run this instead of a shell
}

// Terminal is one SSH session drawn into a virtual terminal.
type Terminal struct {
	t       testing.TB
	client  *gossh.Client
	session *gossh.Session
	stdin   io.WriteCloser

	mu     sync.Mutex
	screen *vt.Emulator
	raw    bytes.Buffer // everything the session wrote, escape sequences and all
	stderr bytes.Buffer
	ended  chan struct{} // closed when the output ends
	exit   error
}

// Dial connects to addr with key. It returns the error of the handshake (a
// refused key) instead of failing, so tests can expect one.
func Dial(t testing.TB, addr string, key Key, opts Options) (*Terminal, error) {
	t.Helper()
	cfg := &gossh.ClientConfig{
		User:            "anyone",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(key.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // a test server's key made a moment ago
		Timeout:         Wait,
	}
	client, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		return nil, err
	}
	session, err := client.NewSession()
	if err != nil {
		client.Close()
		return nil, err
	}
	if opts.Width == 0 {
		opts.Width, opts.Height = 80, 24
	}
	if opts.Term == "" {
		opts.Term = "xterm-256color"
	}
	term := &Terminal{t: t, client: client, session: session, screen: vt.NewEmulator(opts.Width, opts.Height), ended: make(chan struct{})}
	t.Cleanup(term.Close)
	for _, kv := range opts.Env {
		name, value, _ := strings.Cut(kv, "=")
		if err := session.Setenv(name, value); err != nil {
			return nil, fmt.Errorf("setenv %s: %w", name, err)
		}
	}
	if !opts.NoPty {
		if err := session.RequestPty(opts.Term, opts.Height, opts.Width, gossh.TerminalModes{}); err != nil {
			return nil, fmt.Errorf("pty: %w", err)
		}
	}
	if term.stdin, err = session.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := session.StdoutPipe()
	if err != nil {
		return nil, err
	}
	session.Stderr = lockedWriter{&term.mu, &term.stderr}
	if opts.Command != "" {
		err = session.Start(opts.Command)
	} else {
		err = session.Shell()
	}
	if err != nil {
		return nil, err
	}
	go term.draw(stdout)
	go term.answer()
	return term, nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// draw feeds the session's output to the virtual terminal.
func (term *Terminal) draw(stdout io.Reader) {
	buf := make([]byte, 32*1024)
	for {
		n, err := stdout.Read(buf)
		if n > 0 {
			term.mu.Lock()
			term.raw.Write(buf[:n])
			term.screen.Write(buf[:n])
			term.mu.Unlock()
		}
		if err != nil {
			break
		}
	}
	exit := term.session.Wait()
	term.mu.Lock()
	term.exit = exit
	term.mu.Unlock()
	close(term.ended)
}

// answer sends the terminal's replies (to queries such as its background
// colour) back to the program, as a real terminal does.
func (term *Terminal) answer() {
	buf := make([]byte, 1024)
	for {
		n, err := term.screen.Read(buf)
		if n > 0 {
			term.stdin.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// Screen is the text on the screen now, one line a row, trailing spaces cut.
func (term *Terminal) Screen() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	lines := strings.Split(term.screen.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Raw is everything the session wrote so far.
func (term *Terminal) Raw() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.raw.String()
}

// Stderr is what the session wrote to its standard error.
func (term *Terminal) Stderr() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.stderr.String()
}

// WaitFor waits until the screen satisfies ok, and fails the test with the
// screen when it does not within Wait.
func (term *Terminal) WaitFor(what string, ok func(screen string) bool) string {
	term.t.Helper()
	deadline := time.Now().Add(Wait)
	for {
		screen := term.Screen()
		if ok(screen) {
			return screen
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("waited for %s; the screen is:\n%s\nstderr: %s", what, screen, term.Stderr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitForText waits until the screen shows every one of texts.
func (term *Terminal) WaitForText(texts ...string) string {
	term.t.Helper()
	return term.WaitFor(fmt.Sprintf("%q", texts), func(screen string) bool {
		for _, text := range texts {
			if !strings.Contains(screen, text) {
				return false
			}
		}
		return true
	})
}

// Type sends text as typed keys.
func (term *Terminal) Type(text string) {
	term.t.Helper()
	if _, err := io.WriteString(term.stdin, text); err != nil {
		term.t.Fatalf("type %q: %v", text, err)
	}
}

// Resize changes the window, as a terminal whose window was dragged does.
func (term *Terminal) Resize(width, height int) {
	term.t.Helper()
	term.mu.Lock()
	term.screen.Resize(width, height)
	term.mu.Unlock()
	if err := term.session.WindowChange(height, width); err != nil {
		term.t.Fatalf("window change: %v", err)
	}
}

// Ended waits until the session ends and returns its exit error (nil for
// status 0); it fails the test if that takes longer than Wait.
func (term *Terminal) Ended() error {
	term.t.Helper()
	select {
	case <-term.ended:
	case <-time.After(Wait):
		term.t.Fatalf("the session did not end; the screen is:\n%s", term.Screen())
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.exit
}

// Close ends the session and the connection.
func (term *Terminal) Close() {
	term.session.Close()
	term.client.Close()
	// Closing the replies' pipe ends answer; the emulator's own Close would
	// race with the Read answer is blocked in.
	if replies, ok := term.screen.InputPipe().(*io.PipeWriter); ok {
		replies.Close()
	}
}
