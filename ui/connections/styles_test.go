package connections

import (
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// When the root swaps the styles (the terminal reported a light
// background), every view of the pane draws with the new ones at its next
// View, without being told: its caches key on the styles.
func TestNewStylesRedrawEveryView(t *testing.T) {
	conn := model.Connection{File: model.FileInfo{Path: "/Data/Connections/conn-00001.dst"}, TypeID: "das.JdbcDataStoreType",
		Properties: map[string][]string{"host": {"db.example"}}}
	views := []struct {
		name string
		open func(p *Pane)
	}{
		{"list", func(p *Pane) {}},
		{"details", func(p *Pane) {
			uitest.Press(p, "i")
			p.Update(detailsMsg{ticket: p.details.reads.Latest(), id: p.details.id, conn: conn})
		}},
		{"graph", func(p *Pane) {
			uitest.Press(p, "enter")
			p.graph.down.state = common.Loaded
			p.graph.setDependencies(p.graph.down, []model.Dependency{dep(10, "/Data/ImportJobs/One.imp")})
			p.relayoutGraph()
		}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			p := withList(newTestPane(nil, 100, 12, false), entries(5))
			v.open(p)
			dark := p.View()
			p.ctx.Styles = theme.New(false, false)

			fresh := withList(newTestPane(nil, 100, 12, false), entries(5))
			fresh.ctx.Styles = p.ctx.Styles
			v.open(fresh)
			want := fresh.View()
			if want == dark {
				t.Fatal("the light and dark themes draw the same screen; the test shows nothing")
			}
			if got := p.View(); got != want {
				t.Errorf("after the new styles the pane still draws with the old ones:\n got %q\nwant %q", got, want)
			}
		})
	}
}
