package sshserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults of Config's limits.
const (
	DefaultMaxSessions   = 32
	DefaultPerConnection = 4
	DefaultPerMinute     = 20
	DefaultLoginGrace    = time.Minute
	DefaultKeysEvery     = 2 * time.Second
	// DefaultFilesBytes is what a user's files directory may hold before
	// sftp and scp refuse to write more: two restore uploads at their cap.
	DefaultFilesBytes = 1 << 30
)

// Config is what Start needs.
type Config struct {
	Addr               string // HOST:PORT; port 0 picks a free one
	HostKeyPath        string // generated (ed25519, mode 0600) when absent
	AuthorizedKeysPath string

	MaxSessions int           // sessions at once; the next is told "busy" (0: DefaultMaxSessions)
	Idle        time.Duration // a session with no key pressed for this long ends (0: never)
	PerMinute   int           // connections one address may open a minute (0: DefaultPerMinute)
	LoginGrace  time.Duration // a connection with no session by then is closed (0: DefaultLoginGrace)
	// PerConnection is how many sessions one connection may hold open at
	// once (0: DefaultPerConnection); the next is refused. Without it one
	// connection, past the per-address rate, could take every session.
	PerConnection int
	// KeysEvery is how often the keys file is read again for the sessions
	// running: one whose key was removed or given another user or rights
	// ends within about this long (0: DefaultKeysEvery).
	KeysEvery time.Duration

	ReadOnly bool // every session read-only, whatever its key says

	// Files is the directory of user's files on this host, which scp and
	// sftp sessions of that user's keys reach (read-only keys only fetch);
	// nil serves no file transfer.
	Files func(user string) (*os.Root, error)
	// FilesBytes is what one directory may hold: a file sent that would
	// grow it past this is refused (0: DefaultFilesBytes).
	FilesBytes int64

	Log *slog.Logger // nil: slog.Default()

	// Program builds the model of a new session; an error is shown to the
	// person and ends the session.
	Program func(Session) (tea.Model, error)
	// Stop is sent to a program to end it as its own quit would (running
	// work cancelled and cleaned up), on idle, disconnect and server stop.
	Stop tea.Msg
}

// Session is what a program learns of the person it serves.
type Session struct {
	User     string // the platform user of the key (user="NAME")
	ReadOnly bool   // the key's read-only option, or Config.ReadOnly
	Key      Entry

	RemoteAddr string
	// Environ is the client's terminal environment only (TERM from the pty
	// request, COLORTERM, NO_COLOR, …), never the server's.
	Environ       []string
	Width, Height int
	Profile       colorprofile.Profile
	NoColor       bool // the client sent NO_COLOR
}

// Server is a running SSH server.
type Server struct {
	cfg      Config
	log      *slog.Logger
	keys     *authorizedKeys
	limit    *perAddress
	srv      *ssh.Server
	listener net.Listener
	hostKey  string // fingerprint, for the log and for clients to check

	mu       sync.Mutex
	stopping bool
	live     map[*liveSession]struct{}
	handlers sync.WaitGroup
	stopped  chan struct{} // closed by Shutdown: followKeys ends
}

// Start checks the configuration, generates the host key if absent, reads
// the authorized keys (a bad line refuses to start, naming it) and listens.
func Start(cfg Config) (*Server, error) {
	if cfg.Program == nil || cfg.Stop == nil {
		return nil, errors.New("ssh: Config.Program and Config.Stop are required")
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.PerMinute <= 0 {
		cfg.PerMinute = DefaultPerMinute
	}
	if cfg.LoginGrace <= 0 {
		cfg.LoginGrace = DefaultLoginGrace
	}
	if cfg.PerConnection <= 0 {
		cfg.PerConnection = DefaultPerConnection
	}
	if cfg.KeysEvery <= 0 {
		cfg.KeysEvery = DefaultKeysEvery
	}
	if cfg.FilesBytes <= 0 {
		cfg.FilesBytes = DefaultFilesBytes
	}
	s := &Server{cfg: cfg, log: cfg.Log, limit: newPerAddress(cfg.PerMinute),
		live: map[*liveSession]struct{}{}, stopped: make(chan struct{})}
	if s.log == nil {
		s.log = slog.Default()
	}
	var err error
	if s.keys, err = loadAuthorizedKeys(cfg.AuthorizedKeysPath); err != nil {
		return nil, err
	}
	if cfg.HostKeyPath == "" {
		return nil, errors.New("ssh: a host key path is required (generated there when absent)")
	}
	s.srv, err = wish.NewServer(
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithPublicKeyAuth(s.authorize),
		// Composed inside out: a session is first checked and counted
		// (session), then routed (route), and a console is run by wish's
		// Bubble Tea middleware with the program of program.
		wish.WithMiddleware(bm.MiddlewareWithProgramHandler(s.program), s.route, s.session),
	)
	if err != nil {
		return nil, fmt.Errorf("ssh: host key %s: %w", cfg.HostKeyPath, err)
	}
	if err := checkPrivate(cfg.HostKeyPath); err != nil {
		return nil, err
	}
	s.hostKey = gossh.FingerprintSHA256(s.srv.HostSigners[0].PublicKey())
	s.srv.ConnCallback = s.admit
	s.srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.channel}
	// sftp is a subsystem, which the server hands to its own handler: it
	// goes through the same middlewares, and route serves it.
	s.srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{"sftp": ssh.SubsystemHandler(s.srv.Handler)}
	if s.listener, err = net.Listen("tcp", cfg.Addr); err != nil {
		return nil, fmt.Errorf("ssh: %w", err)
	}
	go s.srv.Serve(s.listener)
	go s.followKeys()
	s.log.Info("ssh: listening", "addr", s.Addr(), "host_key", s.hostKey, "keys", s.keys.count())
	return s, nil
}

// checkPrivate refuses a host key others may read, as sshd does.
func checkPrivate(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("ssh: host key: %w", err)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("ssh: host key %s is readable by others (mode %v): chmod 600 it", path, info.Mode().Perm())
	}
	return nil
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.listener.Addr().String() }

// HostKey is the SHA256 fingerprint of the host key.
func (s *Server) HostKey() string { return s.hostKey }

// connGate records whether a connection opened a session, so that one that
// only holds a handshake open is closed after LoginGrace, and how many
// session channels it holds open.
type connGate struct {
	opened   atomic.Bool
	channels atomic.Int32
}

type gateKey struct{}

// admit runs before the handshake: the per-address rate, and the login grace.
func (s *Server) admit(ctx ssh.Context, conn net.Conn) net.Conn {
	if !s.limit.allow(conn.RemoteAddr()) {
		s.log.Warn("ssh: connection refused: too many from this address", "from", conn.RemoteAddr().String())
		return nil
	}
	gate := &connGate{}
	ctx.SetValue(gateKey{}, gate)
	time.AfterFunc(s.cfg.LoginGrace, func() {
		if !gate.opened.Load() {
			conn.Close()
		}
	})
	return conn
}

// channel opens a session channel unless its connection already holds
// PerConnection of them; the slot is free again once the channel closed.
func (s *Server) channel(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	gate, ok := ctx.Value(gateKey{}).(*connGate)
	if !ok {
		ch.Reject(gossh.ConnectionFailed, "no connection gate") // admit sets one on every connection
		return
	}
	if int(gate.channels.Add(1)) > s.cfg.PerConnection {
		gate.channels.Add(-1)
		s.log.Warn("ssh: session refused: too many on one connection", "from", conn.RemoteAddr().String(), "max", s.cfg.PerConnection)
		ch.Reject(gossh.ResourceShortage, fmt.Sprintf("at most %d sessions on one connection", s.cfg.PerConnection))
		return
	}
	defer gate.channels.Add(-1)
	ssh.DefaultSessionHandler(srv, conn, ch, ctx)
}

// refreshKeys reads the keys file again if it changed, and logs the outcome.
func (s *Server) refreshKeys() {
	changed, err := s.keys.refresh()
	switch {
	case !changed:
	case err != nil:
		s.log.Error("ssh: authorized keys unreadable: nobody may log in until they are fixed, and running sessions end", "err", err)
	default:
		s.log.Info("ssh: authorized keys read again", "keys", s.keys.count())
	}
}

// followKeys reads the keys file every KeysEvery and ends each running
// session whose key it no longer holds, or holds for another user or with
// other rights. A file that no longer parses ends them all, as it lets
// nobody in: failing open could keep a removed key alive. Every session is
// looked up at every tick, not only when this read found a change: a login
// in between may have read the changed file first.
func (s *Server) followKeys() {
	tick := time.NewTicker(s.cfg.KeysEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stopped:
			return
		case <-tick.C:
		}
		s.refreshKeys()
		for _, l := range s.running() {
			if now, ok := s.keys.lookup(l.key); !ok || now.User != l.entry.User || now.ReadOnly != l.entry.ReadOnly {
				l.stop("key removed or changed", "dapconsole: your key was removed from or changed in the server's keys file: the session was closed.")
			}
		}
	}
}

// running is the sessions running now.
func (s *Server) running() []*liveSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	live := make([]*liveSession, 0, len(s.live))
	for l := range s.live {
		live = append(live, l)
	}
	return live
}

// authorize is public-key authentication against the file as it is now.
// It may be asked about keys the client only offers; the session looks its
// key up again (see session).
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	s.refreshKeys()
	if _, ok := s.keys.lookup(key); ok {
		return true
	}
	s.log.Warn("ssh: key refused", "from", ctx.RemoteAddr().String(), "ssh_user", ctx.User(), "key", gossh.FingerprintSHA256(key))
	return false
}

// Shutdown stops accepting, asks every session to end (they show why after
// their program ends) and waits for them until ctx ends; then it closes
// whatever connections remain.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.stopping {
		close(s.stopped)
	}
	s.stopping = true
	s.mu.Unlock()
	live := s.running()
	s.listener.Close()
	for _, l := range live {
		l.stop("the server is stopping", "dapconsole: the server is stopping; what ran in this session was cancelled.")
	}
	done := make(chan struct{})
	go func() {
		s.handlers.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
		s.log.Info("ssh: stopped", "sessions_ended", len(live))
	case <-ctx.Done():
		err = fmt.Errorf("ssh: sessions still running at shutdown: %w", ctx.Err())
		s.log.Error("ssh: stopped before every session had ended", "sessions", len(live))
	}
	s.srv.Close()
	return err
}

// errStopping refuses a session that comes while the server stops.
var errStopping = errors.New("the server is stopping")

// enter registers a session, unless the server stops or is full.
func (s *Server) enter(l *liveSession) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopping:
		return errStopping
	case len(s.live) >= s.cfg.MaxSessions:
		return fmt.Errorf("busy: no session free (this server takes %d at once); try again later", s.cfg.MaxSessions)
	}
	s.live[l] = struct{}{}
	s.handlers.Add(1)
	return nil
}

func (s *Server) leave(l *liveSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.live, l)
	s.handlers.Done()
}

// Sessions counts the sessions running now.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}
