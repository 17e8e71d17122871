package common

import (
	"os"
	"path/filepath"
	"strings"
)

// Files is where the console reads and writes local files: the ZIPs of
// backups and restores. A console run by its user has the process's own
// file system (HostFiles); one served over SSH has an *os.Root, a directory
// of that person's on the server's host that no path given in a form can
// leave (no .., no absolute path, no symbolic link out).
type Files interface {
	Open(name string) (*os.File, error)
	OpenFile(name string, flag int, perm os.FileMode) (*os.File, error)
	Stat(name string) (os.FileInfo, error)
	Remove(name string) error
}

// HostFiles is the process's file system.
type HostFiles struct{}

// Open is os.Open.
func (HostFiles) Open(name string) (*os.File, error) { return os.Open(name) }

// OpenFile is os.OpenFile.
func (HostFiles) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// Stat is os.Stat.
func (HostFiles) Stat(name string) (os.FileInfo, error) { return os.Stat(name) }

// Remove is os.Remove.
func (HostFiles) Remove(name string) error { return os.Remove(name) }

// ExpandHome reads a leading ~ of a local path typed in a form as the
// user's home directory, as a shell would: ~ and ~/x, not ~other/x. A path
// without one, or no known home, comes back as it is.
func ExpandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, path[1:])
}
