package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

const userManagementPath = "/rest/user-management/"

// usersPage is how many users, groups or roles one request asks for: the
// platform's default window is 10.
const usersPage = 1000

// Users lists every user, a page of usersPage at a time. Only administrators
// may (403 for the others); a server without user management answers an
// error matching ErrUnsupported.
func (c *Client) Users(ctx context.Context) ([]model.User, error) {
	return allPages[model.User](ctx, c, userManagementPath+"users")
}

// Groups lists every group, as Users lists users.
func (c *Client) Groups(ctx context.Context) ([]model.Group, error) {
	return allPages[model.Group](ctx, c, userManagementPath+"groups")
}

// Roles lists every role, as Users lists users.
func (c *Client) Roles(ctx context.Context) ([]model.Role, error) {
	return allPages[model.Role](ctx, c, userManagementPath+"roles")
}

// allPages reads a user-management list page by page. Lists come in the
// {maxResults,total,elements} window, or, as older releases document the
// group and role lists, as a bare array (taken whole).
func allPages[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	var all []T
	for {
		var raw json.RawMessage
		if err := c.read(ctx, http.MethodGet, path, pageQuery(len(all)), nil, &raw); err != nil {
			return nil, unsupported(err)
		}
		if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 && trimmed[0] == '[' {
			var bare []T
			if err := json.Unmarshal(trimmed, &bare); err != nil {
				return nil, &Error{Op: "GET " + path, Reason: "answer is neither a list nor a window", Err: err}
			}
			return bare, nil
		}
		var page model.Page[T]
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, &Error{Op: "GET " + path, Reason: "answer is neither a list nor a window", Err: err}
		}
		all = append(all, page.Elements...)
		if len(page.Elements) == 0 || len(all) >= page.Total {
			return all, nil
		}
	}
}

func pageQuery(start int) string {
	v := url.Values{"maxResults": {strconv.Itoa(usersPage)}}
	if start > 0 {
		v.Set("firstResult", strconv.Itoa(start))
	}
	return v.Encode()
}

func userPath(name string) string { return userManagementPath + "users/" + url.PathEscape(name) }

// ReadUser reads one user.
func (c *Client) ReadUser(ctx context.Context, name string) (model.User, error) {
	var u model.User
	err := c.read(ctx, http.MethodGet, userPath(name), "", nil, &u)
	return u, err
}

// LoggedInUser reads the caller's own account: name, groups, roles.
func (c *Client) LoggedInUser(ctx context.Context) (model.LoggedInUser, error) {
	var u model.LoggedInUser
	if err := c.read(ctx, http.MethodGet, userManagementPath+"logged-in-user", "", nil, &u); err != nil {
		return u, unsupported(err)
	}
	return u, nil
}

// CreateUser creates a user (u.Username set) and, when password is not
// empty, gives it that password with a second request: the platform's
// create body carries none. The password is sent once and kept nowhere.
func (c *Client) CreateUser(ctx context.Context, u model.User, password string) error {
	u.OwnedFiles = nil
	if _, err := c.call(ctx, http.MethodPost, userManagementPath+"users", "", u, nil, false); err != nil {
		return err
	}
	if password == "" {
		return nil
	}
	return c.SetPassword(ctx, u.Username, password)
}

// UpdateUser writes a user's e-mail, enabled flag, groups and roles; the
// body is the user without its username, as the platform wants it.
func (c *Client) UpdateUser(ctx context.Context, u model.User) error {
	name := u.Username
	u.Username, u.OwnedFiles = "", nil
	_, err := c.call(ctx, http.MethodPut, userPath(name), "", u, nil, false)
	return err
}

// DeleteUser deletes a user.
func (c *Client) DeleteUser(ctx context.Context, name string) error {
	_, err := c.call(ctx, http.MethodDelete, userPath(name), "", nil, nil, false)
	return err
}

// SetPassword gives a user a new password: the raw text is the body, with
// no content type, as the platform's clients send it.
func (c *Client) SetPassword(ctx context.Context, name, password string) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	r := request{method: http.MethodPut, path: userManagementPath + "password/" + url.PathEscape(name),
		body: strings.NewReader(password), length: int64(len(password))}
	_, _, err := c.fetch(ctx, r)
	return err
}

// CreateGroup creates a group.
func (c *Client) CreateGroup(ctx context.Context, name string) error {
	_, err := c.call(ctx, http.MethodPost, userManagementPath+"groups", "", model.Group{Name: name}, nil, false)
	return err
}

// RenameGroup renames a group; its members stay.
func (c *Client) RenameGroup(ctx context.Context, name, to string) error {
	_, err := c.call(ctx, http.MethodPut, userManagementPath+"groups/"+url.PathEscape(name), "", model.Group{Name: to}, nil, false)
	return err
}

// DeleteGroup deletes a group.
func (c *Client) DeleteGroup(ctx context.Context, name string) error {
	_, err := c.call(ctx, http.MethodDelete, userManagementPath+"groups/"+url.PathEscape(name), "", nil, nil, false)
	return err
}

// CreateRole creates a role.
func (c *Client) CreateRole(ctx context.Context, r model.Role) error {
	_, err := c.call(ctx, http.MethodPost, userManagementPath+"roles", "", r, nil, false)
	return err
}

// UpdateRole renames a role (r.Name) and sets its capabilities.
func (c *Client) UpdateRole(ctx context.Context, name string, r model.Role) error {
	_, err := c.call(ctx, http.MethodPut, userManagementPath+"roles/"+url.PathEscape(name), "", r, nil, false)
	return err
}

// DeleteRole deletes a role.
func (c *Client) DeleteRole(ctx context.Context, name string) error {
	_, err := c.call(ctx, http.MethodDelete, userManagementPath+"roles/"+url.PathEscape(name), "", nil, nil, false)
	return err
}

// LicenseDetails reads the platform's licence; a platform without the
// endpoint answers an error matching ErrUnsupported.
func (c *Client) LicenseDetails(ctx context.Context) (model.LicenseDetails, error) {
	var l model.LicenseDetails
	if err := c.read(ctx, http.MethodGet, "/rest/license-details", "", nil, &l); err != nil {
		return l, unsupported(err)
	}
	return l, nil
}
