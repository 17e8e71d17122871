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

// A pane is one line in the pane list: a fourth one gets its key, its `:`
// command, its tab and its line in help, with nothing else written for it,
// wherever it goes; and panes name one another by ID, so one registered
// before the folders leaves enter on a job in the tree showing the jobs pane.
func TestAFourthPaneIsOneLine(t *testing.T) {
	client := uitest.DemoClient(t)
	for _, tt := range []struct {
		name  string
		place func(stub PaneEntry, own []PaneEntry) []PaneEntry
		key   string
	}{
		{"last", func(stub PaneEntry, own []PaneEntry) []PaneEntry { return append(own, stub) }, "5"}, // after the four default panes
		{"first", func(stub PaneEntry, own []PaneEntry) []PaneEntry { return append([]PaneEntry{stub}, own...) }, "1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := common.NewContext(client, "http://dap.test", "admin", "", false)
			stub := PaneEntry{Pane: uitest.NewStub(ctx, "Queues", "a stub"), ID: "queues", Help: "show the queues"}
			m := New(Options{Context: ctx, HeartbeatOff: true, Panes: tt.place(stub, defaultPanes(ctx))})
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
			uitest.RunAsRoot(m, m.Init(), quit)

			typeKeys(t, m, tt.key)
			if m.ActivePane() != "queues" {
				t.Fatalf("key %s shows %s, want the queues", tt.key, m.ActivePane())
			}
			if header := strings.SplitN(ansi.Strip(m.Render()), "\n", 2)[0]; !strings.Contains(header, tt.key+" Queues") {
				t.Errorf("the header has no tab %s Queues: %q", tt.key, header)
			}
			uitest.RunAsRoot(m, m.runCommand("folders"), quit)
			uitest.RunAsRoot(m, m.runCommand("queues"), quit)
			if m.ActivePane() != "queues" {
				t.Errorf(":queues shows %s", m.ActivePane())
			}
			if !slices.ContainsFunc(m.commands, func(c common.Command) bool { return c.Name == "queues" && c.Help == "show the queues" }) {
				t.Error(":queues is not listed among the commands")
			}
			var helped bool
			for _, group := range m.FullHelp() {
				helped = helped || slices.ContainsFunc(group, func(b key.Binding) bool { return b.Help() == key.Help{Key: tt.key, Desc: "queues"} })
			}
			if !helped {
				t.Errorf("help does not list %s queues", tt.key)
			}

			uitest.RunAsRoot(m, m.runCommand("cd /Data/ImportJobs"), quit)
			if m.ActivePane() != common.FoldersPane {
				t.Fatalf(":cd shows %s (status %q)", m.ActivePane(), m.Status())
			}
			typeKeys(t, m, "enter", "down", "enter") // open the folder, enter on its first job
			if m.ActivePane() != common.JobsPane {
				t.Errorf("enter on a job in the tree shows %s, want the jobs (status %q)", m.ActivePane(), m.Status())
			}
		})
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

// Two panes under one ID would leave a jump to that name to the first; the
// console refuses the list instead.
func TestTwoPanesCannotShareAnID(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	defer func() {
		if recover() == nil {
			t.Error("a second pane registered as jobs was taken")
		}
	}()
	New(Options{Context: ctx, HeartbeatOff: true,
		Panes: append(defaultPanes(ctx), PaneEntry{Pane: uitest.NewStub(ctx, "Jobs", "a second"), ID: common.JobsPane})})
}
