package folders

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestFilterFindsFoldersNotReadYet: against the embedded platform, a filter
// typed on the closed tree walks the folders not read yet and shows a
// match deep down with its ancestors; esc cancels a walk under way.
func TestFilterFindsFoldersNotReadYet(t *testing.T) {
	srv := uitest.DemoServer(t, nil)
	ctx := common.NewContext(api.New(srv.URL, "admin", "admin"), "http://dap.test", "admin", "", false)
	p := New(ctx)
	p.SetSize(80, 30)
	uitest.Run(p, p.Init(), nil)
	if p.tree.root == nil || p.tree.byID[p.tree.root.id].state != common.Loaded {
		t.Fatal("the root was not read")
	}
	var cmds []func()
	for _, k := range []string{"/", "C", "o", "n", "n"} {
		_, cmd := p.Update(uitest.Key(k))
		c := cmd
		cmds = append(cmds, func() { uitest.Run(p, c, nil) })
	}
	for _, c := range cmds {
		c()
	}
	view := uitest.Screen(p.View())
	if !strings.Contains(view, "Connections/") || !strings.Contains(view, "Data/") {
		t.Fatalf("the filter did not find /Data/Connections, never opened:\n%s", view)
	}
	if !p.walk.done {
		t.Error("the walk did not end")
	}

	q := New(ctx)
	q.SetSize(80, 30)
	uitest.Run(q, q.Init(), nil)
	_, cmd := q.Update(uitest.Key("/"))
	uitest.Run(q, cmd, nil)
	_, walk := q.Update(uitest.Key("x"))
	if q.walk.cancel == nil {
		t.Fatal("no walk started")
	}
	q.Update(uitest.Key("esc"))
	for _, msg := range uitest.Expand(walk) {
		if w, ok := msg.(walkMsg); ok {
			q.Update(w)
		}
	}
	if q.walk.done || q.walk.cancel != nil {
		t.Errorf("an esc'd walk was installed: %+v", q.walk)
	}
}
