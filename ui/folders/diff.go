package folders

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// diffRequest is a diff the tree's form or a plan asked for: a local ZIP
// against a folder; target is set when a plan read the folder already.
type diffRequest struct {
	file, path string
	target     *restoreplan.Target
}

// diffDone answers a diff: what differs, as `folder diff` lists it.
type diffDone struct {
	req     diffRequest
	changes []restoreplan.Change
	err     error
}

func (m diffDone) Failure() error { return m.err }

// openDiff asks which backup to compare the selected folder with (the one
// holding the selected file).
func (p *Pane) openDiff(n *node) tea.Cmd {
	if n.isFile() {
		n = n.parent
	}
	path := n.path()
	fields := []dialog.Field{{Name: "file", Label: "ZIP file", Text: true, Value: p.lastBackup, Choices: p.zips, Suggested: true}}
	return common.OpenDialog(dialog.NewForm(p.ctx, "Diff of "+path+" with a backup", "what the backup adds, removes and changes against the folder now; secrets are never shown", "diff", fields,
		func(v dialog.Values) (tea.Msg, error) {
			file := common.ExpandHome(v.Text("file"))
			if file == "" {
				return nil, errors.New("name the ZIP file to compare with")
			}
			disk := p.ctx.Files
			return dialog.Check(func() (tea.Msg, error) {
				return diffRequest{file: file, path: path}, checkZipFile(disk, file)
			}), nil
		}))
}

// diff compares off the loop, reading the folder first unless a plan has.
func diff(ctx *common.Context, req diffRequest) tea.Cmd {
	client, files := ctx.Client, ctx.Files
	return common.StartTask("comparing "+req.file+" with "+req.path, common.Quick, func(taskCtx context.Context) tea.Msg {
		out := diffDone{req: req}
		target := req.target
		if target == nil {
			if target, out.err = restoreplan.ReadTarget(taskCtx, client.AsReadOnly(), api.Path(req.path)); out.err != nil {
				out.err = fmt.Errorf("diff with %s: %w", req.path, out.err)
				return out
			}
		}
		out.err = withArchive(files, req.file, func(zr *zip.Reader) error {
			var err error
			out.changes, err = restoreplan.Diff(zr, target)
			return err
		})
		return out
	})
}

// gotDiff shows a diff; a failed one says why in the status line.
func gotDiff(ctx *common.Context, msg diffDone) tea.Cmd {
	if msg.err != nil {
		return common.Fail("diff", msg.err)
	}
	return common.OpenDialog(newDiffDialog(ctx, msg))
}

// diffDialog lists what differs between a backup and the folder now:
// added, removed and changed files, the changed ones field by field, a
// secret's values never (only that it changed).
type diffDialog struct {
	report
}

func newDiffDialog(ctx *common.Context, msg diffDone) *diffDialog {
	st := ctx.Styles
	d := &diffDialog{report: newReport(ctx)}
	d.keys = d.bindings
	d.title = "Diff of the backup with the folder"
	d.sub = msg.req.file + " ↔ " + msg.req.path
	d.empty = "no file added, removed or changed"
	counts := map[string]int{}
	var items []reportLine
	for _, c := range msg.changes {
		counts[c.Change]++
		style := st.Row
		if c.Change == restoreplan.Removed {
			style = st.StatusError
		}
		items = append(items, reportLine{text: c.Path, style: style, lead: fmt.Sprintf("%-10s", c.Change)})
		for _, f := range c.Fields {
			text := fmt.Sprintf("%s: backup %s, now %s", f.Field, orNone(f.Archive), orNone(f.Live))
			if f.Secret {
				text = f.Field + ": changed (a secret: its values are not shown)"
			}
			items = append(items, reportLine{text: text, style: st.Label, lead: strings.Repeat(" ", 12)})
		}
	}
	summary := "the same: nothing differs"
	if len(msg.changes) > 0 {
		summary = fmt.Sprintf("%d added, %d removed, %d changed (the backup against the folder now)",
			counts[restoreplan.Added], counts[restoreplan.Removed], counts[restoreplan.Changed])
	}
	d.head = []reportLine{{text: summary, style: st.Value}}
	d.setItems(items)
	return d
}

// orNone is a field's value, or that it has none on that side.
func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

func (d *diffDialog) bindings() common.Bindings {
	k := d.ctx.Keys
	closeIt := func() tea.Cmd { d.closed = true; return nil }
	return append(common.Bindings{
		{Key: k.Back, Help: "close the diff", Short: "close", Run: closeIt, Hint: 1},
		{Key: k.Confirm, Help: "close the diff", Run: closeIt},
		{Key: k.Move, Hint: 2, Column: common.NoHelp},
	}, d.scrollBindings()...)
}

// Update implements common.Dialog.
func (d *diffDialog) Update(msg tea.Msg) (common.Dialog, tea.Cmd) { return d.update(d, msg) }

// View implements common.Dialog.
func (d *diffDialog) View() string {
	return d.view(button(d.ctx.Styles.ButtonFocused, d.ctx.Keys.Back, "close"))
}
