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
	if err := validName(path[strings.LastIndexByte(path, '/')+1:]); err != nil {
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
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET path = ? || substr(path, ?) WHERE path > ? AND path < ?`,
		path, len(folder.Path)+1, folder.Path+"/", folder.Path+"0"); err != nil {
		if isUniqueViolation(err) {
			return File{}, fmt.Errorf("%s: %w", what, ErrExists)
		}
		return File{}, fmt.Errorf("%s: contents: %w", what, err)
	}
	return q.FileByID(ctx, folder.ID)
}
