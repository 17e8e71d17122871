package sshserve

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	gossh "golang.org/x/crypto/ssh"
)

// Entry is one line of the authorized-keys file: a key and who it lets in.
type Entry struct {
	User        string // the platform user the key logs in as (user="NAME")
	ReadOnly    bool   // the read-only option: the session can never write
	Fingerprint string // SHA256:…, as ssh-keygen -l prints it
	Comment     string // what follows the key, usually who@where
	Line        int
}

// ParseAuthorizedKeys reads an OpenSSH authorized_keys file with two
// options of ours: user="NAME" (required) and read-only. Any other option
// is refused rather than ignored, since OpenSSH ones such as from= or
// command= would promise a restriction this server does not enforce. Errors
// name the line.
func ParseAuthorizedKeys(r io.Reader) (map[string]Entry, error) {
	keys := map[string]Entry{}
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 4096), 64*1024)
	for n := 1; scanner.Scan(); n++ {
		line := bytes.TrimSpace(scanner.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, comment, options, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		entry := Entry{Fingerprint: gossh.FingerprintSHA256(key), Comment: comment, Line: n}
		for _, opt := range options {
			if err := entry.apply(opt); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		}
		if entry.User == "" {
			return nil, fmt.Errorf(`line %d: no user="NAME" option: say which platform user the key logs in as`, n)
		}
		id := string(key.Marshal())
		if earlier, dup := keys[id]; dup {
			return nil, fmt.Errorf("line %d: the key of line %d again: one key, one user", n, earlier.Line)
		}
		keys[id] = entry
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	return keys, nil
}

func (e *Entry) apply(option string) error {
	name, value, hasValue := strings.Cut(option, "=")
	switch {
	case name == "read-only" && !hasValue:
		e.ReadOnly = true
	case name == "user" && hasValue:
		user, err := strconv.Unquote(value)
		if err != nil || !strings.HasPrefix(value, `"`) {
			return fmt.Errorf(`user=%s: write the name in double quotes, user="NAME"`, value)
		}
		// The name also names the person's directory on the host: no path in it.
		if user == "" || user == "." || user == ".." || strings.ContainsFunc(user, func(r rune) bool {
			return unicode.IsControl(r) || unicode.IsSpace(r) || r == '/' || r == '\\'
		}) {
			return fmt.Errorf("user=%q: want a user name without spaces or slashes", user)
		}
		e.User = user
	default:
		return fmt.Errorf(`option %q is not supported (only user="NAME" and read-only)`, option)
	}
	return nil
}

// authorizedKeys is the file, read again whenever it changed, so adding or
// removing a person needs no restart. A file that no longer parses lets
// nobody in until it is fixed: failing open could keep a removed key alive.
type authorizedKeys struct {
	path string

	mu    sync.Mutex
	stamp fileStamp // of the file last read; zero when it could not be
	keys  map[string]Entry
	err   error
}

// fileStamp tells a changed file: a rename gives another inode, an edit in
// place another size or modification time.
type fileStamp struct {
	size  int64
	mtime time.Time
	inode uint64
}

func stampOf(info os.FileInfo) fileStamp {
	s := fileStamp{size: info.Size(), mtime: info.ModTime()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.inode = st.Ino
	}
	return s
}

// loadAuthorizedKeys reads the file once; an error refuses to start.
func loadAuthorizedKeys(path string) (*authorizedKeys, error) {
	a := &authorizedKeys{path: path}
	if _, err := a.refresh(); err != nil {
		return nil, err
	}
	if len(a.keys) == 0 {
		return nil, fmt.Errorf("%s: no key in it: nobody could log in", path)
	}
	return a, nil
}

// refresh reads the file again if it changed since the last read. changed
// says the outcome is new (other keys, or a new error), for the log.
func (a *authorizedKeys) refresh() (changed bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	info, err := os.Stat(a.path)
	if err == nil && a.stamp != (fileStamp{}) && stampOf(info) == a.stamp {
		return false, a.err
	}
	keys, err := a.read(info, err)
	changed = err == nil || a.err == nil || err.Error() != a.err.Error()
	a.keys, a.err = keys, err
	return changed, err
}

func (a *authorizedKeys) read(info os.FileInfo, statErr error) (map[string]Entry, error) {
	a.stamp = fileStamp{}
	if statErr != nil {
		return nil, fmt.Errorf("authorized keys: %w", statErr)
	}
	if info.Mode().Perm()&0o022 != 0 {
		// As sshd's StrictModes: whoever may write the file may let anyone in.
		return nil, fmt.Errorf("authorized keys %s: others may write it (mode %v): chmod go-w it", a.path, info.Mode().Perm())
	}
	f, err := os.Open(a.path)
	if err != nil {
		return nil, fmt.Errorf("authorized keys: %w", err)
	}
	defer f.Close()
	a.stamp = stampOf(info)
	keys, err := ParseAuthorizedKeys(f)
	if err != nil {
		return nil, fmt.Errorf("%s %w", a.path, err)
	}
	return keys, nil
}

// lookup finds the entry of key in the file as last read.
func (a *authorizedKeys) lookup(key gossh.PublicKey) (Entry, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	entry, ok := a.keys[string(key.Marshal())]
	return entry, ok
}

// count says how many keys the file holds (for the log).
func (a *authorizedKeys) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.keys)
}
