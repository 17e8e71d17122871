package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/mattn/go-runewidth"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/store"
	"github.com/dapconsole/dapconsole/ui"
	"github.com/dapconsole/dapconsole/ui/common"
	loginscreen "github.com/dapconsole/dapconsole/ui/login"
)

// demoUser is the account --demo logs in as (seeded with the demo data).
const demoUser = "admin"

// runConsole is `dapconsole [--demo] [--server URL] [--user NAME]
// [--profile NAME] [--read-only]`.
func runConsole(args []string) error {
	fs := flag.NewFlagSet("dapconsole", flag.ContinueOnError)
	demo := fs.Bool("demo", false, "start the embedded platform with demo data on 127.0.0.1 and open the console on it as admin")
	serverURL := fs.String("server", "", "base URL of the platform, e.g. https://dap.example.com")
	user := fs.String("user", "", "user name")
	profile := fs.String("profile", "", "named profile (see dapconsole login)")
	readOnly := fs.Bool("read-only", false, "disable every key that writes to the server")
	mouse := fs.Bool("mouse", false, "the mouse wheel scrolls and a click on a tab switches panes (the terminal's text selection then needs shift)")
	serverData := fs.String("server-data", "", "data directory of the server, on the server's host: new connections' passwords leave sealed with its key, as SECURE: values")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), consoleUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (sub-commands: %s)", fs.Arg(0), subcommands)
	}
	if *demo {
		if *serverURL != "" || *profile != "" || *serverData != "" {
			return errors.New("--demo runs its own server: leave out --server, --profile and --server-data")
		}
		return runDemo(*readOnly, *mouse)
	}
	session, err := lookupSession(credentials.Request{Profile: *profile, Server: *serverURL, User: *user, ReadOnly: *readOnly})
	if err != nil {
		return err
	}
	if session.Notice != "" {
		fmt.Fprintln(os.Stderr, session.Notice)
	}
	var client *api.Client
	if session.Complete() {
		client = api.New(session.Profile.Server, session.Profile.User, session.Password)
	}
	ctx := common.NewContext(client, session.Profile.Server, session.Profile.User, session.Profile.Name, session.Profile.ReadOnly)
	if *serverData != "" {
		if ctx.Seal, err = sealerOf(*serverData); err != nil {
			return err
		}
	}
	return runProgram(ctx, *readOnly, *mouse)
}

// sealerOf seals secrets with the key of the data directory dir. It reads
// an existing key only: a new one would seal what the server cannot open.
func sealerOf(dir string) (func(string) string, error) {
	if _, err := os.Stat(filepath.Join(dir, store.KeyFile)); err != nil {
		return nil, fmt.Errorf("--server-data %s: no secrets key of a server there: %w", dir, err)
	}
	secrets, err := store.OpenSecrets(dir)
	if err != nil {
		return nil, fmt.Errorf("--server-data: %w", err)
	}
	return secrets.Seal, nil
}

// lookupSession decides server, user and password: flags, profile,
// DAP_PASSWORD, the OS keyring, then a masked prompt on the terminal.
func lookupSession(req credentials.Request) (credentials.Session, error) {
	env, err := processAccountIO()
	if err != nil {
		return credentials.Session{}, err
	}
	return resolveConsoleSession(req, env)
}

// runDemo starts the embedded platform with demo data, runs the console on
// it as admin, and removes its data directory at exit.
func runDemo(readOnly, mouse bool) error {
	demo, err := startDemo()
	if err != nil {
		return err
	}
	defer demo.stop()
	client := api.New(demo.URL, demoUser, demoUser)
	ctx := common.NewContext(client, demo.URL, demoUser, "demo", readOnly)
	ctx.Seal = demo.seal
	return runProgram(ctx, readOnly, mouse)
}

// demoPlatform is the embedded platform with demo data, in a temporary data
// directory, on a free loopback port.
type demoPlatform struct {
	URL     string
	dir     string
	running *server.Running
	seal    func(string) string // with the server's own key
}

func startDemo() (*demoPlatform, error) {
	dir, err := os.MkdirTemp("", "dapconsole-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo data directory: %w", err)
	}
	running, err := server.Start(server.Config{DataDir: dir, DemoData: true}, "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start the demo server: %w", err)
	}
	demo := &demoPlatform{URL: running.URL, dir: dir, running: running}
	if demo.seal, err = sealerOf(dir); err != nil {
		demo.stop()
		return nil, err
	}
	return demo, nil
}

// stop shuts the server down and removes the data directory.
func (d *demoPlatform) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.running.Shutdown(ctx)
	os.RemoveAll(d.dir)
}

// runProgram runs the console until the user quits.
func runProgram(ctx *common.Context, forceReadOnly, mouse bool) error {
	// The first frame shows the root folder: its request leaves now, while
	// the terminal is set up and the first views are drawn, so that the
	// answer is in by the renderer's first tick. The other panes' reads
	// (the running jobs among them) wait until that frame is out (see
	// ui.Model.awaitFirstFrame).
	reads, cancelReads := context.WithCancel(context.Background())
	defer cancelReads()
	if client := ctx.Client; client != nil {
		ctx.FirstRoot = common.StartEarly(reads, client.RootFolder)
	}
	path, err := credentials.ProfilesPath()
	if err != nil {
		return err
	}
	ctx.Profiles = savedProfiles{path: path}
	loginCfg := loginscreen.Config{ProfilesPath: path, Verify: credentials.CheckWithServer, ForceReadOnly: forceReadOnly}
	m := ui.New(ui.Options{
		Context: ctx,
		Login: func(c *common.Context) common.Dialog {
			return loginscreen.New(c, loginCfg, "")
		},
		Commands: []common.Command{loginscreen.ProfileCommand(ctx, loginCfg, os.Getenv)},
		Mouse:    mouse,
	})
	// A closed SSH session sends SIGHUP, which would end the process on the
	// spot; ending the program instead lets the demo remove its data
	// directory and stop its server. (Bubble Tea handles SIGINT and SIGTERM.)
	hangup, stop := signal.NotifyContext(context.Background(), syscall.SIGHUP)
	defer stop()
	// The width table of characters past U+02FF (the ellipsis, the tree's
	// lines) is built on first use, which takes milliseconds: build it while
	// the terminal starts and the first reads are in flight, not in the
	// first frame.
	go runewidth.StringWidth("…")
	// At 120 frames a second, a frame waits at most 8 ms for the renderer's
	// tick (Bubble Tea draws only on its tick): the tree shows that much
	// sooner after the root folder arrives. lipgloss detected the colour
	// profile at its init from the same stdout and environment Bubble Tea
	// would detect it from again before its renderer starts (inside tmux
	// each detection runs `tmux info`, milliseconds).
	program := tea.NewProgram(m, tea.WithContext(hangup), tea.WithFPS(120), tea.WithColorProfile(lipgloss.Writer.Profile))
	_, err = program.Run()
	if hangup.Err() != nil {
		return nil
	}
	return withoutTTY(err)
}

// withoutTTY says in plain words that the console found no terminal, where
// Bubble Tea says "bubbletea: could not open TTY: …".
func withoutTTY(err error) error {
	if err != nil && strings.Contains(err.Error(), "could not open TTY") {
		return errors.New("the console needs a terminal and found none: run it in one (over ssh, with ssh -t); the login, logout and profile commands need none")
	}
	return err
}

// savedProfiles are the profiles a folder may be copied to from the
// console. Each connects with its password from DAP_PASSWORD or the
// keyring, asking nothing: the console owns the terminal. The console
// holds no key of another platform's, so no seal.
type savedProfiles struct{ path string }

func (s savedProfiles) Names() ([]string, error) {
	profiles, err := credentials.LoadProfiles(s.path)
	if err != nil {
		return nil, err
	}
	return profiles.Names(), nil
}

func (s savedProfiles) Connect(name string) (*api.Client, func(string) string, error) {
	session, err := credentials.Lookup(credentials.Request{Profile: name},
		credentials.Start{ProfilesPath: s.path, Getenv: os.Getenv, Prompts: io.Discard})
	if err != nil {
		return nil, nil, err
	}
	if !session.Complete() {
		return nil, nil, credentials.Incomplete(session)
	}
	var opts []api.Option
	if session.Profile.ReadOnly {
		opts = append(opts, api.WithReadOnly())
	}
	return api.New(session.Profile.Server, session.Profile.User, session.Password, opts...), nil, nil
}
