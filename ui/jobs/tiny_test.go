package jobs

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestTinyPaneKeepsToItsSize resizes every view of the pane down to a few
// cells: each must draw as many lines as it is high, none wider than the
// pane, and the dashboard's cursor must stay usable.
func TestTinyPaneKeepsToItsSize(t *testing.T) {
	views := []struct {
		name  string
		build func(t *testing.T) *Pane
	}{
		{"dashboard", func(t *testing.T) *Pane { return dashboardAt(t, 100, 12) }},
		{"dashboard filtering", func(t *testing.T) *Pane {
			p := dashboardAt(t, 100, 12)
			uitest.Press(p, "/", "o")
			return p
		}},
		{"history", historyAt},
		{"sequential plan", func(t *testing.T) *Pane {
			p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
			p.Update(sequenceMsg{plan: model.ExecutionPlan{Status: "success", ExecutionPlan: []model.PlanEntry{
				{JobConfigurationName: "Orders", JobConfigurationID: 8, Trigger: true, JobExecutionID: 50},
				{JobConfigurationName: "Sales Dashboard", JobConfigurationID: 16, Trigger: false},
			}}})
			return p
		}},
		{"details", func(t *testing.T) *Pane {
			p := historyAt(t)
			uitest.Press(p, "down", "enter")
			return p
		}},
	}
	sizes := [][2]int{{1, 1}, {2, 1}, {10, 2}, {20, 3}, {40, 4}, {5, 12}}
	for _, v := range views {
		for _, size := range sizes {
			width, height := size[0], size[1]
			t.Run(fmt.Sprintf("%s %d×%d", v.name, width, height), func(t *testing.T) {
				p := v.build(t)
				p.SetSize(width, height)
				uitest.Press(p, "G", "down", "up", "g")
				lines := strings.Split(p.View(), "\n")
				if len(lines) != height {
					t.Errorf("%d lines, want %d", len(lines), height)
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > width {
						t.Errorf("line %d is %d wide, pane %d: %q", i, w, width, ansi.Strip(l))
					}
				}
			})
		}
	}
}
