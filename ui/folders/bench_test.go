package folders

import (
	"fmt"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// benchPane returns a pane showing a tree of n open folders of the same
// shape whatever n: the root, 10 or 100 open project folders, each holding
// an equal share of the rest; the cursor in the middle of the rows.
func benchPane(b *testing.B, n int) *Pane {
	b.Helper()
	p := New(common.NewContext(nil, "http://dap.test", "admin", "", false))
	p.SetSize(120, 40)
	id := int64(1)
	folderEntries := func(count int, prefix string) []model.FolderEntry {
		out := make([]model.FolderEntry, count)
		for i := range out {
			id++
			out[i] = model.FolderEntry{Name: fmt.Sprintf("%s-%d", prefix, i), Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", id)}}}
		}
		return out
	}
	top := 10
	if n >= 10_000 {
		top = 100
	}
	p.tree.setRoot(model.Folder{Name: "/", Links: model.Links{"permission": {Href: "/api/filesystem/folders/1/permission"}},
		Embedded: model.FolderChildren{Folders: folderEntries(top, "project")}})
	perFolder := (n - top) / top
	for _, c := range p.tree.root.children {
		c.expanded = true
		p.tree.setChildren(c, folderEntries(perFolder, c.name+"-folder"))
	}
	if got := len(p.tree.rows); got < n*9/10 {
		b.Fatalf("tree has %d rows, want at least %d", got, n)
	}
	p.cursor = len(p.tree.rows) / 2
	p.scrollToCursor()
	p.View()
	return p
}

// BenchmarkView draws the tree pane when nothing changed since the last
// frame, as the program does after every message.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			p := benchPane(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.View()
			}
		})
	}
}

// BenchmarkRedraw redraws after a message that changed nothing on screen
// (a tick meant for another pane): the frame is built again, every row
// from the row cache.
func BenchmarkRedraw(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			p := benchPane(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.Update(nil)
				p.View()
			}
		})
	}
}

// BenchmarkCursorMove moves the cursor one row and redraws, as a held j does.
func BenchmarkCursorMove(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			p := benchPane(b, n)
			down := uitest.Key("j")
			up := uitest.Key("k")
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					p.Update(down)
				} else {
					p.Update(up)
				}
				i++
				p.View()
			}
		})
	}
}

// BenchmarkRefresh reads again the folder the cursor is in, as r does, one
// of its folders renamed, then draws the tree. Compare folders=100 and
// =100000 (the growth), and both with ui/common's BenchmarkTableReference.
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			p := benchPane(b, n)
			folder := p.selected().parent
			entries := make([]model.FolderEntry, len(folder.children))
			for i, c := range folder.children {
				entries[i] = model.FolderEntry{Name: c.name, Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", c.id)}}}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				entries[len(entries)/3].Name = fmt.Sprintf("renamed-%d", i)
				p.requests[folder.id] = i
				p.Update(childrenMsg{req: i, nodeID: folder.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: entries}}})
				p.View()
			}
		})
	}
}
