package folders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// folderWrite is a folder create, rename, move or delete the forms and
// commands decided; the pane runs it with run and reads again what changed.
type folderWrite struct {
	label string // "creating /Data/Q3"
	done  string // "created /Data/Q3"
	// reread are the paths of the folders whose children changed.
	reread []string
	// moved is set when paths below a folder changed (rename, move): the
	// file lists are read again.
	moved bool
	// follow is where the folder is after the write (a rename's or a
	// move's): the cursor goes with it, so the next key acts on it and not
	// on the row that took its place.
	follow string
	run    func(ctx context.Context, c *api.Client) error
}

// folderWritten answers a folderWrite.
type folderWritten struct {
	write folderWrite
	err   error
}

func (m folderWritten) Failure() error { return m.err }

// renameCommand and moveCommand are :rename NAME and :mv PATH, acting on
// the selected folder.
type renameCommand struct{ name string }
type moveCommand struct{ target string }

// Commands implements common.Commander.
func (p *Pane) Commands() []common.Command {
	return []common.Command{
		{Name: "rename", Args: "NAME", Help: "rename the selected folder", Run: func(args string) tea.Cmd {
			return common.Send(renameCommand{name: strings.TrimSpace(args)})
		}},
		{Name: "transfer", Help: "show the running backup or restore (esc there cancels it)", Run: func(string) tea.Cmd {
			return common.Send(showTransferMsg{})
		}},
		{Name: "mv", Args: "PATH", Help: "move the selected folder into the folder at PATH", Run: func(args string) tea.Cmd {
			return common.Send(moveCommand{target: strings.TrimSpace(args)})
		}},
	}
}

// checkFolderName refuses what the server would: an empty name, a slash,
// . or .., blanks around it.
func checkFolderName(name string) error {
	switch {
	case name == "":
		return errors.New("give the folder a name")
	case name == "." || name == ".." || strings.ContainsAny(name, "/\x00"):
		return fmt.Errorf("%q: a folder name has no slash and is neither \".\" nor \"..\"", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("%q: no blanks around a folder name", name)
	}
	return nil
}

// childPathOf joins a folder path and a name.
func childPathOf(folder, name string) string {
	if folder == "/" {
		return "/" + name
	}
	return folder + "/" + name
}

// readOnlyRefusal says why a write from a command did nothing.
func (p *Pane) readOnlyRefusal(what string) tea.Cmd {
	if p.ctx.ReadOnly {
		return common.Problem(what + ": the console is read-only")
	}
	return nil
}

// openNewFolder asks for the name of a new folder inside n.
func (p *Pane) openNewFolder(n *node) tea.Cmd {
	parent := n.path()
	// By id where the tree has it: the real platform's folder endpoints
	// take a file id or a UUID, not a path (its create answered 404).
	at := api.Path(parent)
	if n.id > 0 {
		at = api.FileID(n.id)
	}
	return common.OpenDialog(dialog.NewForm(p.ctx, "New folder in "+parent, "", "create", []dialog.Field{
		{Name: "name", Label: "name", Text: true},
	}, func(v dialog.Values) (tea.Msg, error) {
		name := v.Text("name")
		if err := checkFolderName(name); err != nil {
			return nil, err
		}
		path := childPathOf(parent, name)
		return folderWrite{label: "creating " + path, done: "created " + path, reread: []string{parent},
			run: func(ctx context.Context, c *api.Client) error {
				_, err := c.CreateFolder(ctx, at, name)
				return err
			}}, nil
	}))
}

// openRename asks for a folder's new name.
func (p *Pane) openRename(n *node) tea.Cmd {
	if n.parent == nil || n.isFile() {
		return common.Problem("only a folder below the root can be renamed here")
	}
	return common.OpenDialog(dialog.NewForm(p.ctx, "Rename "+n.path(), "", "rename", []dialog.Field{
		{Name: "name", Label: "new name", Text: true, Value: common.Clean(n.name)}, // a hostile name is offered shown, so renaming fixes it
	}, func(v dialog.Values) (tea.Msg, error) {
		return p.renameWrite(n, v.Text("name"))
	}))
}

func (p *Pane) renameWrite(n *node, name string) (tea.Msg, error) {
	if err := checkFolderName(name); err != nil {
		return nil, err
	}
	id, from, parent := n.id, n.path(), n.parent.path()
	to := childPathOf(parent, name)
	return folderWrite{label: "renaming " + from, done: "renamed " + from + " to " + to, reread: []string{parent}, moved: true, follow: to,
		run: func(ctx context.Context, c *api.Client) error {
			_, err := c.RenameFolder(ctx, api.FileID(id), name)
			return err
		}}, nil
}

func (p *Pane) moveWrite(n *node, target string) (tea.Msg, error) {
	if n.parent == nil || n.isFile() {
		return nil, errors.New("select a folder below the root to move")
	}
	if target == "" || !strings.HasPrefix(target, "/") {
		return nil, errors.New("give the folder to move into as a path, e.g. :mv /Data/Archive")
	}
	target = strings.TrimRight(target, "/")
	if target == "" {
		target = "/"
	}
	id, from := n.id, n.path()
	return folderWrite{label: "moving " + from, done: "moved " + from + " into " + target, reread: []string{n.parent.path(), target}, moved: true,
		follow: childPathOf(target, n.name),
		run: func(ctx context.Context, c *api.Client) error {
			_, err := c.MoveFolder(ctx, api.FileID(id), api.Path(target))
			return err
		}}, nil
}

// openMove asks for the folder to move n into.
func (p *Pane) openMove(n *node) tea.Cmd {
	if n.parent == nil {
		return common.Problem("the root folder cannot be moved")
	}
	return common.OpenDialog(dialog.NewForm(p.ctx, "Move "+n.path(), "", "move", []dialog.Field{
		{Name: "into", Label: "into folder", Text: true, Value: n.parent.path()},
	}, func(v dialog.Values) (tea.Msg, error) {
		return p.moveWrite(n, strings.TrimSpace(v.Text("into")))
	}))
}

// confirmDeleteFolder asks before deleting a folder; the server refuses
// one that is not empty, and the console says so before asking when it
// knows the folder holds something.
func (p *Pane) confirmDeleteFolder(n *node) tea.Cmd {
	if n.parent == nil {
		return common.Problem("the root folder cannot be deleted")
	}
	if n.state == common.Loaded && (len(n.children) > 0 || len(n.files) > 0) {
		return common.Problem(n.path() + " is not empty: only an empty folder can be deleted")
	}
	id, path, parent := n.id, n.path(), n.parent.path()
	w := folderWrite{label: "deleting " + path, done: "deleted " + path, reread: []string{parent},
		run: func(ctx context.Context, c *api.Client) error { return c.DeleteFolder(ctx, api.FileID(id)) }}
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete folder",
		fmt.Sprintf("Delete the empty folder %s? This cannot be undone.", path), "delete", true, w))
}

// runFolderWrite sends a folder write to the server.
func (p *Pane) runFolderWrite(w folderWrite) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	if cmd := p.readOnlyRefusal(w.label); cmd != nil {
		return cmd
	}
	return common.StartTask(w.label, common.Quick, func(ctx context.Context) tea.Msg {
		return folderWritten{write: w, err: w.run(ctx, client)}
	})
}

// folderWriteDone reads again the folders a write changed (and the file
// lists after a rename or move), so the tree shows it without an `r`.
func (p *Pane) folderWriteDone(msg folderWritten) tea.Cmd {
	if msg.err != nil {
		return common.Fail(msg.write.label, msg.err)
	}
	cmds := []tea.Cmd{common.Notify(msg.write.done)}
	for _, path := range msg.write.reread {
		if n := p.tree.find(path); n != nil && n.state == common.Loaded {
			cmds = append(cmds, p.readVisibly(n))
		}
	}
	if msg.write.moved {
		cmds = append(cmds, p.readFiles())
	}
	if msg.write.follow != "" {
		cmds = append(cmds, p.walkTo(msg.write.follow, true))
	}
	return tea.Batch(cmds...)
}

// openFile opens where a file is handled: a job's history in the jobs
// pane, a connection in the connections pane.
func (p *Pane) openFile(f *node) tea.Cmd {
	e := f.file
	switch {
	case e.Kind == model.KindConnection:
		return tea.Batch(common.Send(common.OpenConnectionMsg{ConfigID: e.ID, Path: e.Path}),
			common.Send(common.FocusPaneMsg{Pane: common.ConnectionsPane}))
	case e.Kind.Runnable():
		return tea.Batch(common.Send(common.OpenJobMsg{ConfigID: e.ID, UUID: e.UUID, Path: e.Path}),
			common.Send(common.FocusPaneMsg{Pane: common.JobsPane}))
	}
	return common.Info(fmt.Sprintf("%s is a %s: p shows its permissions, y and Y copy its path and id", f.name, e.Kind))
}

// copyRow puts the selected row's path, or its id, on the clipboard by
// OSC 52 and says what it copied.
func (p *Pane) copyRow(n *node, id bool) tea.Cmd {
	what, text := "path", n.path()
	if id {
		what, text = "id", fmt.Sprint(n.id)
		if n.isFile() {
			what, text = "configuration id", configID(n)
		}
	}
	return common.Copy(what, text)
}

// sequenceOfMarked opens the jobs pane's sequential trigger form with the
// marked jobs of the tree, or the selected one when none is marked.
func (p *Pane) sequenceOfMarked(f *node) tea.Cmd {
	var paths []string
	for _, m := range p.tree.marked() {
		if m.isFile() && m.file.Kind.Runnable() {
			paths = append(paths, m.file.Path)
		}
	}
	if len(paths) == 0 {
		if !f.isFile() {
			return common.Problem("mark the jobs to run in sequence (space), or select one")
		}
		if !f.file.Kind.Runnable() {
			return common.Problem(fmt.Sprintf("%s is a %s: only jobs and workbooks run", f.name, f.file.Kind))
		}
		paths = []string{f.file.Path}
	}
	// The form opens over the tree: esc leaves the user where they were;
	// the jobs pane, where the plan shows, comes with the trigger.
	return common.Send(common.SequenceFormMsg{Paths: paths})
}
