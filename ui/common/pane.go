package common

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Pane is one screen of the console (folders, connections, jobs). The root
// owns the header, the status line, help, the command line and dialogs; a
// pane draws only its own area.
//
// Messages reach a pane this way: key presses only while it is the active
// pane and no dialog is open; every other message (async results, ticks)
// goes to every pane, so a result lands even after the user switched away —
// panes ignore what they did not ask for (tag results with a request id).
type Pane interface {
	Init() tea.Cmd
	Update(tea.Msg) (Pane, tea.Cmd)
	// View renders exactly the size last given to SetSize.
	View() string
	SetSize(width, height int)
	// Title names the pane in the header tabs.
	Title() string
	// Bindings are the keys of what the pane shows now, each declared
	// once (see Binding): the pane handles keys with them, and the root
	// draws the hint bar and `?` from them.
	Bindings() Bindings
}

// Commander is implemented by panes that add `:` commands.
type Commander interface {
	Commands() []Command
}

// InputCapturer is implemented by panes that sometimes hold a text field
// (a filter, an owner name). While CapturingInput is true the root passes
// every key to the pane, so typing `q` or `1` writes it instead of quitting
// or switching panes; esc is the pane's to handle (leave the field).
type InputCapturer interface {
	CapturingInput() bool
}

// Loader is implemented by a pane whose first frame waits on a read: Loaded
// reports that the read has answered, with data or with an error. Until the
// pane on screen at the start is loaded and its frame drawn, the root holds
// back the first reads of the other panes (then sends FirstFrameMsg), so
// that the server answering them does not take the CPU that read and the
// drawing of the frame wait for.
type Loader interface {
	Loaded() bool
}

// Leaver is implemented by panes that close what they hold open beside
// their list (the permissions panel) when the user switches to another
// pane, so that coming back shows one cursor, on the list.
type Leaver interface {
	Leave()
}

// PathResolver is implemented by the folders pane: `:cd` resolves a
// relative path against CurrentPath, and tab completes folder paths from
// the folders CompletePath knows (it reads nothing).
type PathResolver interface {
	CurrentPath() string
	CompletePath(prefix string) []string
}

// Command is one `:` command. Run parses the arguments and returns the
// command that does the work: most often Send of a pane's own message, which
// the pane then handles in Update, or of a StatusMsg saying what was wrong;
// reading files or the network belongs in that command (a task), since Run
// itself is called in Update. Run must not change any model state. The root
// focuses the pane that registered the command before the work runs.
type Command struct {
	Name  string // typed after the colon, e.g. "trigger"
	Args  string // shown in the completion hint, e.g. "PATH|ID"
	Help  string
	Run   func(args string) tea.Cmd
	owner int // index of the registering pane, set by the root
}

// Owner returns the index of the pane that registered the command.
func (c Command) Owner() int { return c.owner }

// WithOwner returns the command bound to the pane at index i.
func (c Command) WithOwner(i int) Command {
	c.owner = i
	return c
}

// Dialog is a modal on top of the panes: forms and confirmations. The root
// gives the top dialog every key before anyone else, and every other
// message too. Update returns nil to close the dialog; what the dialog
// decided travels in the returned command as a message for a pane.
type Dialog interface {
	Update(tea.Msg) (Dialog, tea.Cmd)
	// View renders the dialog box, at most the size last given to SetSize.
	View() string
	SetSize(width, height int)
	help.KeyMap
}
