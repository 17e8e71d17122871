package credentials

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
)

// PasswordEnv is the environment variable scripts and keyring-less hosts use.
const PasswordEnv = "DAP_PASSWORD"

// Request is what the command line says about the connection of a run.
type Request struct {
	Profile  string // --profile; empty means the default profile
	Server   string // --server, overrides the profile's
	User     string // --user, overrides the profile's
	ReadOnly bool   // --read-only; a read-only profile stays read-only regardless
}

// Source says where a session's password came from.
type Source int

const (
	SourceNone    Source = iota // no password yet: the console shows its login screen
	SourceEnv                   // DAP_PASSWORD
	SourceKeyring               // the OS keyring
	SourcePrompt                // typed at this start, kept in memory only
)

func (s Source) String() string {
	return [...]string{"none", PasswordEnv, "keyring", "prompt"}[s]
}

// Session is everything a console run needs to connect.
type Session struct {
	Profile  Profile // Name is empty when flags alone chose server and user
	Password string
	Source   Source
	// Notice is one sentence for the caller to show when the keyring could
	// not be used; empty when Resolve already printed it before prompting.
	Notice string
}

// Complete reports whether the session can connect without asking anything.
func (s Session) Complete() bool {
	return s.Profile.Server != "" && s.Profile.User != "" && s.Source != SourceNone
}

// Env is what Resolve may consult besides the request.
type Env struct {
	Profiles *Profiles
	Getenv   func(string) string
	// Prompt asks for what is missing; nil leaves it missing (Complete is
	// false), for a caller that shows a login screen instead.
	Prompt *Prompter
}

// Resolve decides server, user, password and read-only for a console run.
// Server and user: flags, then the profile, then the prompt. Password:
// DAP_PASSWORD, then the OS keyring, then the prompt. An unavailable keyring
// is not an error: the session carries on and says so in Notice.
func Resolve(req Request, env Env) (Session, error) {
	profile, err := chooseProfile(req, env.Profiles)
	if err != nil {
		return Session{}, err
	}
	session := Session{Profile: profile}
	if env.Prompt != nil {
		if err := env.Prompt.AskAccount(&session.Profile); err != nil {
			return Session{}, err
		}
	}
	if session.Profile.Server == "" || session.Profile.User == "" {
		return session, nil
	}

	if password := getenv(env, PasswordEnv); password != "" {
		session.Password, session.Source = password, SourceEnv
		return session, nil
	}
	password, err := LookupPassword(session.Profile.Server, session.Profile.User)
	var unavailable *UnavailableError
	switch {
	case err == nil:
		session.Password, session.Source = password, SourceKeyring
		return session, nil
	case errors.As(err, &unavailable):
		session.Notice = unavailable.Advice()
	} // else ErrNoPassword: ask

	if env.Prompt == nil {
		return session, nil
	}
	if session.Notice != "" {
		fmt.Fprintln(env.Prompt.out, session.Notice) // why the password is asked
		session.Notice = ""
	}
	password, err = env.Prompt.Password("Password for " + Key(session.Profile.User, session.Profile.Server))
	if err != nil {
		return Session{}, fmt.Errorf("%w (set %s or run dapconsole login)", err, PasswordEnv)
	}
	session.Password, session.Source = password, SourcePrompt
	return session, nil
}

// chooseProfile picks the named profile, else the account --server and
// --user name (no profile), else the profile matching --server, else the
// default one, then applies the flags. Flags that name
// another account than the profile's keep only what they did not override.
func chooseProfile(req Request, profiles *Profiles) (Profile, error) {
	if profiles == nil {
		profiles = &Profiles{}
	}
	var server string
	if req.Server != "" {
		var err error
		if server, err = NormalizeServer(req.Server); err != nil {
			return Profile{}, err
		}
	}
	var profile Profile
	switch {
	case req.Profile == "" && server != "" && req.User != "":
		// Both named on the command line: the account is the one asked
		// for, and no saved profile of it (read-only, say) changes it.
		return Profile{Server: server, User: req.User, ReadOnly: req.ReadOnly}, nil
	case req.Profile != "":
		named, ok := profiles.Get(req.Profile)
		if !ok {
			return Profile{}, unknownProfile(req.Profile, profiles)
		}
		profile = named
	case server != "":
		profile, _ = profiles.Match(server, req.User)
	default:
		profile, _ = profiles.DefaultProfile()
	}
	if (server != "" && server != profile.Server) || (req.User != "" && req.User != profile.User) {
		profile = Profile{Server: cmp.Or(server, profile.Server), User: cmp.Or(req.User, profile.User)}
	}
	profile.ReadOnly = profile.ReadOnly || req.ReadOnly
	return profile, nil
}

func unknownProfile(name string, profiles *Profiles) error {
	if names := profiles.Names(); len(names) > 0 {
		return fmt.Errorf("profile %q not found (profiles: %s); create it with dapconsole login --profile %s",
			name, strings.Join(names, ", "), name)
	}
	return fmt.Errorf("profile %q not found (no profiles yet); create it with dapconsole login --profile %s", name, name)
}

func getenv(env Env, name string) string {
	if env.Getenv == nil {
		return ""
	}
	return env.Getenv(name)
}
