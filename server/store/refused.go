package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Errors a RefusedError wraps besides ErrBadInput: the archive does not fit
// the target (answer 409), or the user may not change what it would change (403).
var (
	ErrConflict  = errors.New("restore conflict")
	ErrForbidden = errors.New("not allowed")
)

// RefusedError refuses a change as a whole (a restore, a backup, a folder
// made on the way); Paths names the files it is about.
type RefusedError struct {
	Err    error // ErrConflict, ErrForbidden or ErrBadInput
	Reason string
	Paths  []string
}

func (e *RefusedError) Error() string { return e.Reason }

// Unwrap lets errors.Is match the kind of refusal.
func (e *RefusedError) Unwrap() error { return e.Err }

// EnsureFolder returns the folder at path, creating it and the folders
// above it that are missing when the user may write the nearest folder that
// exists (spec 4.3 rule 4; a connection created in a missing folder does the
// same). created reports whether the folder at path is new. A folder the
// user may not see counts as missing, so a path behind a closed folder
// answers as one that does not exist (the nearest visible folder decides);
// only creating a name a hidden file holds fails, as any create there does.
// A nearest folder not writable, a file on the way or a name taken is a
// *RefusedError. Call it on a Tx.
func (q Queries) EnsureFolder(ctx context.Context, user User, path string) (folder File, created bool, err error) {
	if path, err = CleanPath(path); err != nil {
		return File{}, false, err
	}
	var missing []string
	for p := path; ; p = ParentPath(p) {
		f, err := q.FileByPath(ctx, p)
		if errors.Is(err, ErrNotFound) {
			missing = append(missing, p)
			continue
		}
		if err != nil {
			return File{}, false, err
		}
		rights, visible, err := q.Access(ctx, user, f)
		if err != nil {
			return File{}, false, err
		}
		if !visible {
			missing = append(missing, p)
			continue
		}
		if !rights.Write { // judged first: a refusal tells nothing of the files inside
			return File{}, false, writeRequired(f.Path)
		}
		if !f.IsFolder() {
			return File{}, false, &RefusedError{Err: ErrBadInput, Reason: fmt.Sprintf("%s is not a folder", f.Path), Paths: []string{f.Path}}
		}
		folder = f
		break
	}
	for i := len(missing) - 1; i >= 0; i-- {
		folder, err = q.CreateFile(ctx, NewFile{Path: missing[i], OwnerID: user.ID})
		if errors.Is(err, ErrExists) {
			return File{}, false, TakenByHidden([]string{missing[i]})
		}
		if err != nil {
			return File{}, false, fmt.Errorf("create folder %s: %w", missing[i], err)
		}
	}
	return folder, len(missing) > 0, nil
}

// MayWrite refuses a file the user may not see (ErrNotFound) or not write.
func (q Queries) MayWrite(ctx context.Context, user User, f File) error {
	rights, visible, err := q.Access(ctx, user, f)
	if err != nil {
		return err
	}
	if !visible {
		return fmt.Errorf("%s: %w", f.Path, ErrNotFound)
	}
	if !rights.Write {
		return writeRequired(f.Path)
	}
	return nil
}

func writeRequired(path string) error {
	return &RefusedError{Err: ErrForbidden, Reason: fmt.Sprintf("%s: write permission required", path), Paths: []string{path}}
}

// TakenByHidden refuses paths that files the uploader may not see hold: a
// name is all it tells, as creating any file there would.
func TakenByHidden(paths []string) error {
	return &RefusedError{Err: ErrConflict, Paths: paths,
		Reason: fmt.Sprintf("%d path(s) are taken by files you may not see (use other names): %s", len(paths), Listed(paths))}
}

// Listed joins names for a refusal's reason, at most ten of them.
func Listed(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
}
