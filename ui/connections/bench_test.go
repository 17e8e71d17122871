package connections

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// BenchmarkListView draws the list in a 120×37 pane: the time must not
// grow with the number of connections, as only the rows on screen are drawn.
func BenchmarkListView(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("connections=%d", n), func(b *testing.B) {
			p := withList(newTestPane(nil, 120, 37, false), entries(n))
			uitest.Press(p, "j", "j")
			b.ReportAllocs()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}

// graphPane returns a pane showing a connection with n direct dependents,
// each with one workbook below it, at all levels.
func graphPane(n int) *Pane {
	p := withList(newTestPane(nil, 120, 37, false), entries(3))
	uitest.Press(p, "enter")
	p.level = 0
	g := p.graph
	deps := make([]model.Dependency, n)
	for i := range deps {
		deps[i] = dep(int64(1000+i), fmt.Sprintf("/Data/ImportJobs/job-%05d.imp", i))
	}
	g.setDependencies(g.down, deps)
	for i, c := range g.down.children {
		g.setDependencies(c, []model.Dependency{dep(int64(100_000+i), fmt.Sprintf("/Analytics/wb-%05d.wbk", i))})
	}
	g.setDependencies(g.up, nil)
	p.relayoutGraph()
	return p
}

// BenchmarkGraphView draws a graph of 10 and of 1,000 dependents.
func BenchmarkGraphView(b *testing.B) {
	for _, n := range []int{10, 1_000} {
		b.Run(fmt.Sprintf("dependents=%d", n), func(b *testing.B) {
			p := graphPane(n)
			uitest.Press(p, "j", "j")
			b.ReportAllocs()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}

func TestGraphOfThousandDependentsDrawsOnlyVisibleLines(t *testing.T) {
	p := graphPane(1_000)
	if len(p.lines) != 2+2_000 {
		t.Fatalf("%d lines in the graph", len(p.lines))
	}
	uitest.Press(p, "G")
	view := uitest.Screen(p.View())
	lines := strings.Split(strings.TrimSuffix(view, "\n"), "\n")
	if len(lines) != 37 {
		t.Fatalf("the view has %d lines in a pane of 37", len(lines))
	}
	if !strings.Contains(view, "upstream") || !strings.Contains(view, "wb-00999") || strings.Contains(view, "job-00900") {
		t.Errorf("the window is not at the end of the graph:\n%s", view)
	}
}

// BenchmarkRefresh is what a refresh costs the UI goroutine: Update
// taking a list answer with the changes the read's task found
// (BenchmarkRefreshDiff), then View. In "changed" one connection changed
// its description; in "added+removed" one connection left and another
// came. Compare connections=100 and =100000 (the growth), and both with
// ui/common's BenchmarkTableReference. Two answers take turns, each
// compared with the other, as consecutive reads' are.
func BenchmarkRefresh(b *testing.B) {
	cases := []struct {
		name   string
		change func(answer []model.ConnectionEntry) []model.ConnectionEntry
	}{
		{"changed", func(a []model.ConnectionEntry) []model.ConnectionEntry {
			a[len(a)/2].Description = "changed"
			return a
		}},
		{"added+removed", func(a []model.ConnectionEntry) []model.ConnectionEntry {
			added := model.ConnectionEntry{ID: int64(len(a) + 1), Name: "conn-new", Path: "/Data/Connections/conn-new.dst"}
			return slices.Insert(slices.Delete(a, len(a)/3, len(a)/3+1), 2*len(a)/3, added)
		}},
	}
	for _, c := range cases {
		for _, n := range []int{100, 100_000} {
			b.Run(fmt.Sprintf("%s/connections=%d", c.name, n), func(b *testing.B) {
				p := withList(newTestPane(nil, 120, 40, false), entries(n))
				uitest.Press(p, "j", "j")
				answers := [2][]model.ConnectionEntry{p.list.answer, c.change(entries(n))}
				changes := [2]common.Changes{
					common.Diff(answers[1], answers[0], connectionID, replaceLimit),
					common.Diff(answers[0], answers[1], connectionID, replaceLimit),
				}
				p.View()
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					i = 1 - i
					p.Update(listMsg{ticket: p.listReads.Latest(), entries: answers[i], base: answers[1-i], changes: changes[i]})
					_ = p.View()
				}
			})
		}
	}
}

// BenchmarkRefreshDiff is what a refresh costs off the UI goroutine: the
// read's task comparing a list answer with the one before, O(rows),
// beside the decoding of that answer.
func BenchmarkRefreshDiff(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("connections=%d", n), func(b *testing.B) {
			base, answer := entries(n), entries(n)
			answer[n/2].Description = "changed"
			b.ReportAllocs()
			for b.Loop() {
				_ = common.Diff(base, answer, connectionID, replaceLimit)
			}
		})
	}
}
