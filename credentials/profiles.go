package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Profile is one place the console connects to, and as whom. It never holds a
// password: that lives in the keyring, the environment or memory.
type Profile struct {
	Name     string `json:"name"`
	Server   string `json:"server"`
	User     string `json:"user"`
	ReadOnly bool   `json:"readOnly,omitempty"`
}

// Label is how the header names a connection: the profile name, or
// user@server when the connection came from flags alone.
func (p Profile) Label() string {
	if p.Name != "" {
		return p.Name
	}
	return Key(p.User, p.Server)
}

// Profiles is the profiles file: every profile, and which one a start without
// --profile uses.
type Profiles struct {
	Default  string    `json:"default,omitempty"`
	Profiles []Profile `json:"profiles"`

	path string
}

// DefaultProfileName names the profile that login creates when none is named.
const DefaultProfileName = "default"

// ProfilesPath is where the profiles file lives: os.UserConfigDir()/dapconsole/profiles.json.
func ProfilesPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("profiles: %w", err)
	}
	return filepath.Join(dir, "dapconsole", "profiles.json"), nil
}

// LoadProfiles reads the profiles file at path; a missing file is an empty set,
// so a first start needs nothing on disk.
func LoadProfiles(path string) (*Profiles, error) {
	profiles := &Profiles{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return profiles, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	if err := json.Unmarshal(data, profiles); err != nil {
		return nil, fmt.Errorf("read profiles %s: %w", path, err)
	}
	return profiles, nil
}

// Save writes the profiles file readable by its owner only. It writes a
// temporary file and renames it, so a crash never leaves half a file.
func (p *Profiles) Save() error {
	if p.path == "" {
		return errors.New("save profiles: no file path (use LoadProfiles)")
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	dir := filepath.Dir(p.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".profiles-*.json")
	if err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save profiles: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("save profiles: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		return fmt.Errorf("save profiles: %w", err)
	}
	return nil
}

// Path is the file the profiles were loaded from.
func (p *Profiles) Path() string { return p.path }

// Get returns the profile called name.
func (p *Profiles) Get(name string) (Profile, bool) {
	i := slices.IndexFunc(p.Profiles, func(q Profile) bool { return q.Name == name })
	if i < 0 {
		return Profile{}, false
	}
	return p.Profiles[i], true
}

// DefaultProfile returns the profile a start without --profile uses.
func (p *Profiles) DefaultProfile() (Profile, bool) {
	if p.Default == "" {
		return Profile{}, false
	}
	return p.Get(p.Default)
}

// Match returns the first profile for server, and for user unless user is empty.
func (p *Profiles) Match(server, user string) (Profile, bool) {
	i := slices.IndexFunc(p.Profiles, func(q Profile) bool {
		return q.Server == server && (user == "" || q.User == user)
	})
	if i < 0 {
		return Profile{}, false
	}
	return p.Profiles[i], true
}

// Names lists the profile names in file order, for completion and messages.
func (p *Profiles) Names() []string {
	names := make([]string, len(p.Profiles))
	for i, q := range p.Profiles {
		names[i] = q.Name
	}
	return names
}

// Remove drops the profile called name and reports whether it was there.
// When it was the default, the first profile left becomes the default.
func (p *Profiles) Remove(name string) bool {
	i := slices.IndexFunc(p.Profiles, func(q Profile) bool { return q.Name == name })
	if i < 0 {
		return false
	}
	p.Profiles = slices.Delete(p.Profiles, i, i+1)
	if p.Default == name {
		p.Default = ""
		if len(p.Profiles) > 0 {
			p.Default = p.Profiles[0].Name
		}
	}
	return true
}

// Put adds the profile or replaces the one with the same name. The first
// profile ever stored becomes the default.
func (p *Profiles) Put(profile Profile) {
	if i := slices.IndexFunc(p.Profiles, func(q Profile) bool { return q.Name == profile.Name }); i >= 0 {
		p.Profiles[i] = profile
	} else {
		p.Profiles = append(p.Profiles, profile)
	}
	if _, ok := p.DefaultProfile(); !ok {
		p.Default = profile.Name
	}
}

// NormalizeServer checks that raw is an http(s) URL with a host and returns it
// without a trailing slash, so one server always gives one keyring key.
func NormalizeServer(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("server %q: want a URL such as https://dap.example.com", raw)
	}
	if u.User != nil {
		return "", fmt.Errorf("server %q: put the user in --user, not in the URL", u.Redacted())
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u.String(), nil
}
