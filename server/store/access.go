package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// Rights are what a user may do with one file.
type Rights struct {
	Read, Write, Execute bool
	// Own is set for the owner and administrators: they may change the owner.
	Own bool
}

// rightsOn combines the rules: administrators and the owner may do
// everything; others get the union of their groups' flags and the others flags.
func rightsOn(u User, f File, groupFlags model.Flags) Rights {
	if u.Admin || (f.OwnerID != 0 && f.OwnerID == u.ID) {
		return Rights{Read: true, Write: true, Execute: true, Own: true}
	}
	return Rights{
		Read:    groupFlags.Readable || f.Others.Readable,
		Write:   groupFlags.Writable || f.Others.Writable,
		Execute: groupFlags.Executable || f.Others.Executable,
	}
}

// groupFlagsWhere returns, per file id, the union of the flags the user's
// groups hold on the files of file_groups row fg that match the condition.
func (q Queries) groupFlagsWhere(ctx context.Context, u User, cond string, condArgs ...any) (map[int64]model.Flags, error) {
	out := map[int64]model.Flags{}
	if len(u.GroupIDs) == 0 || u.Admin {
		return out, nil
	}
	args := append([]any(nil), condArgs...)
	for _, g := range u.GroupIDs {
		args = append(args, g)
	}
	rows, err := q.q.QueryContext(ctx, `SELECT fg.file_id, max(fg.readable), max(fg.writable), max(fg.executable)
		FROM file_groups fg WHERE `+cond+` AND fg.group_id IN (?`+strings.Repeat(",?", len(u.GroupIDs)-1)+`)
		GROUP BY fg.file_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("group flags of %s: %w", u.Name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var f model.Flags
		if err := rows.Scan(&id, &f.Readable, &f.Writable, &f.Executable); err != nil {
			return nil, fmt.Errorf("group flags of %s: %w", u.Name, err)
		}
		out[id] = f
	}
	return out, rows.Err()
}

// groupFlagsOf returns the user's group flags on the given files.
func (q Queries) groupFlagsOf(ctx context.Context, u User, ids []int64) (map[int64]model.Flags, error) {
	if len(ids) == 0 {
		return map[int64]model.Flags{}, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return q.groupFlagsWhere(ctx, u, `fg.file_id IN (?`+strings.Repeat(",?", len(ids)-1)+`)`, args...)
}

// groupFlagsIn returns the user's group flags on the files directly inside a
// folder (parentID 0: on the root).
func (q Queries) groupFlagsIn(ctx context.Context, u User, parentID int64) (map[int64]model.Flags, error) {
	if parentID == 0 {
		return q.groupFlagsOf(ctx, u, []int64{RootID})
	}
	return q.groupFlagsWhere(ctx, u, `fg.file_id IN (SELECT id FROM files WHERE parent_id = ?)`, parentID)
}

// Access returns what a user may do with a file, and whether the user may
// see it at all: a file is visible when the user may read it and every
// folder above it. An invisible file must be treated as missing.
func (q Queries) Access(ctx context.Context, u User, f File) (rights Rights, visible bool, err error) {
	if u.Admin {
		return rightsOn(u, f, model.Flags{}), true, nil
	}
	chain, err := q.Ancestors(ctx, f)
	if err != nil {
		return Rights{}, false, err
	}
	chain = append(chain, f)
	ids := make([]int64, len(chain))
	for i, c := range chain {
		ids[i] = c.ID
	}
	flags, err := q.groupFlagsOf(ctx, u, ids)
	if err != nil {
		return Rights{}, false, err
	}
	for _, c := range chain {
		rights = rightsOn(u, c, flags[c.ID])
		if !rights.Read {
			return Rights{}, false, nil
		}
	}
	return rights, true, nil
}

// Visibility answers, for many files at once, which ones a user may see. It
// loads the user's group flags one folder's contents at a time and remembers
// the folders it judged, so filtering a long list costs a few queries, not
// one per file.
type Visibility struct {
	q       Queries
	user    User
	flags   map[int64]model.Flags // file id -> the user's group flags, for the folders in loaded
	loaded  map[int64]bool        // parent ids whose contents' flags are in flags
	folders map[int64]bool        // folder id -> visible
}

// NewVisibility prepares visibility checks for one user (one request).
func (q Queries) NewVisibility(ctx context.Context, u User) (*Visibility, error) {
	return &Visibility{q: q, user: u, flags: map[int64]model.Flags{}, loaded: map[int64]bool{}, folders: map[int64]bool{}}, nil
}

// KnownVisible records a folder the caller has already found visible (with
// Access), so that filtering its contents does not judge the folders above
// it a second time.
func (v *Visibility) KnownVisible(folder File) { v.folders[folder.ID] = true }

// Rights returns what the user may do with f itself, folders above aside.
func (v *Visibility) Rights(ctx context.Context, f File) (Rights, error) {
	if !v.loaded[f.ParentID] && !v.user.Admin && len(v.user.GroupIDs) > 0 {
		flags, err := v.q.groupFlagsIn(ctx, v.user, f.ParentID)
		if err != nil {
			return Rights{}, err
		}
		for id, fl := range flags {
			v.flags[id] = fl
		}
		v.loaded[f.ParentID] = true
	}
	return rightsOn(v.user, f, v.flags[f.ID]), nil
}

// Visible reports whether the user may see f: read it and every folder above.
func (v *Visibility) Visible(ctx context.Context, f File) (bool, error) {
	if v.user.Admin {
		return true, nil
	}
	rights, err := v.Rights(ctx, f)
	if err != nil || !rights.Read {
		return false, err
	}
	if f.ParentID == 0 {
		return true, nil
	}
	return v.folderVisible(ctx, f.ParentID)
}

func (v *Visibility) folderVisible(ctx context.Context, id int64) (bool, error) {
	if seen, ok := v.folders[id]; ok {
		return seen, nil
	}
	folder, err := v.q.FileByID(ctx, id)
	if err != nil {
		return false, err
	}
	visible, err := v.Visible(ctx, folder)
	if err != nil {
		return false, err
	}
	v.folders[id] = visible
	return visible, nil
}

// Filter returns the files of files the user may see, in their order.
func (v *Visibility) Filter(ctx context.Context, files []File) ([]File, error) {
	out := make([]File, 0, len(files))
	for _, f := range files {
		visible, err := v.Visible(ctx, f)
		if err != nil {
			return nil, err
		}
		if visible {
			out = append(out, f)
		}
	}
	return out, nil
}
