package folders

import (
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The tree sorts with the lists' keys (issue 30: o and O did nothing in
// Folders): a column's shift+letter sorts each folder's files by it, again
// reverses; o steps to the next column, O reverses.
func TestTreeSorts(t *testing.T) {
	tests := []struct {
		keys []string
		want []string
	}{
		{nil, []string{"Customers.imp", "Orders.imp"}},
		{[]string{"X"}, []string{"Orders.imp", "Customers.imp"}},      // by id: 8, 9
		{[]string{"X", "X"}, []string{"Customers.imp", "Orders.imp"}}, // reversed
		{[]string{"A", "O"}, []string{"Orders.imp", "Customers.imp"}}, // by name, reversed
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, " "), func(t *testing.T) {
			p := paneWithFiles(t, false)
			uitest.Press(p, tt.keys...)
			var files []string
			for _, n := range p.tree.rows {
				if n.isFile() && n.parent.name == "ImportJobs" {
					files = append(files, n.name)
				}
			}
			if !slices.Equal(files, tt.want) {
				t.Errorf("files %q, want %q", files, tt.want)
			}
		})
	}
}

// A file is deleted from the tree through its kind's own endpoint: d on a
// connection asks its pane (which reads its dependents and asks first); on
// another kind it asks here, then sends its family's DELETE.
// Rename and move of a file say the interface has them for folders only;
// m on a folder asks where to move it.
func TestFileAndFolderWritesInTheTree(t *testing.T) {
	p := paneWithFiles(t, false)
	// On Customers.imp: asks first, then its family's own DELETE.
	if _, ok := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "d"))).Dialog.(*dialog.Confirm); !ok {
		t.Error("d on an import job did not ask first")
	}
	for _, k := range []string{"f2", "m"} {
		if got := uitest.Expand(uitest.Press(p, k)); !uitest.OnlyRefusal(got, "folders only") {
			t.Errorf("%s on a file sent %#v", k, got)
		}
	}
	data := p.tree.root.child("Data")
	warehouse := data.files[slices.IndexFunc(data.files, func(f *node) bool { return f.name == "Warehouse.dst" })]
	p.keepCursorOn(warehouse)
	want := common.DeleteFileMsg{Kind: model.KindConnection, ID: 2, Path: "/Data/Warehouse.dst"}
	if got := uitest.Expand(uitest.Press(p, "d")); len(got) != 1 || got[0] != want {
		t.Errorf("d on a connection sent %#v, want %#v", got, want)
	}
	p.keepCursorOn(data.child("ImportJobs"))
	if _, ok := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "m"))).Dialog.(*dialog.Form); !ok {
		t.Error("m on a folder opened no form")
	}
}
