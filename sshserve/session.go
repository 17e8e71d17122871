package sshserve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/scp"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
)

// liveSession is a running session: how to stop it once it runs, and the
// first reason it was asked to stop.
type liveSession struct {
	stopMsg tea.Msg
	key     gossh.PublicKey // the key the connection proved
	entry   Entry           // its line when the session began

	mu     sync.Mutex
	end    func() // asks what runs to end: a program's Stop, a transfer's close
	reason string // for the log
	notice string // the line the person reads after the program ended
}

// stop asks the session to end; the first reason wins.
func (l *liveSession) stop(reason, notice string) {
	l.mu.Lock()
	if l.reason == "" {
		l.reason, l.notice = reason, notice
	}
	end := l.end
	l.mu.Unlock()
	if end != nil {
		go end() // a program's Send returns once it reads the Stop or has ended
	}
}

// onStop says how to end what now runs; a stop asked for before is passed
// on now.
func (l *liveSession) onStop(end func()) {
	l.mu.Lock()
	l.end = end
	asked := l.reason != ""
	l.mu.Unlock()
	if asked {
		go end()
	}
}

func (l *liveSession) outcome() (reason, notice string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reason, l.notice
}

// served is a session as the handlers inside session see it: the key's
// entry, the session's record, a window channel sized for the renderer and
// a context that ends with the session.
type served struct {
	ssh.Session
	entry    Entry
	readOnly bool // the key's read-only option, or Config.ReadOnly
	live     *liveSession
	log      *slog.Logger
	input    *activity

	ctx   sessionContext
	pty   ssh.Pty
	winch chan ssh.Window
	isPty bool

	files    *userFiles // a file transfer's directory
	transfer bool       // a file transfer: bytes either way count as activity

	// Set by the handlers inside session when they decide how it ends; a
	// console's is decided by its program.
	ended string
	code  int
	quit  atomic.Bool // the program read a tea.QuitMsg: it ended as it meant to
}

func (sv *served) Context() ssh.Context { return sv.ctx }

func (sv *served) Read(p []byte) (int, error) { return sv.input.Read(p) }

func (sv *served) Write(p []byte) (int, error) {
	if sv.transfer {
		sv.input.touch()
	}
	return sv.Session.Write(p)
}

// end records why the session ends and its exit status.
func (sv *served) end(reason string, code int) { sv.ended, sv.code = reason, code }

// refuse tells the person why nothing is served, and logs it.
func (sv *served) refuse(why, reason string) {
	sv.log.Warn("ssh: session refused", "why", why)
	fmt.Fprintln(sv.Stderr(), "dapconsole: "+why)
	sv.end(reason, 1)
}

func (sv *served) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return sv.pty, sv.winch, sv.isPty }

// sessionContext is the connection's context (its values, user and key)
// that ends with the session instead of the connection. Wish's Bubble Tea
// middleware quits a program when its session's context ends, which would
// race with, and cut short, the Stop message that cancels and cleans up
// what the program was doing; a disconnect is told by watch instead.
type sessionContext struct {
	ssh.Context
	done context.Context
}

func (c sessionContext) Done() <-chan struct{}       { return c.done.Done() }
func (c sessionContext) Err() error                  { return c.done.Err() }
func (c sessionContext) Deadline() (time.Time, bool) { return c.done.Deadline() }

// session is the outermost middleware: it finds the key's entry, counts the
// session against the limits, logs its start and end, and ends it with the
// right status. A panic, in the handlers or while building the program,
// ends this session only.
func (s *Server) session(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		began := time.Now()
		if gate, ok := sess.Context().Value(gateKey{}).(*connGate); ok {
			gate.opened.Store(true)
		}
		from := sess.RemoteAddr().String()
		// The key is looked up again from the one the connection proved:
		// authorize may also have been asked about keys the client only offered.
		var entry Entry
		found := false
		key := sess.PublicKey()
		if key != nil {
			entry, found = s.keys.lookup(key)
		}
		if !found {
			s.log.Warn("ssh: session refused: key no longer authorized", "from", from)
			refuse(sess, "this key is no longer authorized")
			return
		}
		log := s.log.With("user", entry.User, "key", entry.Fingerprint, "comment", entry.Comment, "from", from)
		l := &liveSession{stopMsg: s.cfg.Stop, key: key, entry: entry}
		if err := s.enter(l); err != nil {
			log.Warn("ssh: session refused", "why", err.Error())
			refuse(sess, err.Error())
			return
		}
		defer s.leave(l)

		done, cancel := context.WithCancel(context.Background())
		defer cancel()
		sv := &served{Session: sess, entry: entry, readOnly: entry.ReadOnly || s.cfg.ReadOnly, live: l, log: log, input: newActivity(sess),
			ctx: sessionContext{Context: sess.Context(), done: done}}
		pty, winch, isPty := sess.Pty()
		if isPty {
			pty.Window.Width, pty.Window.Height = clampSize(pty.Window)
			sv.pty, sv.isPty, sv.winch = pty, true, make(chan ssh.Window, 1)
			go forwardWindows(winch, sv.winch, done, func() { l.stop("the client disconnected", "") })
			log.Info("ssh: session started", "read_only", sv.readOnly, "term", pty.Term,
				"width", pty.Window.Width, "height", pty.Window.Height)
		}
		go s.watch(sess.Context(), l, sv.input, done.Done())

		reason, code := s.handle(next, sv)
		log.Info("ssh: session ended", "after", time.Since(began).Round(time.Millisecond).String(), "why", reason)
		sess.Exit(code)
	}
}

// handle runs the handlers inside session and says why the session ended.
func (s *Server) handle(next ssh.Handler, sv *served) (reason string, code int) {
	defer func() {
		if r := recover(); r != nil {
			sv.log.Error("ssh: session panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			reason, code = "panic", 1
			fmt.Fprintln(sv.Stderr(), crashNotice)
		}
	}()
	next(sv)
	if sv.ended != "" {
		return sv.ended, sv.code
	}
	reason, notice := sv.live.outcome()
	if !sv.quit.Load() {
		// Bubble Tea caught a panic (or an error) and ended the program
		// without its quit; the middleware does not pass the error on.
		sv.log.Error("ssh: session panicked (the stack is on the server's standard error)")
		fmt.Fprintln(sv.Stderr(), crashNotice)
		return "panic", 1
	}
	if notice != "" {
		fmt.Fprintln(sv, notice)
	}
	if reason == "" {
		reason = "quit"
	}
	return reason, 0
}

// refuse ends a session before any program ran, saying why.
func refuse(sess ssh.Session, why string) {
	fmt.Fprintln(sess.Stderr(), "dapconsole: "+why)
	sess.Exit(1)
}

// route sends a session where it asks to go: sftp, scp, or the console
// (which needs a terminal and takes no command).
func (s *Server) route(next ssh.Handler) ssh.Handler {
	copyFiles := scp.Middleware(scpFiles{}, scpFiles{})(func(ssh.Session) {})
	return func(sess ssh.Session) {
		sv := sess.(*served)
		switch {
		case sess.Subsystem() == "sftp":
			s.transfer(sv, "sftp", serveSFTP)
		case scp.GetInfo(sess.Command()).Ok:
			s.transfer(sv, "scp", func(sv *served) error {
				if scp.GetInfo(sess.Command()).Op == scp.OpCopyToClient {
					copyFiles(newSCPSource(sv))
				} else {
					copyFiles(sv)
				}
				return nil
			})
		case sess.RawCommand() != "":
			sv.refuse("the console takes no command (files: scp or sftp): connect without one", "refused: a command")
		case !sv.isPty:
			sv.refuse("the console needs a terminal: connect with ssh -t", "refused: no terminal")
		default:
			next(sess)
		}
	}
}

// program builds the program of a console session, for wish's Bubble Tea
// middleware to run; nil (after telling the person why) runs none.
func (s *Server) program(sess ssh.Session) *tea.Program {
	sv := sess.(*served)
	env := clientEnviron(sess.Environ(), sv.pty.Term)
	info := Session{
		User: sv.entry.User, ReadOnly: sv.readOnly, Key: sv.entry,
		RemoteAddr: sess.RemoteAddr().String(), Environ: env,
		Profile: colorprofile.Env(env), NoColor: noColor(env),
		Width: sv.pty.Window.Width, Height: sv.pty.Window.Height,
	}
	model, err := s.cfg.Program(info)
	if err != nil {
		sv.refuse(err.Error(), "refused: "+err.Error())
		return nil
	}
	p := tea.NewProgram(model,
		tea.WithInput(sv), tea.WithOutput(sess),
		tea.WithEnvironment(env), tea.WithColorProfile(info.Profile),
		tea.WithWindowSize(info.Width, info.Height),
		tea.WithoutSignalHandler(), // the server handles signals, for every session at once
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.QuitMsg); ok {
				sv.quit.Store(true)
			}
			return msg
		}),
	)
	sv.live.onStop(func() { p.Send(s.cfg.Stop) })
	return p
}

const crashNotice = "dapconsole: the console stopped on an internal error; it was logged, and other sessions go on."

// forwardWindows passes the client's window changes on, each clamped,
// until the session is done; then it drops them. The client's channel holds
// the pty's first size too and closes when the client closes the session
// (which ends it, as a disconnect does); it must be drained, or the
// session's requests would wait.
func forwardWindows(in <-chan ssh.Window, out chan<- ssh.Window, done context.Context, closed func()) {
	for w := range in {
		w.Width, w.Height = clampSize(w)
		select {
		case out <- w:
		case <-done.Done():
		}
	}
	closed()
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

// watch stops the session when the client goes away (conn ends with the
// connection) or, with an idle limit, when no key came for that long.
func (s *Server) watch(conn context.Context, l *liveSession, input *activity, ended <-chan struct{}) {
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
		case <-conn.Done():
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

// touch notes activity other than input: a transfer's bytes sent.
func (a *activity) touch() { a.last.Store(time.Now().UnixNano()) }

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
