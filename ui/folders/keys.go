package folders

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dataview"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

func (p *Pane) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if p.filter.Active() {
		return p.handleFilterKey(msg)
	}
	if p.perms != nil && p.perms.editingOwner {
		return p.perms.handleOwnerKey(msg)
	}
	cmd, _ := p.Bindings().Handle(p.ctx, msg)
	return cmd
}

// Bindings implements common.Pane: the permissions editor's keys while it
// is open, else the tree's for the selected row.
func (p *Pane) Bindings() common.Bindings {
	k := p.ctx.Keys
	switch {
	case p.filter.Active():
		return common.Bindings{{Key: k.Confirm, Hint: 1}, {Key: k.Back, Hint: 2}}
	case p.perms != nil:
		return p.perms.bindings(p)
	}
	n := p.selected()
	if n == nil {
		return common.Bindings{
			{Key: k.Refresh, Run: func() tea.Cmd { return p.read(nil, common.Quick) }, Column: 1},
			{Key: k.Back, Run: p.back, Column: 1},
		}
	}
	return p.treeBindings(n)
}

// treeBindings are the keys of the tree with n selected: a folder or a
// file, which share one list; a key that does nothing on the selected kind
// of row says why.
func (p *Pane) treeBindings(n *node) common.Bindings {
	k := p.ctx.Keys
	file := n.isFile()
	hint := func(folderPlace, filePlace int) int {
		if file {
			return filePlace
		}
		return folderPlace
	}
	bs := common.ListBindings(k, p.listHeight(), len(p.tree.rows), 1, 0, func(delta int) tea.Cmd {
		p.moveCursor(delta)
		return nil
	})
	bs = append(bs,
		common.Binding{Key: k.Open, Run: func() tea.Cmd { return p.openRow(n) }, Hint: 2, Column: 0},
		common.Binding{Key: k.Close, Run: func() tea.Cmd { p.close(n); return nil }, Hint: hint(3, 0), Column: 0},
		common.Binding{Key: k.Mark, Run: func() tea.Cmd { p.toggleMark(n); return nil }, Hint: hint(4, 3), Column: 1},
		common.Binding{Key: k.Filter, Run: p.filter.Start, Hint: hint(5, 0), Column: 1},
		common.Binding{Key: k.Refresh, Run: func() tea.Cmd { return p.refresh(n) }, Column: 1},
		common.Binding{Key: k.Permissions, Run: func() tea.Cmd { return tea.Batch(p.openPermissions(n), p.readPeople()) }, Hint: hint(6, 4), Column: 1},
		common.Binding{Key: k.Backup, Run: func() tea.Cmd { return p.openBackup(n) }, Hint: hint(7, 9), Column: 1},
		common.Binding{Key: k.Restore, Run: func() tea.Cmd { return p.listZips(n, p.openRestore) }, Write: true, Hint: hint(8, 0), Column: 1},
		common.Binding{Key: k.Diff, Help: "diff backup", Run: func() tea.Cmd { return p.listZips(n, p.openDiff) }, Column: 1},
		common.Binding{Key: k.CopyTo, Help: "copy to profile", Run: func() tea.Cmd { return p.listProfiles(n) }, Disabled: p.whyNoCopy(), Column: 1},
		common.Binding{Key: k.CopyPath, Run: func() tea.Cmd { return p.copyRow(n, false) }, Hint: hint(10, 7), Column: 1},
		common.Binding{Key: k.CopyID, Run: func() tea.Cmd { return p.copyRow(n, true) }, Hint: hint(0, 8), Column: 1},
		common.Binding{Key: k.Back, Run: p.back, Column: 1},
	)
	bs = append(bs, p.folderWriteBindings(n, hint(9, 0))...)
	bs = append(bs, p.sortBindings()...)
	if n.isFile() {
		bs = append(bs, p.jobBindings(n)...)
	}
	return append(bs, common.Binding{Key: k.SequentialTrigger, Run: func() tea.Cmd { return p.sequenceOfMarked(n) }, Write: true, Column: 2})
}

// sortBindings are the tree's sort keys, the lists' own: o the next
// column, O reverse, and a column's shift+letter (again: reverse).
func (p *Pane) sortBindings() common.Bindings {
	k := p.ctx.Keys
	by := func(c sortColumn) func() tea.Cmd {
		return func() tea.Cmd {
			o := order{by: c}
			if p.tree.order.by == c {
				o.reverse = !p.tree.order.reverse
			}
			return p.sortTree(o)
		}
	}
	return common.Bindings{
		{Key: k.SortBy, Run: func() tea.Cmd { return p.sortTree(order{by: p.tree.order.by%(sortColumns-1) + 1}) }, Column: 3},
		{Key: k.SortReverse, Run: func() tea.Cmd { return p.sortTree(order{by: p.tree.order.by, reverse: !p.tree.order.reverse}) }, Column: 3},
		{Key: k.SortName, Run: by(byName), Column: 3},
		{Key: k.SortType, Help: "sort by kind", Run: by(byKind), Column: 3},
		{Key: k.SortID, Help: "sort by id", Run: by(byID), Column: 3},
		{Key: k.SortState, Help: "sort by job state", Run: by(byState), Column: 3},
	}
}

// sortTree lists each folder's rows in order o, the cursor staying on its
// row, and says how they are sorted now.
func (p *Pane) sortTree(o order) tea.Cmd {
	selected := p.selected()
	p.tree.order = o
	p.tree.rebuild()
	p.keepCursorOn(selected)
	how := "sorted by " + sortNames[o.by]
	if o.reverse {
		how += ", reversed"
	}
	return common.Info(how + " (o next column, O reverses)")
}

// openRow opens a folder in place, or a file where it is handled.
func (p *Pane) openRow(n *node) tea.Cmd {
	if n.isFile() {
		return p.openFile(n)
	}
	return p.open(n)
}

// toggleMark marks or unmarks a row (not the root) and moves on.
func (p *Pane) toggleMark(n *node) {
	if n.parent != nil {
		p.tree.setMarked(n, !n.marked)
		p.moveCursor(1)
	}
}

// folderWriteBindings are new folder, rename, move and delete: of a
// folder, or of a file where the platform's interface has a way; where it
// has none, the key says so. newFolderHint is N's place in the hint bar.
func (p *Pane) folderWriteBindings(n *node, newFolderHint int) common.Bindings {
	k := p.ctx.Keys
	if n.isFile() {
		onlyFolders := "the platform's interface renames and moves folders only"
		return common.Bindings{
			{Key: k.NewFolder, Run: func() tea.Cmd { return p.openNewFolder(n) }, Write: true, Disabled: "select a folder: " + n.name + " is a file", Column: 2},
			{Key: k.Rename, Run: func() tea.Cmd { return nil }, Write: true, Disabled: onlyFolders, Column: 2},
			{Key: k.MoveTo, Run: func() tea.Cmd { return nil }, Write: true, Disabled: onlyFolders, Column: 2},
			{Key: k.Delete, Run: func() tea.Cmd { return p.deleteFile(n) }, Write: true, Column: 2},
		}
	}
	return common.Bindings{
		{Key: k.NewFolder, Run: func() tea.Cmd { return p.openNewFolder(n) }, Write: true, Hint: newFolderHint, Column: 2},
		{Key: k.Rename, Run: func() tea.Cmd { return p.openRename(n) }, Write: true, Column: 2},
		{Key: k.MoveTo, Run: func() tea.Cmd { return p.openMove(n) }, Write: true, Column: 2},
		{Key: k.Delete, Run: func() tea.Cmd { return p.confirmDeleteFolder(n) }, Write: true, Column: 2},
	}
}

// deleteFile deletes a file through its kind's own endpoint, asking first:
// a connection by its pane, which lists what depends on it before asking;
// any other kind here (DELETE /rest/<family>/<id>), the platform refusing
// with its reason, and the files that depend on it, when any does.
func (p *Pane) deleteFile(n *node) tea.Cmd {
	f := n.file
	if f.Kind == model.KindConnection {
		return common.Send(common.DeleteFileMsg{Kind: f.Kind, ID: f.ID, Path: f.Path})
	}
	kind, id, path, parent := f.Kind, f.ID, f.Path, n.parent.path()
	w := folderWrite{label: "deleting " + path, done: "deleted " + path, reread: []string{parent}, moved: true,
		run: func(ctx context.Context, c *api.Client) error { return c.DeleteConfiguration(ctx, kind, id) }}
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete "+path+"?",
		fmt.Sprintf("Delete the %s %s? The platform refuses while anything reads from it, and says what. This cannot be undone.", kind, path),
		"delete", true, w))
}

// jobBindings are trigger and stop of the selected file, which only a job
// or a workbook has.
func (p *Pane) jobBindings(n *node) common.Bindings {
	k := p.ctx.Keys
	notJob := ""
	if !n.file.Kind.Runnable() {
		notJob = fmt.Sprintf("%s is a %s: only jobs and workbooks run", n.name, n.file.Kind)
	}
	noData := ""
	if !api.HasData(n.file.Kind) {
		noData = fmt.Sprintf("%s is a %s: only imports, data links, uploads and workbooks keep data", n.name, n.file.Kind)
	}
	return common.Bindings{
		{Key: k.Trigger, Run: func() tea.Cmd {
			forgetStates(n)
			return common.Send(common.TriggerJobMsg{Ref: fileRef(n), Label: fileLabel(n)})
		}, Write: true, Disabled: notJob, Hint: 5, Column: 2},
		{Key: k.Stop, Run: func() tea.Cmd {
			forgetStates(n)
			return common.Send(common.StopJobMsg{Ref: fileRef(n), Label: fileLabel(n)})
		}, Write: true, Disabled: notJob, Hint: 6, Column: 2},
		{Key: k.ViewData, Help: "view its newest data", Run: func() tea.Cmd {
			return dataview.OpenFile(p.ctx, n.file.Path, n.file.UUID, n.file.ID)
		}, Disabled: noData, Column: 2},
	}
}

// bindings are the permissions editor's keys.
func (e *permEditor) bindings(p *Pane) common.Bindings {
	k := e.ctx.Keys
	if e.editingOwner {
		return common.Bindings{{Key: k.Confirm, Hint: 1}, {Key: k.Back, Hint: 2}}
	}
	loaded := func(do func() tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if !e.loaded {
				return nil
			}
			return do()
		}
	}
	right := key.NewBinding(key.WithKeys("right", "l"))
	return common.Bindings{
		{Key: k.Up, Run: func() tea.Cmd { e.row = max(0, e.row-1); return nil }},
		{Key: k.Down, Run: func() tea.Cmd { e.row = min(e.lastRow(), e.row+1); return nil }},
		{Key: columnKeys(), Hint: 7},
		{Key: k.Close, Run: func() tea.Cmd { e.col = max(0, e.col-1); return nil }, Column: common.NoHelp},
		{Key: right, Run: func() tea.Cmd { e.col = min(len(flagNames)-1, e.col+1); return nil }, Column: common.NoHelp},
		{Key: k.Refresh, Run: e.read},
		{Key: k.Back, Help: "close", Run: func() tea.Cmd { p.closePermissions(); return nil }, Hint: 5},
		{Key: k.Move, Hint: 6, Column: common.NoHelp},
		{Key: k.Toggle, Help: "toggle the flag (writes)", Short: "toggle", Run: loaded(e.toggle), Write: true, Hint: 1, Column: 1},
		{Key: editKey(k), Help: "edit the row (writes on save)", Short: "edit", Run: loaded(e.edit), Write: true, Hint: 2, Column: 1},
		{Key: k.Add, Run: loaded(e.openAddGroup), Write: true, Hint: 3, Column: 1},
		{Key: k.Delete, Run: loaded(e.confirmDelete), Write: true, Hint: 4, Column: 1},
	}
}

// editKey is e and enter as they act in the editor: they open the row for
// editing, and write only once that is confirmed.
func editKey(k *common.KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(append(k.Edit.Keys(), "enter")...), key.WithHelp("enter/e", "edit"))
}

// closePermissions closes the permissions panel, giving the tree its width.
func (p *Pane) closePermissions() {
	p.perms = nil
	p.SetSize(p.width, p.height)
}
