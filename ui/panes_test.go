package ui

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// ownPanes is the console's pane list with panes in place of its own
// models, in order: their keys and `:` commands stay the console's.
func ownPanes(ctx *common.Context, panes ...common.Pane) []PaneEntry {
	entries := defaultPanes(ctx)[:len(panes)]
	for i, p := range panes {
		entries[i].Pane = p
	}
	return entries
}

// A pane is one line in the pane list: a fourth one gets the key 4, its `:`
// command, its tab and its line in help, with nothing else written for it.
func TestAFourthPaneIsOneLine(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	m := New(Options{Context: ctx, HeartbeatOff: true,
		Panes: append(defaultPanes(ctx), PaneEntry{Pane: uitest.NewStub(ctx, "Queues", "a stub"), Command: "queues", Help: "show the queues"})})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})

	typeKeys(t, m, "4")
	if m.ActivePane() != 3 {
		t.Fatalf("key 4 shows pane %d, want 3", m.ActivePane())
	}
	if header := strings.SplitN(ansi.Strip(m.Render()), "\n", 2)[0]; !strings.Contains(header, "4 Queues") {
		t.Errorf("the header has no tab 4 Queues: %q", header)
	}
	typeKeys(t, m, "1")
	uitest.RunAsRoot(m, m.runCommand("queues"), quit)
	if m.ActivePane() != 3 {
		t.Errorf(":queues shows pane %d, want 3", m.ActivePane())
	}
	if !slices.ContainsFunc(m.commands, func(c common.Command) bool { return c.Name == "queues" && c.Help == "show the queues" }) {
		t.Error(":queues is not listed among the commands")
	}
	var helped bool
	for _, group := range m.FullHelp() {
		helped = helped || slices.ContainsFunc(group, func(b key.Binding) bool { return b.Help() == key.Help{Key: "4", Desc: "queues"} })
	}
	if !helped {
		t.Error("help does not list 4 queues")
	}
}

// ownModels are the models of the console's own panes.
func ownModels(ctx *common.Context) []common.Pane {
	var out []common.Pane
	for _, e := range defaultPanes(ctx) {
		out = append(out, e.Pane)
	}
	return out
}

// Panes send the user to another by its place in the pane list
// (common.FocusPaneMsg{Index: common.PaneJobs}): the names of those places
// must stay on the panes they name when the list changes.
func TestOwnPaneIndexesNameTheirPanes(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	panes := defaultPanes(ctx)
	for index, command := range map[int]string{common.PaneFolders: "folders", common.PaneConnections: "conn", common.PaneJobs: "jobs"} {
		if index >= len(panes) || panes[index].Command != command {
			t.Errorf("pane index %d does not hold :%s", index, command)
		}
	}
}
