package folders

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// A new login reads the tree again under the filter the field still shows.
func TestFilterSurvivesANewLogin(t *testing.T) {
	p := newTestPane(t, 60, 10)
	for _, k := range []string{"/", "D", "a", "t", "a", "enter"} {
		uitest.Press(p, k)
	}
	p.Update(common.LoggedInMsg{})
	p.Update(childrenMsg{ticket: p.nextRead(0), folder: rootFolder("Users", "Data")})
	view := ansi.Strip(p.View())
	if !strings.Contains(view, "/Data  1 match") || !strings.Contains(view, "Data/") || strings.Contains(view, "Users/") {
		t.Errorf("after a new login the tree is not filtered as the field says:\n%s", view)
	}
}

// An answer to a read made as the previous user is dropped after a new
// login, even for a folder the new tree holds under the same id.
func TestReadBeforeANewLoginIsDropped(t *testing.T) {
	p := newTestPane(t, 60, 10)
	uitest.Press(p, "j", "j", "enter")
	data := p.selected()
	stale := latestRead(p, data.id)
	p.Update(common.LoggedInMsg{})
	root := rootFolder()
	root.Embedded.Folders = []model.FolderEntry{{Name: "Data", Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", data.id)}}}}
	p.Update(childrenMsg{ticket: p.nextRead(0), folder: root})
	p.Update(childrenMsg{ticket: stale, nodeID: data.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: entries("Secret")}}})
	if n := p.tree.byID[data.id]; n == nil || n.child("Secret") != nil {
		t.Fatalf("the previous user's answer reached the new tree (or /Data is missing: %v)", n)
	}
}
