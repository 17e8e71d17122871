package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestEscWalksBackAcrossPanes: a job's history opened from the dependency
// graph goes back to the graph on esc, and a folder opened from the jobs
// pane (:cd) goes back to the jobs pane; a pane entered by the user's own
// switch keeps esc to itself.
func TestEscWalksBackAcrossPanes(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	conn := uitest.NewStub(ctx, "Connections", "the graph")
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, folders.New(ctx), conn, jobs.New(ctx))})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	typeKeys(t, m, "2")
	// enter on a job in the graph: the connections pane sends both.
	uitest.RunAsRoot(m, tea.Batch(common.Send(common.FocusPaneMsg{Pane: common.JobsPane}),
		common.Send(common.OpenJobMsg{ConfigID: 7, Path: "/Data/ImportJobs/Orders.imp"})), quit)
	if m.ActivePane() != common.JobsPane {
		t.Fatalf("the jump left pane %s active", m.ActivePane())
	}
	typeKeys(t, m, "esc")
	if m.ActivePane() != common.ConnectionsPane {
		t.Fatalf("esc in the history went to pane %s, want the graph's", m.ActivePane())
	}

	typeKeys(t, m, "3", ":")
	typeKeys(t, m, "c", "d", " ", "/", "D", "a", "t", "a", "enter")
	if m.ActivePane() != common.FoldersPane {
		t.Fatalf(":cd left pane %s active", m.ActivePane())
	}
	typeKeys(t, m, "esc")
	if m.ActivePane() != common.JobsPane {
		t.Fatalf("esc after :cd went to pane %s, want the jobs pane (status %q)", m.ActivePane(), m.Status())
	}
	typeKeys(t, m, "1", "esc")
	if m.ActivePane() != common.FoldersPane {
		t.Errorf("esc in a pane the user switched to went to pane %s", m.ActivePane())
	}
}

// Esc never changes pane after an explicit switch (bug 4 of issue 30):
// `3`, `:folders`, `:cd /Data`, esc stayed on the jobs pane's filter. A
// switch by key, tab or `:pane` forgets the jumps before it; `:cd` from the
// folders pane itself is no jump.
func TestEscStaysAfterAnExplicitSwitch(t *testing.T) {
	tests := []struct {
		name string
		keys []string
	}{
		{":folders then :cd", []string{"3", ":", "f", "o", "l", "d", "e", "r", "s", "enter", ":", "c", "d", " ", "/", "D", "a", "t", "a", "enter"}},
		{"a jump, then 1", []string{"3", ":", "c", "d", " ", "/", "D", "a", "t", "a", "enter", "3", "1"}},
		{"a jump, then tab back", []string{"3", ":", "c", "d", " ", "/", "D", "a", "t", "a", "enter", "tab", "tab", "tab"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
			m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, folders.New(ctx), uitest.NewStub(ctx, "Connections", ""), jobs.New(ctx))})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			typeKeys(t, m, tt.keys...)
			if m.ActivePane() != common.FoldersPane {
				t.Fatalf("the keys left pane %s active", m.ActivePane())
			}
			typeKeys(t, m, "esc")
			if m.ActivePane() != common.FoldersPane {
				t.Errorf("esc went to pane %s after an explicit switch", m.ActivePane())
			}
		})
	}
}

// T in the tree opens the sequential trigger over the tree: esc leaves the
// user there with nothing sent (it left them in the jobs pane, where esc
// did not go back), and the trigger brings the jobs pane, where the plan
// shows.
func TestSequenceFormFromTheTree(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, folders.New(ctx), uitest.NewStub(ctx, "Connections", ""), jobs.New(ctx))})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	fromTree := common.Send(common.SequenceFormMsg{Paths: []string{"/Data/ImportJobs/Orders.imp"}}) // what T sends
	uitest.RunAsRoot(m, fromTree, quit)
	if m.ActivePane() != common.FoldersPane || m.Dialog() == nil {
		t.Fatalf("T: pane %s, dialog %v; want the form over the tree", m.ActivePane(), m.Dialog())
	}
	typeKeys(t, m, "esc")
	if m.ActivePane() != common.FoldersPane || m.Dialog() != nil {
		t.Fatalf("esc: pane %s, dialog %v; want the tree, no form", m.ActivePane(), m.Dialog())
	}
	uitest.RunAsRoot(m, fromTree, quit)
	typeKeys(t, m, "enter")
	if m.ActivePane() != common.JobsPane || m.Dialog() != nil {
		t.Errorf("enter: pane %s, dialog %v; want the jobs pane, where the plan shows", m.ActivePane(), m.Dialog())
	}
}
