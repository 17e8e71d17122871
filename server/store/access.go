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

// groupFlagsOf returns, per file id, the union of the flags the user's groups
// hold on the given files (all files when ids is empty).
func (q Queries) groupFlagsOf(ctx context.Context, u User, ids []int64) (map[int64]model.Flags, error) {
	out := map[int64]model.Flags{}
	if len(u.GroupIDs) == 0 || u.Admin {
		return out, nil
	}
	args := make([]any, 0, len(u.GroupIDs)+len(ids))
	for _, g := range u.GroupIDs {
		args = append(args, g)
	}
	query := `SELECT file_id, max(readable), max(writable), max(executable) FROM file_groups WHERE group_id IN (?` +
		strings.Repeat(",?", len(u.GroupIDs)-1) + `)`
	if len(ids) > 0 {
		query += ` AND file_id IN (?` + strings.Repeat(",?", len(ids)-1) + `)`
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := q.q.QueryContext(ctx, query+` GROUP BY file_id`, args...)
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
// loads the user's group flags once and remembers the folders it judged, so
// filtering a long list costs a few queries, not one per file.
type Visibility struct {
	q       Queries
	user    User
	flags   map[int64]model.Flags
	folders map[int64]bool // folder id -> visible
}

// NewVisibility prepares visibility checks for one user (one request).
func (q Queries) NewVisibility(ctx context.Context, u User) (*Visibility, error) {
	v := &Visibility{q: q, user: u, folders: map[int64]bool{}}
	if u.Admin {
		return v, nil
	}
	flags, err := q.groupFlagsOf(ctx, u, nil)
	if err != nil {
		return nil, err
	}
	v.flags = flags
	return v, nil
}

// Rights returns what the user may do with f itself, folders above aside.
func (v *Visibility) Rights(f File) Rights { return rightsOn(v.user, f, v.flags[f.ID]) }

// Visible reports whether the user may see f: read it and every folder above.
func (v *Visibility) Visible(ctx context.Context, f File) (bool, error) {
	if v.user.Admin {
		return true, nil
	}
	if !v.Rights(f).Read {
		return false, nil
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
