package connections

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The details body is drawn when the connection arrives and again when the
// pane changes size; scrolling stays inside it at any height.
func TestDetailsFollowTheSize(t *testing.T) {
	props := map[string][]string{}
	for i := range 20 {
		props[fmt.Sprintf("prop_%02d", i)] = []string{strings.Repeat("v", 60) + fmt.Sprintf("end%02d", i)}
	}
	conn := model.Connection{File: model.FileInfo{Path: "/Data/Connections/conn-00000.dst"}, TypeID: "das.JdbcDataStoreType", Properties: props}

	p := withList(newTestPane(nil, 50, 5, false), entries(3))
	uitest.Press(p, "i")
	p.Update(detailsMsg{ticket: p.details.reads.Latest(), id: p.details.id, conn: conn})
	uitest.Press(p, "G")
	if view := uitest.Screen(p.View()); !strings.Contains(view, "prop_19") || strings.Contains(view, "end19") {
		t.Fatalf("at the bottom of a narrow pane, want prop_19 cut short:\n%s", view)
	}

	p.SetSize(120, 40)
	view := uitest.Screen(p.View())
	if !strings.Contains(view, "end19") {
		t.Errorf("a wider pane still shows the narrow rendering:\n%s", view)
	}
	if !strings.Contains(view, "name") {
		t.Errorf("a taller pane leaves the top of the body scrolled away:\n%s", view)
	}

	p.SetSize(10, 1)
	uitest.Press(p, "j", "k", "G", "g")
	if view := uitest.Screen(p.View()); strings.Count(view, "\n") != 1 { // the title line, ended
		t.Errorf("a one-line pane draws more than its title:\n%s", view)
	}
}

// BenchmarkDetailsView redraws an open connection with 40 properties, as
// every spinner frame and key press does.
func BenchmarkDetailsView(b *testing.B) {
	props := map[string][]string{}
	for i := range 40 {
		props[fmt.Sprintf("prop_%02d", i)] = []string{fmt.Sprintf("value %d", i)}
	}
	conn := model.Connection{File: model.FileInfo{Path: "/Data/Connections/conn-00000.dst"}, TypeID: "das.JdbcDataStoreType", Properties: props}
	p := withList(newTestPane(nil, 120, 37, false), entries(3))
	uitest.Press(p, "i")
	p.Update(detailsMsg{ticket: p.details.reads.Latest(), id: p.details.id, conn: conn})
	b.ReportAllocs()
	for b.Loop() {
		_ = p.View()
	}
}
