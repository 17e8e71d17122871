package sshserve

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/ssh"
)

// liveSession is a running session: its program, once built, and the first
// reason it was asked to stop.
type liveSession struct {
	stopMsg tea.Msg

	mu      sync.Mutex
	program *tea.Program
	reason  string // for the log
	notice  string // the line the person reads after the program ended
}

// stop asks the program to end as its own quit would; the first reason wins.
func (l *liveSession) stop(reason, notice string) {
	l.mu.Lock()
	if l.reason == "" {
		l.reason, l.notice = reason, notice
	}
	p := l.program
	l.mu.Unlock()
	if p != nil {
		go p.Send(l.stopMsg) // returns once the program reads it or has ended
	}
}

// started hands over the program; a stop asked for before it existed is
// passed on now.
func (l *liveSession) started(p *tea.Program) {
	l.mu.Lock()
	l.program = p
	asked := l.reason != ""
	l.mu.Unlock()
	if asked {
		go p.Send(l.stopMsg)
	}
}

func (l *liveSession) outcome() (reason, notice string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reason, l.notice
}

// serve is the handler of every session.
func (s *Server) serve(sess ssh.Session) {
	began := time.Now()
	if gate, ok := sess.Context().Value(gateKey{}).(*connGate); ok {
		gate.opened.Store(true)
	}
	from := sess.RemoteAddr().String()
	// The key is looked up again from the one the connection proved:
	// authorize may also have been asked about keys the client only offered.
	var entry Entry
	found := false
	if key := sess.PublicKey(); key != nil {
		entry, found = s.keys.lookup(key)
	}
	if !found {
		s.log.Warn("ssh: session refused: key no longer authorized", "from", from)
		refuse(sess, "this key is no longer authorized")
		return
	}
	log := s.log.With("user", entry.User, "key", entry.Fingerprint, "comment", entry.Comment, "from", from)
	pty, winch, isPty := sess.Pty()
	switch {
	case !isPty:
		log.Warn("ssh: session refused: no terminal")
		refuse(sess, "the console needs a terminal: connect with ssh -t")
		return
	case sess.RawCommand() != "":
		log.Warn("ssh: session refused: a command was given")
		refuse(sess, "the console takes no command: connect without one")
		return
	}
	l := &liveSession{stopMsg: s.cfg.Stop}
	if err := s.enter(l); err != nil {
		log.Warn("ssh: session refused", "why", err.Error())
		refuse(sess, err.Error())
		return
	}
	defer s.leave(l)
	log.Info("ssh: session started", "read_only", entry.ReadOnly, "term", pty.Term,
		"width", pty.Window.Width, "height", pty.Window.Height)
	reason, code := s.run(sess, l, entry, pty, winch, log)
	log.Info("ssh: session ended", "after", time.Since(began).Round(time.Millisecond).String(), "why", reason)
	sess.Exit(code)
}

// refuse ends a session before any program ran, saying why.
func refuse(sess ssh.Session, why string) {
	fmt.Fprintln(sess.Stderr(), "dapconsole: "+why)
	sess.Exit(1)
}

// run builds and runs the session's program until it ends, and returns why
// it ended. A panic, in the program or here, ends this session only.
func (s *Server) run(sess ssh.Session, l *liveSession, entry Entry, pty ssh.Pty, winch <-chan ssh.Window, log *slog.Logger) (reason string, code int) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("ssh: session panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			reason, code = "panic", 1
			fmt.Fprintln(sess.Stderr(), crashNotice)
		}
	}()
	env := clientEnviron(sess.Environ(), pty.Term)
	info := Session{
		User: entry.User, ReadOnly: entry.ReadOnly, Key: entry,
		RemoteAddr: sess.RemoteAddr().String(), Environ: env,
		Profile: colorprofile.Env(env), NoColor: noColor(env),
	}
	info.Width, info.Height = clampSize(pty.Window)
	model, err := s.cfg.Program(info)
	if err != nil {
		fmt.Fprintln(sess.Stderr(), "dapconsole: "+err.Error())
		return "refused: " + err.Error(), 1
	}
	input := newActivity(sess)
	p := tea.NewProgram(model,
		tea.WithInput(input), tea.WithOutput(sess),
		tea.WithEnvironment(env), tea.WithColorProfile(info.Profile),
		tea.WithWindowSize(info.Width, info.Height),
		tea.WithoutSignalHandler(), // the server handles signals, for every session at once
	)
	ended := make(chan struct{})
	defer close(ended)
	go resizes(p, winch)
	go s.watch(sess, l, input, ended)
	l.started(p)
	_, err = p.Run()
	reason, notice := l.outcome()
	if errors.Is(err, tea.ErrProgramPanic) {
		log.Error("ssh: session panicked (the stack is on the server's standard error)", "err", err.Error())
		fmt.Fprintln(sess.Stderr(), crashNotice)
		return "panic", 1
	}
	if notice != "" {
		fmt.Fprintln(sess, notice)
	}
	switch {
	case reason != "":
	case err != nil:
		reason = err.Error()
	default:
		reason = "quit"
	}
	return reason, 0
}

const crashNotice = "dapconsole: the console stopped on an internal error; it was logged, and other sessions go on."

// resizes passes the client's window changes to the program. The channel
// holds the pty's first size too, and closes when the session does; it must
// be drained, or the session's requests would wait.
func resizes(p *tea.Program, winch <-chan ssh.Window) {
	for w := range winch {
		width, height := clampSize(w)
		p.Send(tea.WindowSizeMsg{Width: width, Height: height})
	}
}

// Largest window a session is drawn for. The renderer keeps a cell buffer of
// the window's size: a client asking for a million columns would otherwise
// have the server allocate it, for every session's cost.
const (
	maxWidth  = 512
	maxHeight = 256
)

func clampSize(w ssh.Window) (width, height int) {
	return min(max(w.Width, 0), maxWidth), min(max(w.Height, 0), maxHeight)
}

// watch stops the session when the client goes away or, with an idle
// limit, when no key came for that long.
func (s *Server) watch(sess ssh.Session, l *liveSession, input *activity, ended <-chan struct{}) {
	var tick <-chan time.Time
	if s.cfg.Idle > 0 {
		t := time.NewTicker(min(max(s.cfg.Idle/10, 10*time.Millisecond), time.Minute))
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ended:
			return
		case <-sess.Context().Done():
			l.stop("the client disconnected", "")
			return
		case <-tick:
			if input.idleFor() >= s.cfg.Idle {
				l.stop("idle", fmt.Sprintf("dapconsole: no key pressed for %v: the session was closed.", s.cfg.Idle))
				return
			}
		}
	}
}

// activity is the session's input, noting when the last byte came.
type activity struct {
	r    io.Reader
	last atomic.Int64 // unix nanoseconds
}

func newActivity(r io.Reader) *activity {
	a := &activity{r: r}
	a.last.Store(time.Now().UnixNano())
	return a
}

func (a *activity) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		a.last.Store(time.Now().UnixNano())
	}
	return n, err
}

func (a *activity) idleFor() time.Duration { return time.Since(time.Unix(0, a.last.Load())) }

// clientTerminal are the client's variables a program may see: those that
// describe its terminal. The rest (and all of the server's) stay out.
var clientTerminal = []string{"COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "WT_SESSION", "LANG", "LC_ALL", "LC_CTYPE"}

// clientEnviron is the program's environment: TERM from the pty request,
// then the client's terminal variables.
func clientEnviron(sent []string, term string) []string {
	env := []string{"TERM=" + term}
	for _, kv := range sent {
		name, _, _ := strings.Cut(kv, "=")
		for _, allowed := range clientTerminal {
			if name == allowed {
				env = append(env, kv)
			}
		}
	}
	return env
}

// noColor reports a NO_COLOR the client sent (https://no-color.org: any
// non-empty value).
func noColor(env []string) bool {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "NO_COLOR="); ok && v != "" {
			return true
		}
	}
	return false
}
