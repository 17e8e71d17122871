package common

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// PaneID names a pane of the console's pane list (ui/panes.go) whatever its
// place there: panes send the user to one another by it (FocusPaneMsg), and
// it is the `:` command that shows the pane.
type PaneID string

// The console's own panes.
const (
	FoldersPane     PaneID = "folders"
	ConnectionsPane PaneID = "conn"
	JobsPane        PaneID = "jobs"
	PeoplePane      PaneID = "users"
)

// Level says how the status line shows a message.
type Level int

// Status line levels.
const (
	LevelInfo Level = iota
	LevelNotice
	LevelError
)

// StatusMsg puts one line in the status line. Failures come from Fail,
// which sets Err.
type StatusMsg struct {
	Level Level
	Text  string
	// Err is the failure an error line reports; the root reads it for the
	// header's connection health.
	Err error
}

// Send returns a command that delivers msg.
func Send(msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return msg }
}

// Notify returns a command that shows a notice in the status line.
func Notify(text string) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Level: LevelNotice, Text: text} }
}

// Info returns a command that shows neutral information in the status line.
func Info(text string) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Level: LevelInfo, Text: text} }
}

// Problem returns a command that shows, as an error, what is wrong with what
// the user asked when no call failed (a failed call is Fail's).
func Problem(text string) tea.Cmd {
	return func() tea.Msg { return StatusMsg{Level: LevelError, Text: text} }
}

// IsUnauthorized reports whether err is the server refusing the credentials.
func IsUnauthorized(err error) bool { return api.IsUnauthorized(err) }

// UnauthorizedMsg says the server refused the credentials (HTTP 401): the
// password changed or expired. The root shows the login screen if one is
// plugged in, else says so in the status line.
type UnauthorizedMsg struct{ Err error }

// LoggedInMsg gives the root a new session after a login screen succeeded.
type LoggedInMsg struct {
	Client       *api.Client
	Server, User string
	Profile      string
	ReadOnly     bool
}

// FirstFrameMsg says that the first frame is out (the pane on screen at
// the start has what it shows, and the renderer has had time to draw it),
// or that the user has gone to another pane: reads for what that frame
// does not show leave now. The root sends it once, with the first reads of
// the panes not on screen, which it held back until then.
type FirstFrameMsg struct{}

// OpenDialogMsg pushes a dialog on the stack.
type OpenDialogMsg struct{ Dialog Dialog }

// OpenDialog returns a command that opens d on top of everything.
func OpenDialog(d Dialog) tea.Cmd {
	return func() tea.Msg { return OpenDialogMsg{Dialog: d} }
}

// FocusPaneMsg makes the pane registered as Pane the active one.
type FocusPaneMsg struct{ Pane PaneID }

// BackMsg asks the root to return to the pane the user came from: a pane
// entered by a jump (a job's history opened from the dependency graph, a
// folder opened from a job) sends it on esc once it has nothing of its own
// left to close, so esc walks back across panes as it came.
type BackMsg struct{}

// WatchTickMsg says the watch interval passed (`:watch`, 30 s unless set):
// the folders and connections panes read again, quietly, what they show,
// keeping cursor and filter. The jobs pane has its own poll.
type WatchTickMsg struct{}

// GotoPathMsg asks the folders pane to show a folder path (`:cd`, or "open
// where it lives" from another pane); the root focuses the folders pane.
type GotoPathMsg struct{ Path string }

// OpenJobMsg asks the jobs pane to show a job (a dependency opened from the
// connections pane): Path is its path, ConfigID its configuration id. The
// sender focuses the jobs pane with FocusPaneMsg alongside.
type OpenJobMsg struct {
	ConfigID int64
	UUID     string
	Path     string
}

// TriggerJobMsg and StopJobMsg ask the jobs pane to trigger a job, or to
// stop one after asking, as its own keys do (from a file row of the tree).
type TriggerJobMsg struct {
	Ref   api.Ref
	Label string
}

// StopJobMsg: see TriggerJobMsg.
type StopJobMsg struct {
	Ref   api.Ref
	Label string
}

// SequenceFormMsg asks the jobs pane for its sequential trigger form with
// these jobs filled in (T on jobs marked or selected in the folder tree).
type SequenceFormMsg struct{ Paths []string }

// OpenConnectionMsg asks the connections pane to select a connection (a
// connection's file row opened in the tree); the sender focuses the pane.
type OpenConnectionMsg struct {
	ConfigID int64
	Path     string
}

// Failer is implemented by result messages that may carry an error; the
// root reads it to keep the header's connection health current.
type Failer interface {
	Failure() error
}

// TaskStartedMsg tells the root a task began: it shows the spinner and the
// label (unless the task is Quiet), and asks before quitting while a
// transfer runs.
type TaskStartedMsg struct {
	ID       int64
	Label    string
	Transfer bool
	Quiet    bool
	Cancel   context.CancelFunc
}

// TaskDoneMsg ends a task; the root forgets it and delivers Msg, the task's
// own result, as if it had come alone.
type TaskDoneMsg struct {
	ID  int64
	Msg tea.Msg
}

var lastTaskID atomic.Int64

// TaskKind says how the root shows a task.
type TaskKind int

// Task kinds.
const (
	Quick    TaskKind = iota // a read or a small write: shown; quitting just drops it
	Transfer                 // a backup or restore: shown; quitting asks first
	Quiet                    // a periodic poll: not shown, so the status line stays still
)

// StartTask runs fn off the Update loop under a cancellable context and
// returns fn's message. The root shows label with a spinner meanwhile and
// cancels the context when the user quits.
//
// fn starts as the task's TaskStartedMsg is made, not once the event loop
// has taken it: at start the loop is busy drawing and would hold the first
// reads back by milliseconds, past the renderer's first tick. The sequence
// still delivers TaskStartedMsg before TaskDoneMsg, which the root's task
// list needs.
func StartTask(label string, kind TaskKind, fn func(ctx context.Context) tea.Msg) tea.Cmd {
	id := lastTaskID.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan taskResult, 1)
	started := func() tea.Msg {
		go func() {
			defer cancel()
			defer func() {
				if r := recover(); r != nil {
					result <- taskResult{panicked: fmt.Sprintf("%v\n\n%s", r, debug.Stack())}
				}
			}()
			result <- taskResult{msg: fn(ctx)}
		}()
		return TaskStartedMsg{ID: id, Label: label, Transfer: kind == Transfer, Quiet: kind == Quiet, Cancel: cancel}
	}
	done := func() tea.Msg {
		r := <-result
		if r.panicked != "" {
			// Raised again where Bubble Tea catches it and restores the
			// terminal, as it did when fn ran in the command itself.
			panic(r.panicked)
		}
		return TaskDoneMsg{ID: id, Msg: r.msg}
	}
	return tea.Sequence(started, done)
}

// taskResult is what a task's fn returned, or the panic it raised with its
// stack.
type taskResult struct {
	msg      tea.Msg
	panicked string
}

// Copy puts text on the clipboard by OSC 52, which reaches the admin's own
// terminal over SSH too, and says in the status line what was copied.
func Copy(what, text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text),
		Notify("copied "+what+" "+Clean(text)+" to the clipboard (OSC 52)"))
}

// JobsPolledMsg is what the jobs pane's poll found running, each state by
// the file's UUID: panes that show job states (the tree) follow it, so a
// job that ended or started elsewhere shows so without r.
type JobsPolledMsg struct{ Running map[string]model.JobState }

// ServerBackMsg says the server answers again after it did not: every pane
// reads again what failed while it was away, so no error stays on screen
// that only r would clear.
type ServerBackMsg struct{}

// DeleteFileMsg asks the pane that owns a kind of file to delete one the
// tree shows (a connection: the connections pane, which first reads what
// depends on it and refuses with the platform's reason); it asks first.
type DeleteFileMsg struct {
	Kind model.Kind
	ID   int64 // the file's configuration id
	Path string
}

// FilesChangedMsg says a pane created or deleted files: the tree reads
// the file lists again.
type FilesChangedMsg struct{}

// TransferProgressMsg tells the root how far a backup or restore is, for
// the header, while it runs in the background: the task is named by its
// label, as it started; total is -1 while the size is not known.
type TransferProgressMsg struct {
	Label       string
	Done, Total int64
}
