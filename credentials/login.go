package credentials

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Verifier makes one authenticated call with the credentials; nil means the
// server accepted them.
type Verifier func(ctx context.Context, server, user, password string) error

// Login checks the credentials with one call to verify and only then saves the
// profile and stores the password in the keyring. When the keyring is
// unavailable the profile is still saved and notice says what to do instead.
//
// A profile without a name gets the name of the profile that already has its
// server and user, else "default" while that is free, else the server's host.
// The saved profile comes back with its final name and server.
func Login(ctx context.Context, profiles *Profiles, profile Profile, password string, verify Verifier) (saved Profile, notice string, err error) {
	server, err := NormalizeServer(profile.Server)
	if err != nil {
		return Profile{}, "", err
	}
	profile.Server = server
	profile.User = strings.TrimSpace(profile.User)
	if profile.User == "" {
		return Profile{}, "", errors.New("login: no user")
	}
	if profile.Name == "" {
		profile.Name = profiles.nameFor(profile.Server, profile.User)
	}
	if err := ValidateProfileName(profile.Name); err != nil {
		return Profile{}, "", err
	}
	if password == "" {
		return Profile{}, "", errors.New("login: empty password")
	}
	if err := verify(ctx, profile.Server, profile.User, password); err != nil {
		return Profile{}, "", fmt.Errorf("login %s: %w", Key(profile.User, profile.Server), err)
	}
	profiles.Put(profile)
	if err := profiles.Save(); err != nil {
		return Profile{}, "", err
	}
	var unavailable *UnavailableError
	switch err := StorePassword(profile.Server, profile.User, password); {
	case errors.As(err, &unavailable):
		return profile, unavailable.Advice() + " Profile " + profile.Name + " was saved; the password was not stored.", nil
	case err != nil:
		return Profile{}, "", err
	}
	return profile, "", nil
}

// nameFor names a new profile for user on server (see Login).
func (p *Profiles) nameFor(server, user string) string {
	if existing, ok := p.Match(server, user); ok {
		return existing.Name
	}
	if _, taken := p.Get(DefaultProfileName); !taken {
		return DefaultProfileName
	}
	host := server
	if u, err := url.Parse(server); err == nil {
		host = u.Hostname()
	}
	if _, taken := p.Get(host); !taken {
		return host
	}
	return user + "-" + host
}

// Logout forgets the stored password of the profile. The profile stays, so
// the next start asks for the password again.
func Logout(profile Profile) error {
	if err := DeletePassword(profile.Server, profile.User); err != nil {
		return fmt.Errorf("logout %s: %w", profile.Label(), err)
	}
	return nil
}

// ValidateProfileName accepts names that are easy to type after --profile.
func ValidateProfileName(name string) error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r == '/' || r == '\\' || r == 0x7f
	}) {
		return fmt.Errorf("profile name %q: want a word without spaces or slashes", name)
	}
	return nil
}
