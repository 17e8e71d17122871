package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/sshserve"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui"
	"github.com/dapconsole/dapconsole/ui/common"
	loginscreen "github.com/dapconsole/dapconsole/ui/login"
)

// sshFlags are the options of `dapconsole ssh`.
type sshFlags struct {
	server   string
	demo     bool
	readOnly bool
	files    string
	ssh      sshserve.Config
}

// runSSH is `dapconsole ssh --addr HOST:PORT --host-key FILE
// --authorized-keys FILE (--server URL | --demo)`: the console served over
// SSH, one program per session, until SIGINT or SIGTERM.
func runSSH(args []string) error {
	f, err := parseSSHFlags(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	running, err := startTeam(f, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		return err
	}
	fmt.Printf("ssh listening on %s (host key %s)\n", running.ssh.Addr(), running.ssh.HostKey())
	<-ctx.Done()
	return running.stop()
}

func parseSSHFlags(args []string) (sshFlags, error) {
	var f sshFlags
	fs := flag.NewFlagSet("ssh", flag.ContinueOnError)
	fs.StringVar(&f.ssh.Addr, "addr", "127.0.0.1:2222", "address to listen on (HOST:PORT; port 0 picks a free one)")
	fs.StringVar(&f.ssh.HostKeyPath, "host-key", "", "the server's private host key (ed25519, generated there with mode 0600 when absent)")
	fs.StringVar(&f.ssh.AuthorizedKeysPath, "authorized-keys", "", `OpenSSH authorized_keys whose lines say user="NAME" (the platform user) and may say read-only; read again when it changes`)
	fs.StringVar(&f.server, "server", "", "base URL of the platform the sessions use")
	fs.BoolVar(&f.demo, "demo", false, "serve the embedded platform with demo data; each key logs in as the demo user it names (admin, analyst, viewer)")
	fs.BoolVar(&f.readOnly, "read-only", false, "every session read-only, whatever its key says")
	fs.StringVar(&f.files, "files", "", "directory of the people's backup and restore ZIPs on this host, one DIR/USER each that their paths cannot leave, which their sftp and scp reach (default: files beside the host key)")
	fs.IntVar(&f.ssh.MaxSessions, "max-sessions", sshserve.DefaultMaxSessions, "sessions at once; the next is told the server is busy")
	fs.DurationVar(&f.ssh.Idle, "idle", 30*time.Minute, "a session with no key pressed for this long is closed (0: never)")
	fs.IntVar(&f.ssh.PerMinute, "per-ip", sshserve.DefaultPerMinute, "connections one address may open a minute")
	fs.IntVar(&f.ssh.PerConnection, "per-connection", sshserve.DefaultPerConnection, "sessions one connection may hold open at once")
	fs.Int64Var(&f.ssh.FilesBytes, "files-max", sshserve.DefaultFilesBytes, "bytes one person's files directory may hold; a file sent with sftp or scp past it is refused")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	switch {
	case fs.NArg() > 0:
		return f, fmt.Errorf("ssh: unexpected argument %q", fs.Arg(0))
	case f.ssh.HostKeyPath == "" || f.ssh.AuthorizedKeysPath == "":
		return f, errors.New("ssh: --host-key FILE and --authorized-keys FILE are required")
	case f.demo == (f.server != ""):
		return f, errors.New("ssh: say which platform: --server URL, or --demo")
	case f.ssh.MaxSessions <= 0 || f.ssh.PerMinute <= 0 || f.ssh.PerConnection <= 0 || f.ssh.FilesBytes <= 0 || f.ssh.Idle < 0:
		return f, errors.New("ssh: --max-sessions, --per-ip, --per-connection and --files-max must be positive, --idle not negative")
	}
	if f.files == "" {
		f.files = filepath.Join(filepath.Dir(f.ssh.HostKeyPath), "files")
	}
	if f.server != "" {
		server, err := credentials.NormalizeServer(f.server)
		if err != nil {
			return f, fmt.Errorf("ssh: --server: %w", err)
		}
		f.server = server
	}
	return f, nil
}

// team is a running `dapconsole ssh`: the SSH server and, with --demo, the
// embedded platform its sessions use.
type team struct {
	flags        sshFlags
	server       string // the platform's URL
	demo         *demoPlatform
	profilesPath string
	ssh          *sshserve.Server

	mu    sync.Mutex
	files map[string]*os.Root // each user's directory, shared by their sessions
}

func startTeam(f sshFlags, log *slog.Logger) (*team, error) {
	t := &team{flags: f, server: f.server, files: map[string]*os.Root{}}
	if f.demo {
		demo, err := startDemo()
		if err != nil {
			return nil, err
		}
		t.demo, t.server = demo, demo.URL
	} else {
		path, err := credentials.ProfilesPath()
		if err != nil {
			return nil, err
		}
		t.profilesPath = path
	}
	cfg := f.ssh
	cfg.Log = log
	cfg.ReadOnly = f.readOnly
	cfg.Files = t.filesOf
	cfg.Program = t.console
	cfg.Stop = ui.StopMsg{}
	var err error
	if t.ssh, err = sshserve.Start(cfg); err != nil {
		if t.demo != nil {
			t.demo.stop()
		}
		return nil, err
	}
	return t, nil
}

// stop ends every session as its quit would, then the platform of --demo.
func (t *team) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err := t.ssh.Shutdown(ctx)
	if t.demo != nil {
		t.demo.stop()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, root := range t.files {
		root.Close()
	}
	return err
}

// filesOf is user's directory under --files, made (mode 0700) on first use.
func (t *team) filesOf(user string) (*os.Root, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if root, ok := t.files[user]; ok {
		return root, nil
	}
	dir := filepath.Join(t.flags.files, user)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("your files directory: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("your files directory: %w", err)
	}
	t.files[user] = root
	return root, nil
}

// console builds the console of one session: the platform user its key
// names, read-only when the key (or --read-only) says so, the client's
// colours, backups and restores in the user's own directory, no editor
// run on this host. With --demo it is logged in at once; otherwise it uses the
// host's keyring entry for that user if there is one, else it opens the
// login screen, whose password stays in this session's memory.
func (t *team) console(s sshserve.Session) (tea.Model, error) {
	readOnly := s.ReadOnly // the key's, or --read-only
	ctx := common.NewContext(nil, t.server, s.User, "ssh", readOnly)
	ctx.Styles = theme.New(true, s.NoColor)
	ctx.Served = true
	files, err := t.filesOf(s.User)
	if err != nil {
		return nil, err
	}
	ctx.Files = files
	if t.demo != nil {
		password, ok := server.DemoPassword(s.User)
		if !ok {
			return nil, fmt.Errorf("%q is not a demo user (admin, analyst, viewer): ask for your key's user= to be one of them", s.User)
		}
		ctx.Client = api.New(t.server, s.User, password)
		ctx.Seal = t.demo.seal
	} else if password, ok := t.storedPassword(s.User); ok {
		ctx.Client = api.New(t.server, s.User, password)
	}
	login := loginscreen.Config{Verify: credentials.CheckWithServer, ForceReadOnly: readOnly, Served: true}
	return ui.New(ui.Options{
		Context: ctx,
		Login:   func(c *common.Context) common.Dialog { return loginscreen.New(c, login, "") },
	}), nil
}

// storedPassword is the host keyring's password of user on the platform;
// DAP_PASSWORD is not consulted, since it would be one password for everyone.
func (t *team) storedPassword(user string) (string, bool) {
	profiles, err := credentials.LoadProfiles(t.profilesPath)
	if err != nil {
		return "", false
	}
	session, err := credentials.Resolve(credentials.Request{Server: t.server, User: user},
		credentials.Env{Profiles: profiles})
	if err != nil || !session.Complete() {
		return "", false
	}
	return session.Password, true
}
