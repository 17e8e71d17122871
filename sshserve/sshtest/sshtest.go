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

// maxScreen bounds the virtual terminal's sides, so a test may ask the
// server for a window far larger than it would draw without building one.
const maxScreen = 200

// Wait is how long Terminal.WaitFor waits for a screen before failing.
// Under the race detector on a loaded 2-core machine a backup of the whole
// demo platform alone takes over 20 s.
const Wait = 45 * time.Second

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

// Screen is a virtual terminal: what a program writes to it is drawn as a
// terminal would, and its replies to the program's queries (its background
// colour, its modes) come out of Replies.
type Screen struct {
	t       testing.TB
	mu      sync.Mutex
	vt      *vt.Emulator
	raw     bytes.Buffer  // everything written, escape sequences and all
	changed chan struct{} // a token after each write
}

// NewScreen returns a screen of width×height.
func NewScreen(t testing.TB, width, height int) *Screen {
	return &Screen{t: t, vt: vt.NewEmulator(width, height), changed: make(chan struct{}, 1)}
}

// Write draws p.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.raw.Write(p)
	s.vt.Write(p)
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// Replies is what the terminal answers, to be sent to the program's input;
// it ends when the screen is closed.
func (s *Screen) Replies() io.Reader { return s.vt }

// Close ends Replies. (The emulator's own Close would race with a Read
// blocked in Replies: closing its pipe does not.)
func (s *Screen) Close() {
	if replies, ok := s.vt.InputPipe().(*io.PipeWriter); ok {
		replies.Close()
	}
}

// Resize changes the screen's size, as a dragged window does.
func (s *Screen) Resize(width, height int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vt.Resize(width, height)
}

// Text is the text on the screen now, one line a row, trailing spaces cut.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.vt.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Raw is everything written so far.
func (s *Screen) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

// WaitFor waits until the screen satisfies ok, looking again after every
// write, and fails the test with the screen when it does not within Wait.
func (s *Screen) WaitFor(what string, ok func(screen string) bool) string {
	s.t.Helper()
	timeout := time.NewTimer(Wait)
	defer timeout.Stop()
	for {
		text := s.Text()
		if ok(text) {
			return text
		}
		select {
		case <-s.changed:
		case <-timeout.C:
			s.t.Fatalf("waited for %s; the screen is:\n%s", what, text)
		}
	}
}

// WaitForText waits until the screen shows every one of texts.
func (s *Screen) WaitForText(texts ...string) string {
	s.t.Helper()
	return s.WaitFor(fmt.Sprintf("%q", texts), func(screen string) bool {
		for _, text := range texts {
			if !strings.Contains(screen, text) {
				return false
			}
		}
		return true
	})
}

// Terminal is one SSH session drawn on a Screen.
type Terminal struct {
	*Screen
	client  *gossh.Client // nil when the connection is not the terminal's own
	session *gossh.Session
	stdin   io.WriteCloser

	stderr Buffer
	mu     sync.Mutex
	ended  chan struct{} // closed when the session ended
	exit   error
}

// Dial connects to addr with key and opens a session on the connection. It
// returns the error of the handshake (a refused key) instead of failing, so
// tests can expect one. Closing the terminal closes the connection too.
func Dial(t testing.TB, addr string, key Key, opts Options) (*Terminal, error) {
	t.Helper()
	client, err := Connect(addr, key)
	if err != nil {
		return nil, err
	}
	term, err := Open(t, client, opts)
	if err != nil {
		client.Close()
		return nil, err
	}
	term.client = client
	return term, nil
}

// Connect opens a connection to addr with key, on which Open opens sessions.
func Connect(addr string, key Key) (*gossh.Client, error) {
	cfg := &gossh.ClientConfig{
		User:            "anyone",
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(key.Signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // a test server's key made a moment ago
		Timeout:         Wait,
	}
	return gossh.Dial("tcp", addr, cfg)
}

// Open opens a session on client, with a pty unless opts say otherwise,
// and starts its shell or command. Closing the terminal leaves the
// connection open.
func Open(t testing.TB, client *gossh.Client, opts Options) (*Terminal, error) {
	t.Helper()
	session, err := client.NewSession()
	if err != nil {
		return nil, err
	}
	if opts.Width == 0 {
		opts.Width = 80
	}
	if opts.Height == 0 {
		opts.Height = 24
	}
	if opts.Term == "" {
		opts.Term = "xterm-256color"
	}
	term := &Terminal{Screen: NewScreen(t, min(opts.Width, maxScreen), min(opts.Height, maxScreen)), session: session, ended: make(chan struct{})}
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
	session.Stdout = term.Screen
	session.Stderr = &term.stderr
	if opts.Command != "" {
		err = session.Start(opts.Command)
	} else {
		err = session.Shell()
	}
	if err != nil {
		return nil, err
	}
	go func() {
		exit := session.Wait()
		term.mu.Lock()
		term.exit = exit
		term.mu.Unlock()
		close(term.ended)
	}()
	go io.Copy(term.stdin, term.Replies())
	return term, nil
}

// Buffer is a buffer one side writes while the other reads it: a server's
// log, a session's standard error.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Stderr is what the session wrote to its standard error.
func (term *Terminal) Stderr() string { return term.stderr.String() }

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
	term.Screen.Resize(min(width, maxScreen), min(height, maxScreen))
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
		term.t.Fatalf("the session did not end; the screen is:\n%s", term.Text())
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.exit
}

// Close ends the session, and the connection if Dial opened it.
func (term *Terminal) Close() {
	term.session.Close()
	if term.client != nil {
		term.client.Close()
	}
	term.Screen.Close()
}
