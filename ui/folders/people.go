package folders

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// people are the platform's users and groups, read once per session when
// permissions are first opened, for the owner and group pick lists.
type people struct {
	users, groups []string
	asked         bool
}

// peopleMsg answers the read of the user-management lists.
type peopleMsg struct {
	users, groups []string
	err           error
}

func (m peopleMsg) Failure() error { return m.err }

// readPeople reads the users and groups once; a server that lists them not
// to this user (only administrators may) leaves the fields typed by hand.
func (p *Pane) readPeople() tea.Cmd {
	client := p.ctx.Client
	if p.people.asked || client == nil {
		return nil
	}
	p.people.asked = true
	return common.StartTask("reading users and groups", common.Quiet, func(ctx context.Context) tea.Msg {
		var msg peopleMsg
		users, err := client.Users(ctx)
		if err != nil {
			return peopleMsg{err: err}
		}
		for _, u := range users {
			msg.users = append(msg.users, u.Username)
		}
		groups, err := client.Groups(ctx)
		if err != nil {
			return peopleMsg{err: err}
		}
		for _, g := range groups {
			msg.groups = append(msg.groups, g.Name)
		}
		return msg
	})
}

// gotPeople keeps the lists, or says once why there are none.
func (p *Pane) gotPeople(msg peopleMsg) tea.Cmd {
	switch {
	case msg.err == nil:
		p.people.users, p.people.groups = msg.users, msg.groups
		if e := p.perms; e != nil && e.editingOwner { // the list came while the owner was typed
			e.ownerPick = common.NewPicker(msg.users)
			if e.owner.Value() != e.perm.Owner { // untouched, it offers every user
				e.ownerPick.Filter(e.owner.Value())
			}
		}
		return nil
	case api.IsForbidden(msg.err):
		return common.Info("users and groups are listed to administrators only: type the names")
	case errors.Is(msg.err, api.ErrUnsupported):
		return common.Info("this server lists no users and groups: type the names")
	}
	return common.Fail("reading users and groups", msg.err)
}
