package jobs

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// cleanRoots resolves the allowed directories to absolute paths without
// symbolic links, so that confinement compares real locations.
func cleanRoots(roots []string) ([]string, error) {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("file root %s: %w", r, err)
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		out = append(out, abs)
	}
	return out, nil
}

// confine returns the real location of an absolute path when it lies inside
// one of the allowed roots, and an error otherwise. Symbolic links are
// followed first, so a link cannot lead out of a root; a path that does not
// exist yet (an export target) is judged by its nearest existing parent.
// Outside the roots every path gets the same answer, whether it exists, is
// a file or cannot be read: the answer tells nothing of the machine.
func (e *Engine) confine(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", path)
	}
	outside := fmt.Errorf("path %s is outside the directories the server may use", path)
	real, err := realPath(filepath.Clean(path))
	if err != nil {
		if !e.inRoots(filepath.Clean(path)) {
			return "", outside
		}
		return "", err
	}
	if !e.inRoots(real) {
		return "", outside
	}
	return real, nil
}

// inRoots reports whether path lies in one of the allowed roots.
func (e *Engine) inRoots(path string) bool {
	for _, root := range e.roots {
		if path == root || strings.HasPrefix(path, root+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func realPath(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("path %s: %w", path, err)
	}
	parent := filepath.Dir(path)
	if parent == path {
		return "", fmt.Errorf("path %s: %w", path, err)
	}
	realParent, err := realPath(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(realParent, filepath.Base(path)), nil
}

// LocalPath is the path on this machine a connection URL reaches: the
// directory of a file:/// URL, the database file of a jdbc:sqlite: URL,
// cleaned but neither confined nor resolved. ok is false for every other
// URL (a remote database, a bucket, a file:// URL of another host), which
// reaches no file here. The server judges which connections may share a
// directory by it, and the engine opens nothing else.
func LocalPath(raw string) (path string, ok bool) {
	if rest, sqlite := strings.CutPrefix(raw, "jdbc:sqlite:"); sqlite {
		rest = strings.TrimPrefix(rest, "file:")
		if i := strings.IndexByte(rest, '?'); i >= 0 {
			rest = rest[:i]
		}
		if rest == "" {
			return "", false
		}
		return filepath.Clean(filepath.FromSlash(rest)), true
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// fileConnectionDir reads a file-system connection's `file:///dir` URL and
// returns its directory, confined to the allowed roots.
func (e *Engine) fileConnectionDir(conn File) (string, error) {
	raw := conn.Config.Property("key.connectionUrl")
	path, ok := LocalPath(raw)
	if !ok || !strings.HasPrefix(raw, "file:") {
		return "", fmt.Errorf("connection %s: %q is not a file:/// URL of this machine", conn.Path, raw)
	}
	dir, err := e.confine(path)
	if err != nil {
		return "", fmt.Errorf("connection %s: %w", conn.Path, err)
	}
	return dir, nil
}

// fileInConnection joins a job's relative `path` property to its
// connection's directory and confines the result.
func (e *Engine) fileInConnection(conn File, rel string) (string, error) {
	dir, err := e.fileConnectionDir(conn)
	if err != nil {
		return "", err
	}
	if rel == "" {
		return "", errors.New("no path property")
	}
	if filepath.IsAbs(rel) {
		rel = strings.TrimPrefix(rel, string(filepath.Separator))
	}
	path, err := e.confine(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return "", err
	}
	if path != dir && !strings.HasPrefix(path, dir+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q leaves the connection's directory", rel)
	}
	return path, nil
}

// sqliteConnectionPath reads a `jdbc:sqlite:/path/to.db` URL, confined.
func (e *Engine) sqliteConnectionPath(conn File) (string, error) {
	raw := conn.Config.Property("key.connectionUrl")
	path, ok := LocalPath(raw)
	if !ok || !strings.HasPrefix(raw, "jdbc:sqlite:") {
		return "", fmt.Errorf("connection %s: %q is neither a file:/// nor a jdbc:sqlite: URL", conn.Path, raw)
	}
	real, err := e.confine(path)
	if err != nil {
		return "", fmt.Errorf("connection %s: %w", conn.Path, err)
	}
	if _, err := os.Stat(real); err != nil {
		return "", fmt.Errorf("connection %s: %w", conn.Path, err)
	}
	return real, nil
}
