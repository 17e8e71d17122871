package common

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap is the one key map of the console: every pane matches against it,
// so a key means the same thing everywhere and `?` lists it once. Panes
// that need a key of their own add a field here rather than declaring a
// binding of their own.
type KeyMap struct {
	// Navigation. Move is Up and Down together, for short help lines.
	Up, Down, Move, PageUp, PageDown, Top, Bottom key.Binding
	Open, Close                                   key.Binding

	// Actions on the selection.
	Mark, Filter, Refresh, Permissions, Backup, Restore key.Binding

	// Editing (their bindings in a view are write keys: see Binding.Write).
	Toggle, Add, Edit, New, Delete, Trigger, Stop key.Binding
	// SequentialTrigger runs the marked jobs and their downstream
	// dependents in order (a write key).
	SequentialTrigger key.Binding
	// NewFolder, Rename and Move make, rename and move folders in the tree
	// (write keys).
	NewFolder, Rename, MoveTo key.Binding

	// CopyPath and CopyID put the selected row's path or id on the
	// clipboard (OSC 52, so it reaches the admin's machine over SSH).
	CopyPath, CopyID key.Binding

	// Diff compares a local backup with the live folder (the tree, a
	// restore's plan); CopyTo copies the folder or the marked files to
	// another saved profile's platform.
	Diff, CopyTo key.Binding

	// Sorting, the same keys in every list (the tree, connections, jobs):
	// the next column, reverse.
	SortBy, SortReverse key.Binding
	// Direct sort keys, shift+letter as in k9s: the column a letter names
	// (pressed again, the order reverses). The letters avoid the upper-case
	// keys taken (G, L, N, O, P, R, T, Y).
	SortName, SortFile, SortState, SortProgress, SortElapsed, SortEstimate key.Binding
	SortUser, SortID, SortType, SortDescription                            key.Binding
	PollFaster, PollSlower                                                 key.Binding
	PollPause, PollOff                                                     key.Binding

	// Dialogs and forms. Yes and No answer a dialog that asks (a
	// restore's plan, a copy's): y sends, n sends nothing.
	Confirm, NextField, PrevField key.Binding
	Yes, No                       key.Binding

	// The connections pane: hide system connections, details, and the
	// depth of the dependency graph (it sorts with SortBy and SortReverse).
	HideSystem, Details, Deeper, Shallower key.Binding
	// Logs shows a job execution's log.
	Logs key.Binding
	// ViewData shows a job's newest data; NextSection and PrevSection
	// switch among the lists of a pane (users, groups, roles) or the
	// sheets of a workbook; Password resets a user's.
	ViewData, NextSection, PrevSection, Password key.Binding

	// The application.
	// The keys 1…9 that show a pane are the root's: they come from its pane
	// list.
	Help, Command, Back, Quit, NextPane, PrevPane key.Binding
	// Log opens the session's message log.
	Log key.Binding
}

// DefaultKeyMap returns the console's key map. Which keys work where is the
// views' to say, in their Bindings.
func DefaultKeyMap() *KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return &KeyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		Move:     b([]string{"up", "down", "k", "j"}, "↑↓", "move"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g/home", "top"),
		Bottom:   b([]string{"end", "G"}, "G/end", "bottom"),
		// l and h open and close as a pair, everywhere (the tree, a
		// connection's views, a job's history and log): as in lazygit.
		Open:  b([]string{"enter", "right", "l"}, "enter/→/l", "open"),
		Close: b([]string{"left", "h"}, "←/h", "close"),

		Mark:        b([]string{"space"}, "space", "mark"),
		Filter:      b([]string{"/"}, "/", "filter"),
		Refresh:     b([]string{"r"}, "r", "refresh"),
		Permissions: b([]string{"p"}, "p", "permissions"),
		Backup:      b([]string{"b"}, "b", "backup"),
		Restore:     b([]string{"R"}, "R", "restore"),

		Toggle:  b([]string{"space", "x"}, "space/x", "toggle"),
		Add:     b([]string{"a"}, "a", "add"),
		Edit:    b([]string{"e"}, "e", "edit"),
		New:     b([]string{"n"}, "n", "new"),
		Delete:  b([]string{"d", "delete"}, "d", "delete"),
		Trigger: b([]string{"t"}, "t", "trigger"),
		Stop:    b([]string{"s"}, "s", "stop"),

		SequentialTrigger: b([]string{"T"}, "T", "trigger marked in sequence"),
		NewFolder:         b([]string{"N"}, "N", "new folder"),
		Rename:            b([]string{"f2"}, "F2", "rename"),
		MoveTo:            b([]string{"m"}, "m", "move"),
		CopyPath:          b([]string{"y"}, "y", "copy path"),
		CopyID:            b([]string{"Y"}, "Y", "copy id"),
		Diff:              b([]string{"="}, "=", "diff with a backup"),
		CopyTo:            b([]string{"C"}, "C", "copy to another profile"),

		SortBy:      b([]string{"o"}, "o", "sort by next column"),
		SortReverse: b([]string{"O"}, "O", "reverse sort"),

		SortName:        b([]string{"A"}, "A", "sort by name"),
		SortFile:        b([]string{"F"}, "F", "sort by file or path"),
		SortState:       b([]string{"S"}, "S", "sort by state"),
		SortProgress:    b([]string{"B"}, "B", "sort by progress"),
		SortElapsed:     b([]string{"E"}, "E", "sort by elapsed"),
		SortEstimate:    b([]string{"W"}, "W", "sort by estimate (wait)"),
		SortUser:        b([]string{"U"}, "U", "sort by user"),
		SortID:          b([]string{"X"}, "X", "sort by execution"),
		SortType:        b([]string{"K"}, "K", "sort by type (kind)"),
		SortDescription: b([]string{"D"}, "D", "sort by description"),
		PollFaster:      b([]string{"+"}, "+", "poll faster"),
		PollSlower:      b([]string{"-"}, "-", "poll slower"),
		PollPause:       b([]string{"P"}, "P", "pause polling"),
		PollOff:         b([]string{"0"}, "0", "polling off/on"),

		Confirm:   b([]string{"enter"}, "enter", "confirm"),
		NextField: b([]string{"tab", "down"}, "tab/↓", "next field"),
		PrevField: b([]string{"shift+tab", "up"}, "shift+tab/↑", "previous field"),
		Yes:       b([]string{"y", "Y"}, "y", "yes"),
		No:        b([]string{"n", "N"}, "n", "no"),

		HideSystem: b([]string{"."}, ".", "hide system"),
		Details:    b([]string{"i"}, "i", "details"),
		// V views a job's log (v its data): l is open, as in every pane.
		Logs: b([]string{"V"}, "V", "log"),
		// The graph's depth is not the poll's speed (+ and -).
		Deeper:    b([]string{">"}, ">", "deeper"),
		Shallower: b([]string{"<"}, "<", "shallower"),

		ViewData:    b([]string{"v"}, "v", "view data"),
		NextSection: b([]string{"]"}, "]", "next list"),
		PrevSection: b([]string{"["}, "[", "previous list"),
		Password:    b([]string{"c"}, "c", "reset password"),

		Help:     b([]string{"?"}, "?", "help"),
		Command:  b([]string{":"}, ":", "command"),
		Log:      b([]string{"L"}, "L", "message log"),
		Back:     b([]string{"esc"}, "esc", "back"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
		NextPane: b([]string{"tab"}, "tab", "next pane"),
		PrevPane: b([]string{"shift+tab"}, "shift+tab", "previous pane"),
	}
}

// Described is a shared binding with what it does in one pane said
// precisely, for that pane's help; the keys stay the shared ones.
func Described(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
