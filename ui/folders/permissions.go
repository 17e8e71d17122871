package folders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// permEditor shows and edits the permissions of one folder or file. It never shows
// what it asked for: every write is followed by a read, and the view is
// what the server answered, whatever happened to the write.
type permEditor struct {
	ctx *common.Context
	// ref addresses the folder, or the file under /api/filesystem/files/;
	// path names it and tags the answers, so an answer about another
	// target is dropped.
	ref  api.Ref
	path string

	perm   model.Permission
	groups []model.GroupPermission
	loaded bool
	// readErr is why the last read failed; the view says it in place.
	readErr error
	reads   common.Requests

	row, col     int // row: 0 owner, 1 others, then groups, then "add"
	owner        common.TextInput
	editingOwner bool
	// people are the platform's users and groups, offered as pick lists
	// for the owner and a new group (empty when the server lists none).
	people        *people
	ownerPick     *common.Picker
	width, height int
}

// Editor rows before the groups.
const (
	rowOwner = iota
	rowOthers
	firstGroupRow
)

var flagNames = [3]string{"read", "write", "exec"}

func (p *Pane) openPermissions(n *node) tea.Cmd {
	in := common.NewTextInput(p.ctx)
	in.CharLimit = 128
	ref := api.FileID(n.id)
	if n.isFile() {
		ref = fileRef(n).AsFile()
	}
	p.perms = &permEditor{ctx: p.ctx, ref: ref, path: n.path(), owner: in, row: rowOthers, people: &p.people}
	p.perms.setSize(p.permsSize())
	return p.perms.read()
}

func (e *permEditor) setSize(width, height int) {
	e.width, e.height = width, height
	e.owner.SetWidth(max(4, width-12))
}

func (e *permEditor) capturingInput() bool { return e.editingOwner }

func (e *permEditor) lastRow() int { return firstGroupRow + len(e.groups) }

// read asks for the folder's permission and group permissions.
func (e *permEditor) read() tea.Cmd {
	return e.write("reading permissions of "+e.path, "", "", nil)
}

// write runs op (nil for a plain read), then reads both resources again.
func (e *permEditor) write(label, done, wantOwner string, op func(ctx context.Context, c *api.Client, id api.Ref) error) tea.Cmd {
	ticket, client, id, target := e.reads.Next(), e.ctx.Client, e.ref, e.path
	return common.StartTask(label, common.Quick, func(ctx context.Context) tea.Msg {
		msg := permsMsg{ticket: ticket, target: target, label: label, done: done, wantOwner: wantOwner}
		if op != nil {
			msg.writeErr = op(ctx, client, id)
		}
		var gerr error
		msg.perm, msg.readErr = client.Permission(ctx, id)
		if msg.readErr == nil {
			var g model.GroupPermissions
			g, gerr = client.GroupPermissions(ctx, id)
			msg.groups, msg.readErr = g.Embedded.Groups, gerr
		}
		return msg
	})
}

func (e *permEditor) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case permsMsg:
		if msg.target != e.path || !e.reads.Current(msg.ticket) {
			return nil
		}
		return e.answered(msg)
	case addGroupMsg:
		if msg.target != e.path {
			return nil
		}
		return e.write("adding group "+msg.name, "added group "+msg.name, "", func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.CreateGroupPermission(ctx, id, msg.name, msg.flags)
			return err
		})
	case setFlagsMsg:
		if msg.target != e.path {
			return nil
		}
		return e.setFlags(msg)
	case deleteGroupMsg:
		if msg.target != e.path {
			return nil
		}
		return e.write("deleting group "+msg.name, "deleted group "+msg.name, "", func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.DeleteGroupPermission(ctx, id, msg.name)
			return err
		})
	}
	return nil
}

// answered installs the server's answer and says how the write went.
func (e *permEditor) answered(msg permsMsg) tea.Cmd {
	e.readErr = msg.readErr
	if msg.readErr == nil {
		e.perm, e.groups, e.loaded = msg.perm, msg.groups, true
		e.row = min(e.row, e.lastRow())
	}
	switch {
	case msg.writeErr != nil: // the read after it most likely failed alike
		return common.Fail(msg.label, msg.writeErr)
	case msg.readErr != nil:
		return common.Fail("reading permissions of "+e.path, msg.readErr)
	case msg.wantOwner != "" && e.perm.Owner != msg.wantOwner:
		return common.Problem(fmt.Sprintf("the server kept %s as owner of %s, not %s", e.perm.Owner, e.path, msg.wantOwner))
	case msg.done != "":
		return common.Notify(msg.done + " · " + e.path)
	}
	return nil
}

// edit opens the row for editing and writes nothing: the owner's field, the
// add-a-group form, or a form of the row's three flags. Only space (toggle)
// and a submitted form write.
func (e *permEditor) edit() tea.Cmd {
	switch {
	case e.row == rowOwner:
		e.editingOwner = true
		e.owner.SetValue(common.Clean(e.perm.Owner)) // the text input lets bidi controls through
		e.owner.CursorEnd()
		e.ownerPick = common.NewPicker(e.people.users) // every user offered until one types
		return e.owner.Focus()
	case e.row == e.lastRow():
		return e.openAddGroup()
	case e.row == rowOthers:
		return e.openFlagsForm("others", model.Flags(e.perm.Others))
	}
	return e.openFlagsForm(e.groups[e.row-firstGroupRow].Name, e.groups[e.row-firstGroupRow].Flags)
}

// openFlagsForm edits the three flags of others (group "") or of a group;
// the form's submit is the write.
func (e *permEditor) openFlagsForm(who string, flags model.Flags) tea.Cmd {
	target, group := e.path, who
	if e.row == rowOthers {
		group = ""
	}
	title := "Rights of " + who + " on " + common.Clean(e.path)
	if group != "" {
		title = "Rights of group " + common.Clean(who) + " on " + common.Clean(e.path)
	}
	form := dialog.NewForm(e.ctx, title, "", "save", []dialog.Field{
		{Name: "r", Label: "read", On: flags.Readable},
		{Name: "w", Label: "write", On: flags.Writable},
		{Name: "x", Label: "exec", On: flags.Executable},
	}, func(v dialog.Values) (tea.Msg, error) {
		return setFlagsMsg{target: target, group: group,
			flags: model.Flags{Readable: v.Bool("r"), Writable: v.Bool("w"), Executable: v.Bool("x")}}, nil
	})
	return common.OpenDialog(form)
}

// setFlags writes what a flags form decided.
func (e *permEditor) setFlags(msg setFlagsMsg) tea.Cmd {
	if msg.group == "" {
		return e.write("changing others of "+e.path, "others: "+flagsText(msg.flags), "", func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.ChangeOthersPermission(ctx, id, msg.flags)
			return err
		})
	}
	return e.write("changing group "+msg.group+" of "+e.path, "group "+msg.group+": "+flagsText(msg.flags), "", func(ctx context.Context, c *api.Client, id api.Ref) error {
		_, err := c.ChangeGroupPermission(ctx, id, msg.group, msg.flags)
		return err
	})
}

// flagsText says three flags as ls does: rw-.
func flagsText(f model.Flags) string {
	out := []byte("---")
	for col, letter := range []byte("rwx") {
		if flagOf(f, col) {
			out[col] = letter
		}
	}
	return string(out)
}

func (e *permEditor) handleOwnerKey(msg tea.KeyPressMsg) tea.Cmd {
	k := e.ctx.Keys
	switch {
	case key.Matches(msg, k.Back):
		e.editingOwner = false
		e.owner.Blur()
		return nil
	case msg.String() == "down" && e.ownerPick.Move(1), msg.String() == "up" && e.ownerPick.Move(-1):
		return nil
	case key.Matches(msg, k.Confirm):
		if chosen, ok := e.ownerPick.Chosen(); ok {
			e.owner.SetValue(chosen)
			e.owner.CursorEnd()
			e.ownerPick.Filter(chosen)
			return nil
		}
		owner := strings.TrimSpace(e.owner.Value())
		if !e.ownerPick.Known(owner) && owner != "" {
			return common.Problem(fmt.Sprintf("unknown user %q: choose one from the list", common.Clean(owner)))
		}
		e.editingOwner = false
		e.owner.Blur()
		if owner == "" || owner == e.perm.Owner {
			return nil
		}
		return e.write("changing owner of "+e.path, "owner set to "+owner, owner, func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.ChangeOwner(ctx, id, owner)
			return err
		})
	}
	cmd := e.owner.Update(msg)
	e.ownerPick.Filter(e.owner.Value())
	return cmd
}

// toggle flips the flag under the cursor of others or of a group.
func (e *permEditor) toggle() tea.Cmd {
	col := e.col
	flip := func(f model.Flags) model.Flags {
		switch col {
		case 0:
			f.Readable = !f.Readable
		case 1:
			f.Writable = !f.Writable
		default:
			f.Executable = !f.Executable
		}
		return f
	}
	switch {
	case e.row == rowOthers:
		flags := flip(model.Flags(e.perm.Others))
		action := fmt.Sprintf("others: %s %s", flagNames[col], onOff(flagOf(flags, col)))
		return e.write("changing others of "+e.path, action, "", func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.ChangeOthersPermission(ctx, id, flags)
			return err
		})
	case e.row >= firstGroupRow && e.row < e.lastRow():
		g := e.groups[e.row-firstGroupRow]
		flags := flip(g.Flags)
		action := fmt.Sprintf("group %s: %s %s", g.Name, flagNames[col], onOff(flagOf(flags, col)))
		return e.write("changing group "+g.Name+" of "+e.path, action, "", func(ctx context.Context, c *api.Client, id api.Ref) error {
			_, err := c.ChangeGroupPermission(ctx, id, g.Name, flags)
			return err
		})
	}
	return nil
}

func flagOf(f model.Flags, col int) bool {
	return [3]bool{f.Readable, f.Writable, f.Executable}[col]
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func (e *permEditor) openAddGroup() tea.Cmd {
	target := e.path
	form := dialog.NewForm(e.ctx, "Add a group to "+e.path, "", "add", []dialog.Field{
		{Name: "name", Label: "group", Text: true, Choices: e.people.groups},
		{Name: "r", Label: "read", On: true},
		{Name: "w", Label: "write"},
		{Name: "x", Label: "exec"},
	}, func(v dialog.Values) (tea.Msg, error) {
		name := v.Text("name")
		if name == "" || strings.ContainsAny(name, "/ ") {
			return nil, errors.New("a group name is one word, without slashes")
		}
		return addGroupMsg{target: target, name: name,
			flags: model.Flags{Readable: v.Bool("r"), Writable: v.Bool("w"), Executable: v.Bool("x")}}, nil
	})
	return common.OpenDialog(form)
}

func (e *permEditor) confirmDelete() tea.Cmd {
	if e.row < firstGroupRow || e.row >= e.lastRow() {
		return common.Info("select a group to delete")
	}
	name := e.groups[e.row-firstGroupRow].Name
	return common.OpenDialog(dialog.NewConfirm(e.ctx, "Delete group permission",
		fmt.Sprintf("Remove every right of group %s on %s?", name, e.path),
		"delete", true, deleteGroupMsg{target: e.path, name: name}))
}

func (e *permEditor) view() string {
	st := e.ctx.Styles
	title := "Permissions of " + common.Clean(e.path)
	if e.ctx.ReadOnly {
		title += " · " + st.Symbols.ReadOnly
	}
	lines := []string{st.PaneTitle.Render(ansi.Truncate(title, e.width, "…"))}
	if !e.loaded {
		switch {
		case e.readErr != nil:
			lines = append(lines, st.StatusError.Width(e.width).Render(st.Symbols.Error+" "+common.Explain("reading permissions", e.readErr)))
		default:
			lines = append(lines, st.Empty.Render(e.ctx.Spinner+" reading…"))
		}
		return strings.Join(lines, "\n")
	}
	nameW := len("others")
	for _, g := range e.groups {
		nameW = max(nameW, min(24, ansi.StringWidth(g.Name)+6))
	}
	cursor := func(row int) string {
		if row == e.row {
			return st.FieldFocused.Render(st.Symbols.Cursor) + " "
		}
		return "  "
	}
	owner := st.Value.Render(common.Clean(e.perm.Owner))
	if e.editingOwner {
		owner = e.owner.View()
	} else if e.row == rowOwner {
		owner = st.FieldFocused.Render(common.Clean(e.perm.Owner)) + st.Label.Render("  (enter edits)")
	}
	lines = append(lines, cursor(rowOwner)+st.Label.Render(common.PadRight("owner", nameW))+" "+owner)
	if e.editingOwner {
		lines = append(lines, e.ownerPick.Lines(st, nameW+3)...)
	}
	lines = append(lines, "")
	header := "  " + common.PadRight("", nameW)
	for _, f := range flagNames {
		header += " " + common.PadRight(f, 6)
	}
	lines = append(lines, st.Label.Render(header))
	lines = append(lines, cursor(rowOthers)+common.PadRight("others", nameW)+e.flagCells(rowOthers, model.Flags(e.perm.Others)))
	for i, g := range e.groups {
		row := firstGroupRow + i
		name := ansi.Truncate("group "+common.Clean(g.Name), nameW, "…")
		lines = append(lines, cursor(row)+common.PadRight(name, nameW)+e.flagCells(row, g.Flags))
	}
	if len(e.groups) == 0 {
		lines = append(lines, "  "+st.Empty.Render("no group permissions"))
	}
	add := "+ add a group"
	if e.row == e.lastRow() {
		add = st.FieldFocused.Render(add)
	}
	lines = append(lines, cursor(e.lastRow())+add)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, e.width, "…")
	}
	return strings.Join(windowAround(lines, e.focusLine(), e.height), "\n")
}

// focusLine is the index in view's lines of the row under the cursor.
func (e *permEditor) focusLine() int {
	switch {
	case e.row == rowOwner:
		return 1
	case e.row == e.lastRow() && len(e.groups) == 0:
		return 5 + 1
	}
	return 4 + e.row - rowOthers
}

func (e *permEditor) flagCells(row int, f model.Flags) string {
	st := e.ctx.Styles
	var b strings.Builder
	for col := range flagNames {
		cell := st.Toggle(flagOf(f, col))
		if row == e.row && col == e.col {
			cell = st.ButtonFocused.UnsetPadding().Render(ansi.Strip(cell))
		}
		b.WriteString(" " + cell + "   ")
	}
	return b.String()
}

// windowAround keeps the title and the lines around focus within h lines.
func windowAround(lines []string, focus, h int) []string {
	if h <= 0 || len(lines) <= h {
		return lines
	}
	room := h - 1
	start := max(1, min(focus-room/2, len(lines)-room))
	return append([]string{lines[0]}, lines[start:start+room]...)
}

// columnKeys describes ← and → as they act in the editor: moving between
// the read, write and exec columns.
func columnKeys() key.Binding {
	return key.NewBinding(key.WithKeys("left", "right", "h", "l"), key.WithHelp("←/→ h/l", "flag"))
}
