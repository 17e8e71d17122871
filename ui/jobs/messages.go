package jobs

import (
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// pollMsg answers one list-running request; its ticket drops an answer
// that arrives after a re-login.
type pollMsg struct {
	ticket common.Ticket
	jobs   []model.RunningJob
	err    error
	jobAPI api.JobAPI // as the client knows it after the poll
	// changes is how jobs differ from base, the answer the table held
	// when the poll was sent, as the poll's task found.
	base    []model.RunningJob
	changes common.Changes
	index   *pollIndex // jobs indexed, in the poll's task too; set with jobs
}

func (m pollMsg) Failure() error { return m.err }

// pollTickMsg says the poll interval has passed. Its ticket is the
// schedule it belongs to: changing the interval, pausing or refreshing
// starts a new schedule, and ticks of an older one are dropped.
type pollTickMsg struct{ ticket common.Ticket }

// jobStatusMsg answers the status reads of the visible rows.
type jobStatusMsg struct {
	ticket  common.Ticket
	results []statusResult
}

// statusResult is what one status read (and, for an execution that is no
// longer the file's newest, the details read after it) says about an execution.
type statusResult struct {
	execID int64
	status model.JobStatus
	// ended is set when the execution's final state was read from its
	// details because a newer execution of the same file took the status.
	ended model.JobState
	err   error
}

// triggerRequest asks to trigger the job named by ref (a key or :trigger).
type triggerRequest struct {
	ref   api.Ref
	label string
}

type triggeredMsg struct {
	ref    api.Ref
	label  string
	answer model.Triggered
	err    error
}

func (m triggeredMsg) Failure() error { return m.err }

// stopRequest carries what the stop confirmation decided.
type stopRequest struct {
	ref    api.Ref
	label  string
	execID int64
}

type stoppedMsg struct {
	label string
	err   error
}

func (m stoppedMsg) Failure() error { return m.err }

// sequenceRequest asks for a sequential trigger: refs are resolved to file
// ids first (the endpoint takes ids only).
type sequenceRequest struct {
	refs      []api.Ref
	variables map[string]string
}

type sequenceMsg struct {
	plan model.ExecutionPlan
	err  error
}

func (m sequenceMsg) Failure() error { return m.err }

// planStatusMsg answers the status reads of a plan's executions.
type planStatusMsg struct {
	ticket common.Ticket
	states map[int64]model.JobState
}

type planTickMsg struct{ ticket common.Ticket }

// historyRequest opens the history of a job configuration.
type historyRequest struct {
	configID int64
	label    string
}

type historyMsg struct {
	ticket   common.Ticket
	configID int64
	start    int
	entries  []model.HistoryEntry
	total    int // -1 when the server does not say
	err      error
}

func (m historyMsg) Failure() error { return m.err }

type detailsMsg struct {
	ticket  common.Ticket
	execID  int64
	details model.JobDetails
	err     error
}

func (m detailsMsg) Failure() error { return m.err }

// deleteRequest carries what the delete confirmation decided.
type deleteRequest struct{ execID int64 }

type deletedMsg struct {
	execID int64
	answer model.DataDeletion
	err    error
}

func (m deletedMsg) Failure() error { return m.err }

// intervalRequest sets the poll interval (:interval); 0 turns polling off.
type intervalRequest struct{ every time.Duration }
