package credentials

import (
	"errors"
	"fmt"
	"io"
)

// Start is what a run of the console or of the command line gives the
// credential lookup from its process; tests replace every part.
type Start struct {
	ProfilesPath string
	Getenv       func(string) string
	// Stdin answers the prompts; nil asks nothing (the command line when
	// standard input is not a terminal).
	Stdin io.Reader
	// Prompts is where questions and the keyring's advice go (stderr).
	Prompts io.Writer
	// LoginScreen: a start that names no server and finds no default
	// profile asks nothing, because the console opens on its login screen.
	LoginScreen bool
}

// Lookup is the credential lookup of the console and of the command line:
// flags, then the profile; the password from DAP_PASSWORD, the keyring, or a
// masked prompt (see Resolve). When the keyring is unavailable it says so in
// one sentence and carries on.
func Lookup(req Request, start Start) (Session, error) {
	profiles, err := LoadProfiles(start.ProfilesPath)
	if err != nil {
		return Session{}, err
	}
	var prompt *Prompter
	if start.Stdin != nil {
		prompt = NewPrompter(start.Stdin, start.Prompts)
	}
	if _, hasDefault := profiles.DefaultProfile(); start.LoginScreen && req.Server == "" && req.Profile == "" && !hasDefault {
		prompt = nil
	}
	return Resolve(req, Env{Profiles: profiles, Getenv: start.Getenv, Prompt: prompt})
}

// ErrNoCredentials is a run without a terminal that lacks a server, a user
// or a password: it fails at once instead of waiting for an answer.
var ErrNoCredentials = errors.New("no credentials")

// Incomplete says what a session that is not Complete lacks and how to give
// it, as one sentence wrapping ErrNoCredentials.
func Incomplete(s Session) error {
	switch {
	case s.Profile.Server == "":
		return fmt.Errorf("%w: no server: give --server URL or --profile NAME, or save a profile with dapconsole login", ErrNoCredentials)
	case s.Profile.User == "":
		return fmt.Errorf("%w: no user for %s: give --user NAME, or save a profile with dapconsole login", ErrNoCredentials, s.Profile.Server)
	case s.Notice != "":
		// The keyring is unavailable: dapconsole login would store nothing
		// here, so it is not offered.
		return fmt.Errorf("%w: no password for %s and no terminal to ask on: set %s (the OS keyring is unavailable here, so dapconsole login cannot store it)",
			ErrNoCredentials, Key(s.Profile.User, s.Profile.Server), PasswordEnv)
	}
	return fmt.Errorf("%w: no password for %s and no terminal to ask on: set %s, or store it with dapconsole login",
		ErrNoCredentials, Key(s.Profile.User, s.Profile.Server), PasswordEnv)
}
