package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
)

const userManagementPath = "/rest/user-management/"

// usersPage is how many users or groups one request asks for.
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

// allPages reads a user-management list ({total, elements}) page by page.
func allPages[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	var all []T
	for {
		var page struct {
			Total    int `json:"total"`
			Elements []T `json:"elements"`
		}
		if err := c.read(ctx, http.MethodGet, path, pageQuery(len(all)), nil, &page); err != nil {
			return nil, unsupported(err)
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
		v.Set("startIndex", strconv.Itoa(start))
	}
	return v.Encode()
}

// LoggedInUser reads the caller's own account: name, groups, roles.
func (c *Client) LoggedInUser(ctx context.Context) (model.User, error) {
	var u model.User
	if err := c.read(ctx, http.MethodGet, userManagementPath+"logged-in-user", "", nil, &u); err != nil {
		return u, unsupported(err)
	}
	return u, nil
}
