package folders

import (
	"fmt"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// folderIDs hands out folder entries whose ids never repeat.
type folderIDs struct{ last int64 }

// next returns count folders named prefix-0, prefix-1, ….
func (f *folderIDs) next(count int, prefix string) []model.FolderEntry {
	out := make([]model.FolderEntry, count)
	for i := range out {
		f.last++
		out[i] = model.FolderEntry{Name: fmt.Sprintf("%s-%d", prefix, i), Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", f.last)}}}
	}
	return out
}

// projectsPane returns a pane whose root holds the projects of a tree of n
// folders, 10 of them or, from 10,000 folders on, 100; more hands out the
// folders to put in them.
func projectsPane(n int) (p *Pane, more *folderIDs) {
	p = New(common.NewContext(nil, "http://dap.test", "admin", "", false))
	p.SetSize(120, 40)
	top := 10
	if n >= 10_000 {
		top = 100
	}
	more = &folderIDs{last: 1}
	p.tree.setRoot(model.Folder{Name: "/", Links: model.Links{"permission": {Href: "/api/filesystem/folders/1/permission"}},
		Embedded: model.FolderChildren{Folders: more.next(top, "project")}})
	return p, more
}

// benchPane returns a pane showing a tree of n open folders of the same
// shape whatever n: the root, 10 or 100 open project folders, each holding
// an equal share of the rest; the cursor in the middle of the rows.
func benchPane(b *testing.B, n int) *Pane {
	b.Helper()
	p, more := projectsPane(n)
	top := len(p.tree.root.children)
	perFolder := (n - top) / top
	for _, c := range p.tree.root.children {
		c.expanded = true
		p.tree.setChildren(c, more.next(perFolder, c.name+"-folder"))
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
	benchEachTree(b, func(p *Pane) { p.View() })
}

// benchEachTree runs round on trees of 100 and of 100,000 folders
// (benchPane), once a loop.
func benchEachTree(b *testing.B, round func(p *Pane)) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			p := benchPane(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				round(p)
			}
		})
	}
}

// BenchmarkRedraw redraws after a message that changed nothing on screen
// (a tick meant for another pane): the frame is built again, every row
// from the row cache.
func BenchmarkRedraw(b *testing.B) {
	benchEachTree(b, func(p *Pane) {
		p.Update(nil)
		p.View()
	})
}

// BenchmarkCursorMove moves the cursor one row and redraws, as a held j does.
func BenchmarkCursorMove(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("folders=%d", n), func(b *testing.B) {
			benchCursorMove(b, benchPane(b, n))
		})
	}
}

// benchCursorMove moves p's cursor down and up, one row a round, and
// redraws.
func benchCursorMove(b *testing.B, p *Pane) {
	down, up := uitest.Key("j"), uitest.Key("k")
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
				p.Update(childrenMsg{ticket: p.nextRead(folder.id), nodeID: folder.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: entries}}})
				p.View()
			}
		})
	}
}

// filesPane returns a pane whose tree holds folders folders (100 or 10
// projects, each of equal sub-folders, all read) with 10 files in each
// sub-folder from the file index; the root and the first project are open.
func filesPane(b *testing.B, folders int) (*Pane, []common.FileEntry) {
	b.Helper()
	p, more := projectsPane(folders)
	top := len(p.tree.root.children)
	var files []common.FileEntry
	for _, c := range p.tree.root.children {
		p.tree.setChildren(c, more.next(folders/top, c.name+"-folder"))
		for _, sub := range c.children {
			sub.state = common.Loaded
			for i := range 10 {
				path := fmt.Sprintf("/%s/%s/job-%d.imp", c.name, sub.name, i)
				files = append(files, common.FileEntry{Kind: model.KindImportJob,
					FileEntry: model.FileEntry{ID: int64(len(files) + 1), Path: path, UUID: fmt.Sprintf("uuid-%d", len(files))}})
			}
		}
	}
	p.tree.root.children[0].expanded = true
	p.tree.rebuild()
	p.Update(filesMsg{ticket: p.fileReads.Next(), index: common.NewFileIndex(files)})
	p.keepCursorOn(p.tree.root.children[0].children[0])
	p.View()
	return p, files
}

// BenchmarkFilesOpenFolder opens a folder of 10 files and closes it again,
// drawing each time, with 100 files in 10 folders and with 100,000 files in
// 10,000 folders.
func BenchmarkFilesOpenFolder(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("files=%d", n*10), func(b *testing.B) {
			p, _ := filesPane(b, n)
			open, close := uitest.Key("enter"), uitest.Key("left")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.Update(open)
				p.View()
				p.Update(close)
				p.View()
			}
		})
	}
}

// BenchmarkFilesCursorMove moves the cursor over file rows and draws.
func BenchmarkFilesCursorMove(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("files=%d", n*10), func(b *testing.B) {
			p, _ := filesPane(b, n)
			p.Update(uitest.Key("enter"))
			p.Update(uitest.Key("enter")) // onto the first file
			benchCursorMove(b, p)
		})
	}
}

// BenchmarkFilesIndex builds the index of every file, as the task reading
// the file lists does off the Update loop.
func BenchmarkFilesIndex(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("files=%d", n*10), func(b *testing.B) {
			_, files := filesPane(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				common.NewFileIndex(files)
			}
		})
	}
}

// BenchmarkFilesInstall installs a new file index (after r or a write) in
// Update: the open folders take their files at once, the others later.
func BenchmarkFilesInstall(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("files=%d", n*10), func(b *testing.B) {
			p, files := filesPane(b, n)
			index := common.NewFileIndex(files)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				p.Update(filesMsg{ticket: p.fileReads.Next(), index: index})
				p.View()
			}
		})
	}
}
