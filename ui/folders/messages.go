package folders

import (
	"errors"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// childrenMsg answers a folder read; its ticket drops an answer to a read
// that a newer one replaced.
type childrenMsg struct {
	ticket common.Ticket
	nodeID int64 // 0 for the root
	folder model.Folder
	err    error
}

func (m childrenMsg) Failure() error { return m.err }

// permsMsg answers a permission read, or a write followed by the re-read
// that shows the server's truth.
type permsMsg struct {
	ticket   common.Ticket
	target   string // the path of the folder or file
	label    string // what was attempted, for an error ("changing owner of /Data")
	done     string // what a successful write did, "" for a plain read
	perm     model.Permission
	groups   []model.GroupPermission
	writeErr error
	readErr  error
	// wantOwner is the owner a change asked for, checked against the answer.
	wantOwner string
}

func (m permsMsg) Failure() error { return errors.Join(m.writeErr, m.readErr) }

// addGroupMsg and deleteGroupMsg carry what the add-group form and the
// delete confirmation decided.
type addGroupMsg struct {
	target string
	name   string
	flags  model.Flags
}

type deleteGroupMsg struct {
	target string
	name   string
}

// setFlagsMsg carries what a flags form decided: the three flags of others
// (group "") or of a group.
type setFlagsMsg struct {
	target string
	group  string
	flags  model.Flags
}
