package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/dapconsole/dapconsole/model"
	"strings"

	"golang.org/x/crypto/bcrypt"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SystemOwner is the owner name of files no user owns (the root folder at first).
const SystemOwner = "system"

// User is an account; GroupIDs are the groups it belongs to.
type User struct {
	ID           int64
	Name         string
	Admin        bool
	Enabled      bool
	GroupIDs     []int64
	PasswordHash string
}

// Group is a named set of users that permissions are granted to.
type Group struct {
	ID   int64
	Name string
}

// HashPassword hashes a password with bcrypt at the given cost
// (bcrypt.DefaultCost for real accounts).
func HashPassword(password string, cost int) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// CreateUser adds a user with an already hashed password.
func (q Queries) CreateUser(ctx context.Context, name, passwordHash string, admin bool) (User, error) {
	if err := validName(name); err != nil {
		return User{}, fmt.Errorf("create user %q: %w", name, err)
	}
	res, err := q.q.ExecContext(ctx, `INSERT INTO users(name, password_hash, admin) VALUES (?, ?, ?)`, name, passwordHash, admin)
	if err != nil {
		if isUniqueViolation(err) {
			return User{}, fmt.Errorf("create user %q: %w", name, ErrExists)
		}
		return User{}, fmt.Errorf("create user %q: %w", name, err)
	}
	id, _ := res.LastInsertId()
	role := RoleAnalyst
	if admin {
		role = RoleAdmin
	}
	if _, err := q.q.ExecContext(ctx, `INSERT INTO user_roles(user_id, role_id) SELECT ?, id FROM roles WHERE name = ?`, id, role); err != nil {
		return User{}, fmt.Errorf("create user %q: role: %w", name, err)
	}
	return User{ID: id, Name: name, Admin: admin, Enabled: true, PasswordHash: passwordHash}, nil
}

// UserByName returns the user with its groups, or ErrNotFound.
func (q Queries) UserByName(ctx context.Context, name string) (User, error) {
	var u User
	err := q.q.QueryRowContext(ctx, `SELECT id, name, admin, enabled, password_hash FROM users WHERE name = ?`, name).
		Scan(&u.ID, &u.Name, &u.Admin, &u.Enabled, &u.PasswordHash)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("user %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return User{}, fmt.Errorf("user %q: %w", name, err)
	}
	rows, err := q.q.QueryContext(ctx, `SELECT group_id FROM memberships WHERE user_id = ? ORDER BY group_id`, u.ID)
	if err != nil {
		return User{}, fmt.Errorf("groups of user %q: %w", name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var g int64
		if err := rows.Scan(&g); err != nil {
			return User{}, fmt.Errorf("groups of user %q: %w", name, err)
		}
		u.GroupIDs = append(u.GroupIDs, g)
	}
	return u, rows.Err()
}

// CountUsers tells an empty store (no users yet) from one in use.
func (q Queries) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := q.q.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count users: %w", err)
	}
	return n, nil
}

// CreateGroup adds a group.
func (q Queries) CreateGroup(ctx context.Context, name string) (Group, error) {
	if err := validName(name); err != nil {
		return Group{}, fmt.Errorf("create group %q: %w", name, err)
	}
	res, err := q.q.ExecContext(ctx, `INSERT INTO groups(name) VALUES (?)`, name)
	if err != nil {
		if isUniqueViolation(err) {
			return Group{}, fmt.Errorf("create group %q: %w", name, ErrExists)
		}
		return Group{}, fmt.Errorf("create group %q: %w", name, err)
	}
	id, _ := res.LastInsertId()
	return Group{ID: id, Name: name}, nil
}

// GroupByName returns the group, or ErrNotFound.
func (q Queries) GroupByName(ctx context.Context, name string) (Group, error) {
	g := Group{Name: name}
	err := q.q.QueryRowContext(ctx, `SELECT id FROM groups WHERE name = ?`, name).Scan(&g.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return Group{}, fmt.Errorf("group %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Group{}, fmt.Errorf("group %q: %w", name, err)
	}
	return g, nil
}

// AddMember puts a user into a group.
func (q Queries) AddMember(ctx context.Context, userID, groupID int64) error {
	if _, err := q.q.ExecContext(ctx, `INSERT OR IGNORE INTO memberships(user_id, group_id) VALUES (?, ?)`, userID, groupID); err != nil {
		return fmt.Errorf("add user %d to group %d: %w", userID, groupID, err)
	}
	return nil
}

func validName(name string) error {
	if name == "" || strings.ContainsAny(name, "/\x00") || strings.TrimSpace(name) != name {
		return fmt.Errorf("%w: name %q", ErrBadInput, name)
	}
	return VisibleText("name", name)
}

// VisibleText refuses a name, path or description holding a character a
// terminal would act on (model.IsTerminalControl): every client draws them,
// and the console is a terminal. The error names the field and quotes the
// value escaped.
func VisibleText(field, s string) error {
	if r, found := model.TerminalControlIn(s); found {
		return fmt.Errorf("%w: %s %q holds %U, a control character a terminal would act on", ErrBadInput, field, s, r)
	}
	return nil
}

func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && (se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}

// Groups returns every group, by name.
func (q Queries) Groups(ctx context.Context) ([]Group, error) {
	rows, err := q.q.QueryContext(ctx, `SELECT id, name FROM groups ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list groups: %w", err)
	}
	defer rows.Close()
	var out []Group
	for rows.Next() {
		var g Group
		if err := rows.Scan(&g.ID, &g.Name); err != nil {
			return nil, fmt.Errorf("list groups: %w", err)
		}
		out = append(out, g)
	}
	return out, rows.Err()
}
