package server

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
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
	if jf.Config.DataStore == nil {
		return nil // a workbook reads data, not a connection
	}
	conn, err := s.store.ResolveSource(ctx, *jf.Config.DataStore)
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

// sharedDirectory refuses a file-system connection over a directory
// another connection serves; it names neither, the other may be hidden.
const sharedDirectory = "another connection already serves that directory, or one inside or around it; only an administrator may add a connection there"

// checkFileConnections refuses, for a user who is not an administrator, the
// file-system connections among paths (just created or changed in q's
// transaction) whose directory another connection already serves, contains
// or lies in: a new connection would otherwise reach the files of another,
// with rights its owner never gave.
func checkFileConnections(ctx context.Context, q store.Queries, user store.User, paths []string) error {
	if user.Admin {
		return nil
	}
	var mine []store.File
	for _, p := range paths {
		if kind, _ := model.KindOfPath(p); kind != model.KindConnection {
			continue
		}
		f, err := q.FileByPath(ctx, p)
		if err != nil {
			return err
		}
		mine = append(mine, f)
	}
	if len(mine) == 0 {
		return nil
	}
	all, err := q.FilesOfKind(ctx, model.KindConnection)
	if err != nil {
		return err
	}
	dirs := make(map[int64]string, len(all))
	for _, f := range all {
		cfg, err := q.Configuration(ctx, f)
		if err != nil {
			return err
		}
		if dir, ok := fileURLDir(cfg.Property(model.PropConnectionURL)); ok {
			dirs[f.ID] = dir
		}
	}
	for _, f := range mine {
		dir, ok := dirs[f.ID]
		if !ok {
			continue
		}
		for id, other := range dirs {
			if id != f.ID && (dir == other || within(dir, other) || within(other, dir)) {
				return &store.RefusedError{Err: store.ErrForbidden, Paths: []string{f.Path}, Reason: f.Path + ": " + sharedDirectory}
			}
		}
	}
	return nil
}

// fileURLDir is the directory a file:// connection URL names, cleaned and
// with symbolic links followed where it exists.
func fileURLDir(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	dir := filepath.Clean(filepath.FromSlash(u.Path))
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir, true
}

// within reports whether path lies strictly inside dir.
func within(path, dir string) bool {
	return strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}
