package server

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// mayUseConnection checks that user may use a job's connection the way the
// job does: write it to export through it, execute it to import or link
// from it. Owning a job does not lend the connection: a viewer who restored
// an export of the analysts' Local Files into his home could overwrite the
// files their imports read. A connection the user may not see is refused
// the same way, and not named.
func (s *Server) mayUseConnection(ctx context.Context, user store.User, jf jobs.File) error {
	ref := jf.Config.ConnectionRef()
	if ref == nil {
		return nil // a workbook reads data, not a connection
	}
	conn, err := s.store.ResolveSource(ctx, *ref)
	if errors.Is(err, store.ErrNotFound) {
		return nil // the run fails with its own reason
	}
	if err != nil {
		return err
	}
	n := needExecute
	if jf.Kind == model.KindExportJob {
		n = needWrite
	}
	rights, visible, err := s.store.Access(ctx, user, conn)
	if err != nil {
		return err
	}
	if !visible || !n.allowedBy(rights) {
		return fmt.Errorf("%s permission required on its connection", n)
	}
	return nil
}

// sharedDirectory refuses a connection over a directory or file another
// connection serves; it names neither, the other may be hidden.
const sharedDirectory = "another connection already serves that directory, or one inside or around it; only an administrator may add a connection there"

// checkFileConnections refuses, for a user who is not an administrator, the
// connections among paths (just created or changed in q's transaction) that
// reach files on this machine (file:// directories and jdbc:sqlite: database
// files, servedPath) where another connection already serves the same path,
// one that contains it or one inside it: a new connection would otherwise
// reach the files of another, with rights its owner never gave (a viewer's
// own jdbc:sqlite: connection read the warehouse database that Local Files
// serves to the analysts alone). The connections' URLs are read in one
// query and their directories sorted: a restore of many costs
// O((restored + all) log all), not restored × all.
func checkFileConnections(ctx context.Context, q store.Queries, user store.User, paths iter.Seq[string]) error {
	if user.Admin {
		return nil
	}
	var mine []string
	for p := range paths {
		if kind, _ := model.KindOfPath(p); kind == model.KindConnection {
			mine = append(mine, p)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	urls, err := q.PropertyOfKind(ctx, model.KindConnection, model.PropConnectionURL)
	if err != nil {
		return err
	}
	byPath := make(map[string]int64, len(urls))
	dirOf := make(map[int64]string, len(urls))
	for _, u := range urls {
		byPath[u.Path] = u.ID
		if dir, ok := servedPath(u.Value); ok {
			dirOf[u.ID] = dir
		}
	}
	served := newServedDirs(dirOf)
	for _, p := range mine {
		id, ok := byPath[p]
		if !ok { // named like a connection, not one: nothing to check if it is there
			if _, err := q.FileByPath(ctx, p); err != nil {
				return err
			}
			continue
		}
		if dir, ok := dirOf[id]; ok && served.sharedWithAnother(dir) {
			return &store.RefusedError{Err: store.ErrForbidden, Paths: []string{p}, Reason: p + ": " + sharedDirectory}
		}
	}
	return nil
}

// servedDirs are the paths connections serve (directories, database files),
// one entry a connection, sorted: a directory's equals and the directories inside it
// are then one run each, found by binary search.
type servedDirs []string

func newServedDirs(dirOf map[int64]string) servedDirs {
	dirs := make(servedDirs, 0, len(dirOf))
	for _, dir := range dirOf {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	return dirs
}

// sharedWithAnother reports whether a connection other than the one that
// serves dir (itself one of the entries) serves dir, a directory above it
// or one inside it.
func (d servedDirs) sharedWithAnother(dir string) bool {
	i, _ := slices.BinarySearch(d, dir)
	if i+1 < len(d) && d[i+1] == dir {
		return true
	}
	// Above: dir lies in another when that one, its trailing separator
	// trimmed, and a separator begin dir: it is dir up to one of dir's
	// separators, without it or with it ("/").
	for i := range len(dir) {
		if dir[i] != filepath.Separator {
			continue
		}
		if above := dir[:i]; above != "" && d.serves(above) {
			return true
		}
		if above := dir[:i+1]; above != dir && d.serves(above) {
			return true
		}
	}
	// Inside: the directories that begin with dir and a separator sort
	// together, from the first at or after that prefix; when dir is the
	// prefix ("/"), after dir's own entries.
	inside := strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator)
	i = sort.Search(len(d), func(i int) bool { return d[i] > dir && d[i] >= inside })
	return i < len(d) && strings.HasPrefix(d[i], inside)
}

// serves reports whether a connection serves exactly dir.
func (d servedDirs) serves(dir string) bool {
	_, found := slices.BinarySearch(d, dir)
	return found
}

// servedPath is the path on this machine a connection URL reaches (a
// file:// directory, a jdbc:sqlite: database file; jobs.LocalPath),
// with symbolic links followed where it exists.
func servedPath(raw string) (string, bool) {
	path, ok := jobs.LocalPath(strings.TrimSpace(raw))
	if !ok {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path, true
}
