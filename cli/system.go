package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
)

// System is what the tree takes from its process; tests replace every part.
type System struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	ProfilesPath   string
	// ProfilesErr is why the profiles' path is not known (no home
	// directory): a command that needs credentials fails with it.
	ProfilesErr error
	// StdinTerminal: a prompt may ask for what is missing. StdoutTerminal
	// and StderrTerminal: colour and the progress bar may be drawn.
	StdinTerminal, StdoutTerminal, StderrTerminal bool
	// Timeout bounds every request but a transfer's (0: requestTimeout).
	Timeout time.Duration
}

// requestTimeout bounds each request but a transfer: a server that accepts
// the connection and never answers fails the command instead of hanging it.
const requestTimeout = 30 * time.Second

// ProcessSystem is the process's own standard streams and environment.
func ProcessSystem() System {
	path, err := credentials.ProfilesPath()
	return System{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv:         os.Getenv,
		ProfilesPath:   path,
		ProfilesErr:    err,
		StdinTerminal:  term.IsTerminal(os.Stdin.Fd()),
		StdoutTerminal: term.IsTerminal(os.Stdout.Fd()),
		StderrTerminal: term.IsTerminal(os.Stderr.Fd()),
	}
}

// colour reports whether stdout may carry colour (https://no-color.org).
func (s System) colour() bool {
	return s.StdoutTerminal && s.Getenv("NO_COLOR") == "" && s.Getenv("TERM") != "dumb"
}

// app is the state the commands share: the process and the global flags.
type app struct {
	sys System
	req credentials.Request
}

// connect resolves the credentials as the console does, asking on the
// terminal only, and returns the one client of this run. Without a terminal
// a missing password fails at once with how to give one.
func (a *app) connect() (*api.Client, error) { return a.connectTo(a.req) }

// connectTo is connect for another account than the global flags name
// (the target of a copy).
func (a *app) connectTo(req credentials.Request) (*api.Client, error) {
	if a.sys.ProfilesErr != nil {
		return nil, failed(a.sys.ProfilesErr)
	}
	start := credentials.Start{ProfilesPath: a.sys.ProfilesPath, Getenv: a.sys.Getenv, Prompts: a.sys.Stderr}
	if a.sys.StdinTerminal {
		start.Stdin = a.sys.Stdin
	}
	session, err := credentials.Lookup(req, start)
	if err != nil {
		return nil, failed(err)
	}
	if !session.Complete() {
		return nil, failed(credentials.Incomplete(session))
	}
	timeout := a.sys.Timeout
	if timeout == 0 {
		timeout = requestTimeout
	}
	opts := []api.Option{api.WithTimeout(timeout), api.WithUserAgent(api.DefaultUserAgent + "-cli")}
	if session.Profile.ReadOnly {
		opts = append(opts, api.WithReadOnly())
	}
	return api.New(session.Profile.Server, session.Profile.User, session.Password, opts...), nil
}

// completeProfiles offers the saved profiles' names after --profile.
func (a *app) completeProfiles(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
	profiles, err := credentials.LoadProfiles(a.sys.ProfilesPath)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, name := range profiles.Names() {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// interruptible is ctx cancelled by Ctrl-C or SIGTERM, so a transfer stops
// cleanly (its partial file removed) instead of the process ending mid-write.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}
