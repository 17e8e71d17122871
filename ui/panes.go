package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
	"github.com/dapconsole/dapconsole/ui/people"
)

// PaneEntry is a pane as the console registers it. Its place in the list
// is its tab and its key (1 for the first, up to 9). ID, when set, names it:
// other panes focus it by that name (common.FocusPaneMsg), which the root
// looks up in the list, and `:ID` shows it, with Help as that command's help.
type PaneEntry struct {
	Pane common.Pane
	ID   common.PaneID
	Help string
}

// defaultPanes returns the console's panes in tab order. Plugging a pane in
// is adding its line here; see doc.go.
func defaultPanes(ctx *common.Context) []PaneEntry {
	return []PaneEntry{
		{Pane: folders.New(ctx), ID: common.FoldersPane, Help: "show the folder tree"},
		{Pane: connections.New(ctx), ID: common.ConnectionsPane, Help: "show the connections"},
		{Pane: jobs.New(ctx), ID: common.JobsPane, Help: "show the job dashboard"},
		{Pane: people.New(ctx), ID: common.PeoplePane, Help: "show users, groups and roles"},
	}
}

// maxPaneKeys is how many panes a digit key reaches.
const maxPaneKeys = 9

// paneKeys are the keys 1…9 of the first panes, each named in help by its
// pane's title.
func paneKeys(panes []common.Pane) []key.Binding {
	var out []key.Binding
	for i, p := range panes[:min(len(panes), maxPaneKeys)] {
		n := strconv.Itoa(i + 1)
		out = append(out, key.NewBinding(key.WithKeys(n), key.WithHelp(n, strings.ToLower(p.Title()))))
	}
	return out
}

// paneCommands are the `:` commands that show the registered panes.
func paneCommands(entries []PaneEntry) []common.Command {
	var out []common.Command
	for _, e := range entries {
		if e.ID == "" {
			continue
		}
		out = append(out, common.Command{Name: string(e.ID), Help: e.Help, Run: func(string) tea.Cmd {
			return common.Send(switchPaneMsg{pane: e.ID})
		}}.WithOwner(-1))
	}
	return out
}
