package folders

import (
	"errors"
	"fmt"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// childrenMsg answers a folder read. req tags the request: an answer to a
// request that a newer one replaced is dropped.
type childrenMsg struct {
	req    int
	nodeID int64 // 0 for the root
	folder model.Folder
	err    error
}

func (m childrenMsg) Failure() error { return m.err }

// permsMsg answers a permission read, or a write followed by the re-read
// that shows the server's truth.
type permsMsg struct {
	req      int
	folderID int64
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
	folderID int64
	name     string
	flags    model.Flags
}

type deleteGroupMsg struct {
	folderID int64
	name     string
}

// explain says an error in plain words: a 403 or a 404 as what it means to
// an admin, another refusal by the server's reason, anything else as the
// error reads.
func explain(action string, err error) string {
	var apiErr *api.Error
	if !errors.As(err, &apiErr) {
		return fmt.Sprintf("%s: %v", action, err)
	}
	reason := ""
	if apiErr.Reason != "" {
		reason = ": " + apiErr.Reason
	}
	switch {
	case api.IsForbidden(err):
		return fmt.Sprintf("%s: not allowed — the server refused it (403)%s", action, reason)
	case api.IsNotFound(err):
		return fmt.Sprintf("%s: not found — it does not exist or you may not see it (404)%s", action, reason)
	case api.IsUnreachable(err):
		return fmt.Sprintf("%s: the server does not answer", action)
	case apiErr.Status != 0 && apiErr.Reason != "":
		return fmt.Sprintf("%s: %s (%d)", action, apiErr.Reason, apiErr.Status)
	}
	return fmt.Sprintf("%s: %v", action, err)
}
