package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Built-in roles: every user holds at least one of them, and they are never
// renamed or deleted. Administrators are the users holding RoleAdmin; the
// users table's admin column mirrors it, so that authentication and access
// checks read one column.
const (
	RoleAdmin   = "ADMIN"
	RoleAnalyst = "ANALYST"
)

// addPeople is schema 2: e-mail and enabled on users, and roles with their
// capabilities. Existing administrators get ADMIN, the others ANALYST.
func addPeople(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1;
CREATE TABLE roles (
	id           INTEGER PRIMARY KEY,
	name         TEXT NOT NULL UNIQUE,
	capabilities TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE user_roles (
	user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	role_id INTEGER NOT NULL REFERENCES roles(id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, role_id)
) WITHOUT ROWID;
INSERT INTO roles(name) VALUES ('`+RoleAdmin+`'), ('`+RoleAnalyst+`');
INSERT INTO user_roles(user_id, role_id)
	SELECT u.id, r.id FROM users u JOIN roles r ON r.name = CASE WHEN u.admin THEN '`+RoleAdmin+`' ELSE '`+RoleAnalyst+`' END;`)
	return err
}

// ErrLastAdministrator refuses a change that would leave no enabled administrator.
var ErrLastAdministrator = errors.New("it would leave no enabled administrator")

// Person is a user as user management shows it: never its password hash.
type Person struct {
	Name    string
	Email   string
	Enabled bool
	Groups  []string // names, sorted
	Roles   []string // names, sorted
	// Owned is how many files of the tree the user owns.
	Owned int
}

// Admin reports whether the person holds the administrator role.
func (p Person) Admin() bool { return slices.Contains(p.Roles, RoleAdmin) }

// PersonChange is what a create or an update sets; a nil field keeps what
// the user has (a create starts from no e-mail, enabled, ANALYST).
type PersonChange struct {
	Email   *string
	Enabled *bool
	Groups  []string // nil keeps
	Roles   []string // nil keeps
}

// Role is a named set of capabilities.
type Role struct {
	Name         string
	Capabilities []string
}

// People returns every user with groups, roles and the count of files owned, by name.
func (q Queries) People(ctx context.Context) ([]Person, error) {
	return q.people(ctx, "")
}

// PersonByName returns one user, or ErrNotFound.
func (q Queries) PersonByName(ctx context.Context, name string) (Person, error) {
	out, err := q.people(ctx, name)
	if err != nil {
		return Person{}, err
	}
	if len(out) == 0 {
		return Person{}, fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	return out[0], nil
}

// people reads every user, or only the one named when name is not empty.
func (q Queries) people(ctx context.Context, name string) ([]Person, error) {
	where, args := "", []any{}
	if name != "" {
		where, args = " WHERE u.name = ?", []any{name}
	}
	rows, err := q.q.QueryContext(ctx, `SELECT u.id, u.name, u.email, u.enabled FROM users u`+where+` ORDER BY u.name`, args...)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	var out []Person
	byID := map[int64]int{}
	for rows.Next() {
		var p Person
		var id int64
		if err := rows.Scan(&id, &p.Name, &p.Email, &p.Enabled); err != nil {
			rows.Close()
			return nil, fmt.Errorf("list users: %w", err)
		}
		p.Groups, p.Roles = []string{}, []string{}
		byID[id] = len(out)
		out = append(out, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	for _, link := range []struct{ query, what string }{
		{`SELECT m.user_id, g.name FROM memberships m JOIN groups g ON g.id = m.group_id ORDER BY g.name`, "groups"},
		{`SELECT ur.user_id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id ORDER BY r.name`, "roles"},
	} {
		rows, err := q.q.QueryContext(ctx, link.query)
		if err != nil {
			return nil, fmt.Errorf("%s of users: %w", link.what, err)
		}
		for rows.Next() {
			var id int64
			var n string
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s of users: %w", link.what, err)
			}
			i, ok := byID[id]
			if !ok {
				continue
			}
			if link.what == "groups" {
				out[i].Groups = append(out[i].Groups, n)
			} else {
				out[i].Roles = append(out[i].Roles, n)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("%s of users: %w", link.what, err)
		}
	}
	// One pass over the files for every user: owner_id has no index.
	owned, err := q.q.QueryContext(ctx, `SELECT owner_id, count(*) FROM files WHERE owner_id IS NOT NULL GROUP BY owner_id`)
	if err != nil {
		return nil, fmt.Errorf("files owned by users: %w", err)
	}
	defer owned.Close()
	for owned.Next() {
		var id int64
		var n int
		if err := owned.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("files owned by users: %w", err)
		}
		if i, ok := byID[id]; ok {
			out[i].Owned = n
		}
	}
	return out, owned.Err()
}

// CreatePerson adds a user with an already hashed password; its groups and
// roles must exist (ErrBadInput names the first that does not).
func (tx *Tx) CreatePerson(ctx context.Context, name, passwordHash string, c PersonChange) error {
	if c.Roles == nil {
		c.Roles = []string{RoleAnalyst}
	}
	u, err := tx.CreateUser(ctx, name, passwordHash, false)
	if err != nil {
		return err
	}
	if c.Enabled == nil {
		yes := true
		c.Enabled = &yes
	}
	if c.Groups == nil {
		c.Groups = []string{}
	}
	return tx.changePerson(ctx, u.ID, name, c)
}

// UpdatePerson changes a user's e-mail, enabled flag, groups and roles; it
// refuses (ErrLastAdministrator) to leave no enabled administrator.
func (tx *Tx) UpdatePerson(ctx context.Context, name string, c PersonChange) error {
	var id int64
	err := tx.q.QueryRowContext(ctx, `SELECT id FROM users WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("update user %q: %w", name, err)
	}
	if err := tx.changePerson(ctx, id, name, c); err != nil {
		return err
	}
	return tx.keepAnAdministrator(ctx, "update user "+name)
}

func (tx *Tx) changePerson(ctx context.Context, id int64, name string, c PersonChange) error {
	fail := func(err error) error { return fmt.Errorf("user %q: %w", name, err) }
	if c.Email != nil {
		if len(*c.Email) > 255 {
			return fail(fmt.Errorf("%w: e-mail longer than 255 characters", ErrBadInput))
		}
		if err := VisibleText("email", *c.Email); err != nil {
			return fail(err)
		}
		if _, err := tx.q.ExecContext(ctx, `UPDATE users SET email = ? WHERE id = ?`, *c.Email, id); err != nil {
			return fail(err)
		}
	}
	if c.Enabled != nil {
		if _, err := tx.q.ExecContext(ctx, `UPDATE users SET enabled = ? WHERE id = ?`, *c.Enabled, id); err != nil {
			return fail(err)
		}
	}
	if c.Groups != nil {
		if _, err := tx.q.ExecContext(ctx, `DELETE FROM memberships WHERE user_id = ?`, id); err != nil {
			return fail(err)
		}
		for i, g := range c.Groups {
			res, err := tx.q.ExecContext(ctx, `INSERT OR IGNORE INTO memberships(user_id, group_id) SELECT ?, id FROM groups WHERE name = ?`, id, g)
			if err != nil {
				return fail(err)
			}
			if n, _ := res.RowsAffected(); n == 0 && !slices.Contains(c.Groups[:i], g) {
				return fail(fmt.Errorf("%w: no group %q", ErrBadInput, g))
			}
		}
	}
	if c.Roles != nil {
		if len(c.Roles) == 0 {
			return fail(fmt.Errorf("%w: a user needs a role", ErrBadInput))
		}
		if _, err := tx.q.ExecContext(ctx, `DELETE FROM user_roles WHERE user_id = ?`, id); err != nil {
			return fail(err)
		}
		for i, r := range c.Roles {
			res, err := tx.q.ExecContext(ctx, `INSERT OR IGNORE INTO user_roles(user_id, role_id) SELECT ?, id FROM roles WHERE name = ?`, id, r)
			if err != nil {
				return fail(err)
			}
			if n, _ := res.RowsAffected(); n == 0 && !slices.Contains(c.Roles[:i], r) {
				return fail(fmt.Errorf("%w: no role %q", ErrBadInput, r))
			}
		}
		if _, err := tx.q.ExecContext(ctx, `UPDATE users SET admin = ? WHERE id = ?`, slices.Contains(c.Roles, RoleAdmin), id); err != nil {
			return fail(err)
		}
	}
	return nil
}

// keepAnAdministrator fails with ErrConflict when no enabled administrator
// is left, so that a change never locks every administrator out.
func (tx *Tx) keepAnAdministrator(ctx context.Context, what string) error {
	var n int
	if err := tx.q.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE admin AND enabled`).Scan(&n); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrLastAdministrator)
	}
	return nil
}

// DeletePerson removes a user. The files it owned pass to the built-in
// system owner, which administrators manage, so deleting a leaver loses no
// file and no permission given to others; the count is returned. It refuses
// (ErrLastAdministrator) to delete the last enabled administrator.
func (tx *Tx) DeletePerson(ctx context.Context, name string) (owned int, err error) {
	p, err := tx.PersonByName(ctx, name)
	if err != nil {
		return 0, err
	}
	if _, err := tx.q.ExecContext(ctx, `UPDATE files SET owner_id = NULL WHERE owner_id = (SELECT id FROM users WHERE name = ?)`, name); err != nil {
		return 0, fmt.Errorf("delete user %q: %w", name, err)
	}
	if _, err := tx.q.ExecContext(ctx, `DELETE FROM users WHERE name = ?`, name); err != nil {
		return 0, fmt.Errorf("delete user %q: %w", name, err)
	}
	if err := tx.keepAnAdministrator(ctx, "delete user "+name); err != nil {
		return 0, err
	}
	return p.Owned, nil
}

// SetPassword replaces a user's password hash.
func (q Queries) SetPassword(ctx context.Context, name, passwordHash string) error {
	res, err := q.q.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE name = ?`, passwordHash, name)
	if err != nil {
		return fmt.Errorf("password of user %q: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	return nil
}

// RenameGroup gives a group a new name; its members and grants stay.
func (q Queries) RenameGroup(ctx context.Context, name, to string) error {
	if err := validName(to); err != nil {
		return fmt.Errorf("rename group %q: %w", name, err)
	}
	return q.renameIn(ctx, "groups", "group", name, to)
}

// DeleteGroup removes a group with its memberships and the permissions
// granted to it.
func (q Queries) DeleteGroup(ctx context.Context, name string) error {
	return q.deleteIn(ctx, "groups", "group", name)
}

func (q Queries) renameIn(ctx context.Context, table, what, name, to string) error {
	res, err := q.q.ExecContext(ctx, `UPDATE `+table+` SET name = ? WHERE name = ?`, to, name)
	if isUniqueViolation(err) {
		return fmt.Errorf("rename %s %q to %q: %w", what, name, to, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("rename %s %q: %w", what, name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s %q: %w", what, name, ErrNotFound)
	}
	return nil
}

func (q Queries) deleteIn(ctx context.Context, table, what, name string) error {
	res, err := q.q.ExecContext(ctx, `DELETE FROM `+table+` WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("delete %s %q: %w", what, name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%s %q: %w", what, name, ErrNotFound)
	}
	return nil
}

// Roles returns every role, by name.
func (q Queries) Roles(ctx context.Context) ([]Role, error) {
	rows, err := q.q.QueryContext(ctx, `SELECT name, capabilities FROM roles ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list roles: %w", err)
	}
	defer rows.Close()
	var out []Role
	for rows.Next() {
		var r Role
		var caps string
		if err := rows.Scan(&r.Name, &caps); err != nil {
			return nil, fmt.Errorf("list roles: %w", err)
		}
		if err := json.Unmarshal([]byte(caps), &r.Capabilities); err != nil {
			return nil, fmt.Errorf("role %q: capabilities: %w", r.Name, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// builtInRole refuses to change ADMIN or ANALYST.
func builtInRole(name string) error {
	if name == RoleAdmin || name == RoleAnalyst {
		return fmt.Errorf("role %q: %w: a built-in role is not changed", name, ErrBadInput)
	}
	return nil
}

func validCapabilities(caps []string) error {
	for _, c := range caps {
		if c == "" {
			return fmt.Errorf("%w: empty capability", ErrBadInput)
		}
		if err := VisibleText("capability", c); err != nil {
			return err
		}
	}
	return nil
}

// CreateRole adds a role.
func (q Queries) CreateRole(ctx context.Context, r Role) error {
	if err := validName(r.Name); err != nil {
		return fmt.Errorf("create role %q: %w", r.Name, err)
	}
	if err := validCapabilities(r.Capabilities); err != nil {
		return fmt.Errorf("create role %q: %w", r.Name, err)
	}
	caps, _ := json.Marshal(nonNil(r.Capabilities))
	_, err := q.q.ExecContext(ctx, `INSERT INTO roles(name, capabilities) VALUES (?, ?)`, r.Name, string(caps))
	if isUniqueViolation(err) {
		return fmt.Errorf("create role %q: %w", r.Name, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("create role %q: %w", r.Name, err)
	}
	return nil
}

// UpdateRole renames a role (when r.Name differs) and, when
// r.Capabilities is not nil, sets its capabilities.
func (q Queries) UpdateRole(ctx context.Context, name string, r Role) error {
	if err := builtInRole(name); err != nil {
		return err
	}
	if err := validCapabilities(r.Capabilities); err != nil {
		return fmt.Errorf("update role %q: %w", name, err)
	}
	if r.Name != name {
		if err := validName(r.Name); err != nil {
			return fmt.Errorf("rename role %q: %w", name, err)
		}
		if err := q.renameIn(ctx, "roles", "role", name, r.Name); err != nil {
			return err
		}
	}
	if r.Capabilities == nil {
		return nil
	}
	caps, _ := json.Marshal(r.Capabilities)
	res, err := q.q.ExecContext(ctx, `UPDATE roles SET capabilities = ? WHERE name = ?`, string(caps), r.Name)
	if err != nil {
		return fmt.Errorf("update role %q: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("role %q: %w", name, ErrNotFound)
	}
	return nil
}

// DeleteRole removes a role; a user left without any role gets ANALYST, so
// that every user keeps one.
func (tx *Tx) DeleteRole(ctx context.Context, name string) error {
	if err := builtInRole(name); err != nil {
		return err
	}
	if err := tx.deleteIn(ctx, "roles", "role", name); err != nil {
		return err
	}
	_, err := tx.q.ExecContext(ctx, `INSERT INTO user_roles(user_id, role_id)
		SELECT u.id, r.id FROM users u JOIN roles r ON r.name = ?
		WHERE NOT EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id)`, RoleAnalyst)
	if err != nil {
		return fmt.Errorf("delete role %q: %w", name, err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
