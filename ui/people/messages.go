package people

import (
	"context"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// listMsg answers the read of the three lists; for a caller who may not
// list users (403), me is the caller's own account instead.
type listMsg struct {
	ticket common.Ticket
	users  []model.User
	groups []model.Group
	roles  []model.Role
	me     *model.LoggedInUser
	err    error
}

func (m listMsg) Failure() error { return m.err }

// writeMsg asks for one write, decided in a form or a confirmation; run
// makes the call. What it changes is said in done.
type writeMsg struct {
	label, done string
	run         func(ctx context.Context, c *api.Client) error
}

// wroteMsg answers a write.
type wroteMsg struct {
	label, done string
	err         error
}

func (m wroteMsg) Failure() error { return m.err }
