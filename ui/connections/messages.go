package connections

import (
	"errors"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// listMsg answers a read of the connections list; its ticket drops an
// answer to a read a newer one replaced.
type listMsg struct {
	ticket  common.Ticket
	entries []model.ConnectionEntry
	err     error
	// selectID is the connection the cursor moves to once the list is in
	// (one just created); 0 keeps the cursor where it is.
	selectID int64
	// changes is how entries differ from base, the answer the pane held
	// when it asked, as the read's task found.
	base    []model.ConnectionEntry
	changes common.Changes
}

func (m listMsg) Failure() error { return m.err }

// typesMsg carries the types of some connections, read one by one because
// the list does not hold them.
type typesMsg struct {
	ticket common.Ticket
	types  map[int64]string
	err    error
}

func (m typesMsg) Failure() error { return m.err }

// detailsMsg answers the read of one connection for the details view.
type detailsMsg struct {
	ticket common.Ticket
	id     int64
	conn   model.Connection
	err    error
}

func (m detailsMsg) Failure() error { return m.err }

// levelMsg answers the dependency reads of one level of a graph: for each
// node of the frontier, its direct dependencies in the node's direction.
type levelMsg struct {
	connID int64
	ticket common.Ticket
	nodes  []*node
	deps   [][]model.Dependency
	errs   []error
}

func (m levelMsg) Failure() error { return errors.Join(m.errs...) }

// editLoadedMsg answers the read of a connection about to be edited.
type editLoadedMsg struct {
	id   int64
	conn model.Connection
	err  error
}

func (m editLoadedMsg) Failure() error { return m.err }

// editedMsg comes back when the editor exits: the text as the user left it.
type editedMsg struct {
	id     int64
	path   string
	shown  string // the body the editor opened with, comments stripped
	edited string
	err    error
	retry  bool // the editor reopened an edit that was not saved
}

// editAgainMsg is the yes to "open the editor again?" after an edit that
// stayed invalid.
type editAgainMsg struct {
	id            int64
	path          string
	body, problem string
}

// savedMsg answers an update sent after an edit.
type savedMsg struct {
	id     int64
	path   string
	edited string // kept to reopen the editor when the server rejects the body
	err    error
}

func (m savedMsg) Failure() error { return m.err }

// newKindMsg says which kind of connection the user chose to create.
type newKindMsg struct{ kind newKind }

// createMsg carries a new connection from the form to the create request.
// It holds the password only until the request is sent.
type createMsg struct{ conn model.Connection }

// createdMsg answers a create; it carries no password.
type createdMsg struct {
	id   int64
	path string
	err  error
}

func (m createdMsg) Failure() error { return m.err }

// deleteCheckMsg carries what depends on a connection about to be deleted.
type deleteCheckMsg struct {
	id         int64
	path       string
	dependents []model.Dependency
	err        error
}

func (m deleteCheckMsg) Failure() error { return m.err }

// deleteMsg is the confirmed delete; deletedMsg its answer.
type deleteMsg struct {
	id   int64
	path string
}

type deletedMsg struct {
	id   int64
	path string
	err  error
}

func (m deletedMsg) Failure() error { return m.err }

// noDependencyEndpoint reports whether err means the server offers no
// dependency endpoint: the real platform without its governance plug-in
// answers 404 or 501 there. A 404 for a connection that is gone is not that.
func noDependencyEndpoint(err error) bool {
	var apiErr *api.Error
	var gone goneError
	return errors.As(err, &apiErr) && (apiErr.Status == 404 || apiErr.Status == 501) && !errors.As(err, &gone)
}

// goneError is a 404 of the dependency endpoint for a connection that its
// own read does not find either: the endpoint is there, the connection is not.
type goneError struct{ error }

func (e goneError) Unwrap() error { return e.error }
