package connections

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// maxListedDependents bounds the dependents the delete confirmation names.
const maxListedDependents = 8

// checkDelete reads what depends on the connection, every level down, so
// the confirmation can say it before anything is deleted.
func (p *Pane) checkDelete(id int64, path string) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask("reading what depends on "+path, common.Quick, func(ctx context.Context) tea.Msg {
		deps, err := client.ConnectionDependencies(ctx, id, api.DependencyQuery{Direction: model.DirectionDownstream})
		return deleteCheckMsg{id: id, path: path, dependents: deps, err: err}
	})
}

func (p *Pane) gotDeleteCheck(msg deleteCheckMsg) tea.Cmd {
	if msg.err != nil && !noDependencyEndpoint(msg.err) {
		return common.Fail("reading what depends on "+msg.path, msg.err)
	}
	body := deleteBody(msg, p.symbols())
	if msg.err == nil && len(msg.dependents) > 0 {
		// The server refuses while anything depends on it: offering a
		// [y] delete would only ask for that refusal.
		return common.OpenDialog(dialog.NewNotice(p.ctx, "Cannot delete "+msg.path, body))
	}
	confirm := dialog.NewConfirm(p.ctx, "Delete "+msg.path+"?", body, "delete", true,
		deleteMsg{id: msg.id, path: msg.path})
	return common.OpenDialog(confirm)
}

// deleteBody lists the dependents first, then says what a delete does.
func deleteBody(msg deleteCheckMsg, sym theme.GraphSymbols) string {
	var b strings.Builder
	switch n := len(msg.dependents); {
	case msg.err != nil:
		b.WriteString("The server cannot list what depends on it (no dependency endpoint); it refuses the delete if anything does.\n")
	case n == 0:
		b.WriteString("Nothing depends on it.\n")
	default:
		verb := "depend"
		if n == 1 {
			verb = "depends"
		}
		fmt.Fprintf(&b, "%s %s on it; the server refuses to delete it while any does:\n", common.Plural(n, "file"), verb)
		deps := slices.Clone(msg.dependents)
		slices.SortStableFunc(deps, func(a, b model.Dependency) int {
			if c := cmp.Compare(kindOrder[kindOf(a)], kindOrder[kindOf(b)]); c != 0 {
				return c
			}
			return cmp.Compare(a.File.Path, b.File.Path)
		})
		for i, d := range deps {
			if i == maxListedDependents {
				fmt.Fprintf(&b, "  … and %d more\n", n-i)
				break
			}
			fmt.Fprintf(&b, "  %s %s\n", kindSymbol(sym, kindOf(d)), d.File.Path)
		}
	}
	if len(msg.dependents) > 0 && msg.err == nil {
		b.WriteString("\nDelete or change them first (enter on a connection shows its graph).")
		return b.String()
	}
	b.WriteString("\nThe connection is deleted from the server; this cannot be undone.")
	return b.String()
}

func (p *Pane) delete(msg deleteMsg) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask("deleting "+msg.path, common.Quick, func(ctx context.Context) tea.Msg {
		return deletedMsg{id: msg.id, path: msg.path, err: client.DeleteConnection(ctx, msg.id)}
	})
}

func (p *Pane) gotDeleted(msg deletedMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("deleting "+msg.path, msg.err)
	}
	if (p.mode == modeGraph && p.graph != nil && p.graph.connID == msg.id) ||
		(p.mode == modeDetails && p.details != nil && p.details.id == msg.id) {
		p.mode = modeList
	}
	if p.graph != nil && p.graph.connID == msg.id {
		p.graph = nil
	}
	return tea.Batch(common.Notify("deleted "+msg.path), p.readList(0, true), p.changed(), common.Send(common.FilesChangedMsg{}))
}
