package store

import (
	"context"
	"fmt"
	"strings"
)

// RelocateFolder gives a folder a new path (a rename when the parent stays,
// a move otherwise), and every file below it the same new prefix, so ids,
// UUIDs, permissions and sources stay as they were. The new parent must be
// a folder (ErrBadInput), the path free (ErrExists), and not below the folder
// itself (ErrBadInput). Call it on a Tx: it runs several statements.
func (q Queries) RelocateFolder(ctx context.Context, folder File, newPath string) (File, error) {
	what := fmt.Sprintf("move %s to %s", folder.Path, newPath)
	if folder.ID == RootID || !folder.IsFolder() {
		return File{}, fmt.Errorf("%s: %w: only folders below the root move", what, ErrBadInput)
	}
	path, err := CleanPath(newPath)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", what, err)
	}
	if path == folder.Path {
		return folder, nil
	}
	if strings.HasPrefix(path, folder.Path+"/") {
		return File{}, fmt.Errorf("%s: %w: a folder cannot go inside itself", what, ErrBadInput)
	}
	if err := checkName(path[strings.LastIndexByte(path, '/')+1:]); err != nil {
		return File{}, fmt.Errorf("%s: %w", what, err)
	}
	parent, err := q.FileByPath(ctx, ParentPath(path))
	if err != nil {
		return File{}, fmt.Errorf("%s: parent folder: %w", what, err)
	}
	if !parent.IsFolder() {
		return File{}, fmt.Errorf("%s: %w: %s is not a folder", what, ErrBadInput, parent.Path)
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET path = ?, name = ?, parent_id = ? WHERE id = ?`,
		path, name, parent.ID, folder.ID); err != nil {
		if isUniqueViolation(err) {
			return File{}, fmt.Errorf("%s: %w", what, ErrExists)
		}
		return File{}, fmt.Errorf("%s: %w", what, err)
	}
	// '0' follows '/' in byte order: the range holds exactly the paths below.
	// The old prefix is cut in bytes (substr of the path as a BLOB): substr
	// of TEXT counts characters, and len counts bytes, so a name with
	// accents cut the paths below it in the wrong place.
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET path = ? || CAST(substr(CAST(path AS BLOB), ?) AS TEXT) WHERE path > ? AND path < ?`,
		path, len(folder.Path)+1, folder.Path+"/", folder.Path+"0"); err != nil {
		if isUniqueViolation(err) {
			return File{}, fmt.Errorf("%s: %w", what, ErrExists)
		}
		return File{}, fmt.Errorf("%s: contents: %w", what, err)
	}
	return q.FileByID(ctx, folder.ID)
}

// WritableFolder reads a folder again and checks that the user may see and
// write it: a folder write judges its folders in the transaction that
// writes (call it on a Tx), since a check made before could be stale by a
// rename or a permission change. A folder the user may not see is
// ErrNotFound, one he may not write a *RefusedError, a file ErrBadInput.
func (q Queries) WritableFolder(ctx context.Context, user User, id int64) (File, error) {
	f, err := q.FileByID(ctx, id)
	if err != nil {
		return File{}, err
	}
	rights, visible, err := q.Access(ctx, user, f)
	switch {
	case err != nil:
		return File{}, err
	case !visible:
		return File{}, fmt.Errorf("folder %d: %w", id, ErrNotFound)
	case !rights.Write:
		return File{}, writeRequired(f.Path)
	case !f.IsFolder():
		return File{}, fmt.Errorf("%w: %s is not a folder", ErrBadInput, f.Path)
	}
	return f, nil
}
