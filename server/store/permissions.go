package store

import (
	"context"
	"fmt"

	"github.com/dapconsole/dapconsole/model"
)

// permissionsOf returns a file's others flags and group flags.
func (q Queries) permissionsOf(ctx context.Context, id int64) (*Permissions, error) {
	p := &Permissions{Groups: map[int64]model.Flags{}}
	if err := q.q.QueryRowContext(ctx, `SELECT others_read, others_write, others_execute FROM files WHERE id = ?`, id).
		Scan(&p.Others.Readable, &p.Others.Writable, &p.Others.Executable); err != nil {
		return nil, fmt.Errorf("permissions of %d: %w", id, err)
	}
	groups, err := q.GroupPermissions(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, g := range groups {
		p.Groups[g.Group.ID] = g.Flags
	}
	return p, nil
}

// GroupPermissions returns the group entries of a file, by group name.
func (q Queries) GroupPermissions(ctx context.Context, fileID int64) ([]GroupPermission, error) {
	rows, err := q.q.QueryContext(ctx, `SELECT g.id, g.name, fg.readable, fg.writable, fg.executable
		FROM file_groups fg JOIN groups g ON g.id = fg.group_id WHERE fg.file_id = ? ORDER BY g.name`, fileID)
	if err != nil {
		return nil, fmt.Errorf("group permissions of %d: %w", fileID, err)
	}
	defer rows.Close()
	var out []GroupPermission
	for rows.Next() {
		var gp GroupPermission
		if err := rows.Scan(&gp.Group.ID, &gp.Group.Name, &gp.Flags.Readable, &gp.Flags.Writable, &gp.Flags.Executable); err != nil {
			return nil, fmt.Errorf("group permissions of %d: %w", fileID, err)
		}
		out = append(out, gp)
	}
	return out, rows.Err()
}

// SetOwner makes a user (0: the system owner) the owner of a file.
func (q Queries) SetOwner(ctx context.Context, fileID, userID int64) error {
	var owner any
	if userID != 0 {
		owner = userID
	}
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET owner_id = ? WHERE id = ?`, owner, fileID); err != nil {
		return fmt.Errorf("set owner of %d: %w", fileID, err)
	}
	return nil
}

// SetOthers sets the flags of everyone who is neither owner nor in a listed group.
func (q Queries) SetOthers(ctx context.Context, fileID int64, flags model.Flags) error {
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET others_read = ?, others_write = ?, others_execute = ? WHERE id = ?`,
		flags.Readable, flags.Writable, flags.Executable, fileID); err != nil {
		return fmt.Errorf("set others permission of %d: %w", fileID, err)
	}
	return nil
}

// CreateGroupPermission adds a group entry to a file; ErrExists if it has one.
func (q Queries) CreateGroupPermission(ctx context.Context, fileID, groupID int64, flags model.Flags) error {
	_, err := q.q.ExecContext(ctx, `INSERT INTO file_groups(file_id, group_id, readable, writable, executable) VALUES (?,?,?,?,?)`,
		fileID, groupID, flags.Readable, flags.Writable, flags.Executable)
	if isUniqueViolation(err) {
		return fmt.Errorf("group permission %d on %d: %w", groupID, fileID, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("group permission %d on %d: %w", groupID, fileID, err)
	}
	return nil
}

// ChangeGroupPermission sets the flags of a file's group entry; ErrNotFound
// if the file has no entry for the group.
func (q Queries) ChangeGroupPermission(ctx context.Context, fileID, groupID int64, flags model.Flags) error {
	res, err := q.q.ExecContext(ctx, `UPDATE file_groups SET readable = ?, writable = ?, executable = ? WHERE file_id = ? AND group_id = ?`,
		flags.Readable, flags.Writable, flags.Executable, fileID, groupID)
	return oneRow(res, err, fmt.Sprintf("group permission %d on %d", groupID, fileID))
}

// DeleteGroupPermission removes a file's group entry; ErrNotFound if none.
func (q Queries) DeleteGroupPermission(ctx context.Context, fileID, groupID int64) error {
	res, err := q.q.ExecContext(ctx, `DELETE FROM file_groups WHERE file_id = ? AND group_id = ?`, fileID, groupID)
	return oneRow(res, err, fmt.Sprintf("group permission %d on %d", groupID, fileID))
}

func oneRow(res interface{ RowsAffected() (int64, error) }, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}
