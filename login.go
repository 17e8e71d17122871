package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dapconsole/dapconsole/credentials"
)

// loginTimeout bounds the one authenticated call that checks the credentials.
const loginTimeout = 20 * time.Second

// accountIO is what login, logout and the console's credential lookup take
// from the process; tests replace every part.
type accountIO struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	profilesPath   string
	verify         credentials.Verifier
}

func processAccountIO() (accountIO, error) {
	path, err := credentials.ProfilesPath()
	if err != nil {
		return accountIO{}, err
	}
	return accountIO{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv:       os.Getenv,
		profilesPath: path,
		verify:       credentials.CheckWithServer,
	}, nil
}

func runLogin(args []string) error {
	env, err := processAccountIO()
	if err != nil {
		return err
	}
	return login(args, env)
}

func runLogout(args []string) error {
	env, err := processAccountIO()
	if err != nil {
		return err
	}
	return logout(args, env)
}

// login asks for what the flags and the profile leave missing, checks the
// credentials with one call and only then saves the profile and the password.
func login(args []string, env accountIO) error {
	flags := flag.NewFlagSet("login", flag.ContinueOnError)
	flags.SetOutput(env.stderr)
	server := flags.String("server", "", "server `URL`, e.g. https://dap.example.com")
	user := flags.String("user", "", "user `NAME`")
	profileName := flags.String("profile", "", "profile `NAME` to create or update (default: the default profile, or \"default\")")
	readOnly := flags.Bool("read-only", false, "mark the profile read-only: the console disables every write")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("login: unexpected argument %q", flags.Arg(0))
	}
	profiles, err := credentials.LoadProfiles(env.profilesPath)
	if err != nil {
		return err
	}
	name := *profileName
	if name == "" {
		name = cmp.Or(profiles.Default, credentials.DefaultProfileName)
	}
	if err := credentials.ValidateProfileName(name); err != nil {
		return err
	}
	profile, existed := profiles.Get(name)
	profile.Name = name
	if *server != "" {
		profile.Server = *server
	}
	if *user != "" {
		profile.User = *user
	}
	flags.Visit(func(f *flag.Flag) {
		if f.Name == "read-only" {
			profile.ReadOnly = *readOnly
		}
	})

	if profile.Server != "" {
		if profile.Server, err = credentials.NormalizeServer(profile.Server); err != nil {
			return fmt.Errorf("login: %w", err)
		}
	}
	prompt := credentials.NewPrompter(env.stdin, env.stdout)
	if err := prompt.AskAccount(&profile); err != nil {
		return fmt.Errorf("login: %w", err)
	}
	saved, notice, err := loginTries(env, prompt, profiles, profile)
	if err != nil {
		return err
	}
	verb := "saved"
	if existed {
		verb = "updated"
	}
	fmt.Fprintf(env.stdout, "Logged in as %s; profile %s %s%s.\n",
		credentials.Key(saved.User, saved.Server), name, verb, defaultNote(profiles, name))
	if notice != "" {
		fmt.Fprintln(env.stderr, notice)
	}
	return nil
}

// passwordTries is how often login asks for a password the server refuses.
const passwordTries = 3

// loginTries asks for the password and checks it, again after a refusal
// (a mistyped password), up to passwordTries times.
func loginTries(env accountIO, prompt *credentials.Prompter, profiles *credentials.Profiles, profile credentials.Profile) (credentials.Profile, string, error) {
	var refused error
	for try := 1; ; try++ {
		password, err := prompt.Password("Password for " + credentials.Key(profile.User, profile.Server))
		if err != nil {
			if refused != nil {
				return credentials.Profile{}, "", refused // stdin ran out after a refusal
			}
			return credentials.Profile{}, "", fmt.Errorf("login: %w", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), loginTimeout)
		saved, notice, err := credentials.Login(ctx, profiles, profile, password, env.verify)
		cancel()
		if err == nil || !errors.Is(err, credentials.ErrRefused) || try == passwordTries {
			return saved, notice, err
		}
		refused = err
		fmt.Fprintf(env.stdout, "The server refused the password (try %d of %d).\n", try, passwordTries)
	}
}

func defaultNote(profiles *credentials.Profiles, name string) string {
	if profiles.Default == name {
		return " (the default)"
	}
	return "; use it with --profile " + name
}

// logout removes the stored password of a profile and keeps the profile,
// so the next start asks only for the password; with --forget it removes
// the profile too. Where there is no keyring nothing was stored: logout
// then removes the profile, the one thing login left on this host.
func logout(args []string, env accountIO) error {
	flags := flag.NewFlagSet("logout", flag.ContinueOnError)
	flags.SetOutput(env.stderr)
	profileName := flags.String("profile", "", "profile `NAME` (default: the default profile)")
	forget := flags.Bool("forget", false, "remove the profile as well as its password")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("logout: unexpected argument %q", flags.Arg(0))
	}
	profiles, err := credentials.LoadProfiles(env.profilesPath)
	if err != nil {
		return err
	}
	name := cmp.Or(*profileName, profiles.Default)
	if name == "" {
		return errors.New("logout: no profile yet; dapconsole login creates one")
	}
	profile, ok := profiles.Get(name)
	if !ok {
		return fmt.Errorf("logout: profile %q not found", name)
	}
	account := credentials.Key(profile.User, profile.Server)
	err = credentials.Logout(profile)
	var unavailable *credentials.UnavailableError
	switch {
	case errors.Is(err, credentials.ErrNoPassword):
		fmt.Fprintf(env.stdout, "No password stored for profile %s (%s).\n", name, account)
	case errors.As(err, &unavailable):
		fmt.Fprintf(env.stdout, "No password of %s was stored on this host: %v.\n", account, unavailable)
		*forget = true
	case err != nil:
		return err
	default:
		fmt.Fprintf(env.stdout, "Logged out of profile %s: password of %s removed from the keyring.\n", name, account)
	}
	if !*forget {
		return nil
	}
	profiles.Remove(name)
	if err := profiles.Save(); err != nil {
		return fmt.Errorf("logout: remove profile %s: %w", name, err)
	}
	fmt.Fprintf(env.stdout, "Profile %s removed.\n", name)
	return nil
}

// resolveConsoleSession is the console's credential lookup: it asks on the
// terminal for what is missing, except at a first start, which opens on the
// login screen.
func resolveConsoleSession(req credentials.Request, env accountIO) (credentials.Session, error) {
	return credentials.Lookup(req, credentials.Start{
		ProfilesPath: env.profilesPath, Getenv: env.getenv,
		Stdin: env.stdin, Prompts: env.stderr, LoginScreen: true,
	})
}
