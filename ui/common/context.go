package common

import (
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
)

// Context is the one value every pane and dialog shares, by pointer: the
// root updates it (new styles when the terminal reports its background, a
// new client after a login) and everyone sees the change at the next View.
type Context struct {
	// Styles is replaced, never changed in place: a cache of rendered text
	// keys on Styles.Generation() and so redraws after a new theme by
	// itself; no pane is told.
	Styles *theme.Styles
	Keys   *KeyMap
	Client *api.Client

	// Who and where, for the header.
	Server, User, Profile string
	ReadOnly              bool

	// Seal, when set, encrypts a secret into the SECURE:<n>:<s> form the
	// server reads, so a new connection's password never travels in plain
	// text. The console has the server's key only beside it (--demo, or
	// --server-data on the server's host); nil sends the password inside
	// the request for the server to seal.
	Seal func(secret string) string

	// Files holds the local files of backups and restores; see Files.
	Files Files

	// Profiles, when set, are the saved profiles a folder may be copied
	// to (another platform); nil where the console offers none (served
	// over SSH, where the host's profiles and keyring are not the user's).
	Profiles Profiles

	// Served is set when the console runs for someone on another machine
	// (dapconsole ssh): it then starts no program on this host, since an
	// editor's shell escape would hand that person a shell here.
	Served bool

	// FileIndex is every file the per-kind lists named, as the folders pane
	// read them last (nil before); the sequential trigger resolves paths
	// with it. Only Update sets it.
	FileIndex *FileIndex

	// Spinner is the current frame of the one spinner the root animates
	// while any task runs; panes draw it beside what is loading.
	Spinner string

	// Now tells the time; tests fix it so golden files hold still.
	Now func() time.Time

	// FirstRoot, when set, is the root folder read since before the
	// program started (the first frame shows it); the folders pane's first
	// read takes it.
	FirstRoot *Early[model.Folder]
}

// NewContext returns a context with the dark theme (until the terminal says
// otherwise) and the default key map, read-only if asked: then the write
// keys are disabled and the client itself refuses every write.
func NewContext(client *api.Client, server, user, profile string, readOnly bool) *Context {
	keys := DefaultKeyMap()
	if readOnly {
		client = client.AsReadOnly()
	}
	return &Context{
		Styles:   theme.New(true, theme.NoColorRequested()),
		Keys:     keys,
		Client:   client,
		Server:   server,
		User:     user,
		Profile:  profile,
		ReadOnly: readOnly,
		Files:    HostFiles{},
		Now:      time.Now,
	}
}

// Profiles lists the saved profiles and connects to one, for a copy to
// another platform. Both read the disk or the keyring: call them in a task.
type Profiles interface {
	Names() ([]string, error)
	// Connect returns a client of the profile's platform, asking nothing
	// (its password from the keyring or DAP_PASSWORD), and seal, when the
	// console has that platform's key, to seal secrets before they leave
	// (nil: they leave as a new connection's password does without one).
	Connect(name string) (client *api.Client, seal func(string) string, err error)
}
