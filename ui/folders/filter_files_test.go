package folders

import (
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The tree filter finds files in folders never opened, as it finds their
// sub-folders (bug 3 of issue 30: /Region found nothing though
// /Analytics/Sales by Region.wbk exists): the file lists name every file.
func TestFilterFindsFilesInClosedFolders(t *testing.T) {
	tests := []struct {
		name   string
		filter string
		want   []string
	}{
		{"a file in a folder read but closed", "Warehouse", []string{"/", "Data", "Warehouse.dst"}},
		{"a file two levels down, its folder found by the walk", "Orders", []string{"/", "Data", "ImportJobs", "Orders.imp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(common.NewContext(nil, "http://dap.test", "admin", "", false))
			p.SetSize(100, 20)
			p.Update(childrenMsg{ticket: p.nextRead(0), folder: rootFolder("Users", "Data")})
			p.Update(filesMsg{ticket: p.fileReads.Next(), index: common.NewFileIndex(demoFiles)})
			uitest.Press(p, "j", "j", "enter")
			answer(p, p.tree.root.child("Data"), "Connections", "ImportJobs") // /Data read...
			uitest.Press(p, "left")                                           // ...and closed
			uitest.Press(p, "/")
			uitest.Press(p, strings.Split(tt.filter, "")...)
			// What the filter's walk reads of the folders not read yet.
			p.Update(walkMsg{ticket: p.walk.reads.Next(), ids: []int64{p.tree.root.child("Data").child("ImportJobs").id},
				read: []model.Folder{{}}})
			if got := rowNames(p); !slices.Equal(got, tt.want) {
				t.Errorf("rows %q, want %q", got, tt.want)
			}
		})
	}
}
