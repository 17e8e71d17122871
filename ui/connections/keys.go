package connections

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// editOverSSH is why e does nothing in a console served over SSH.
const editOverSSH = "it runs $EDITOR on the server's host, which a console served over SSH never does"

func (p *Pane) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if p.filter.Active() {
		return p.handleFilterKey(msg)
	}
	cmd, _ := p.Bindings().Handle(p.ctx, msg)
	return cmd
}

// Bindings implements common.Pane: the keys of the list, of a
// connection's details or of its dependency graph.
func (p *Pane) Bindings() common.Bindings {
	switch p.mode {
	case modeDetails:
		return p.detailsBindings()
	case modeGraph:
		return p.graphBindings()
	}
	return p.listBindings()
}

// writeBindings are new, edit and delete, which act on the connection
// shown (the selected row in the list) in every view; hints holds their
// places in the hint bar.
func (p *Pane) writeBindings(hints [3]int) common.Bindings {
	k := p.ctx.Keys
	current := func(do func(id int64, path string) tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if id, path, ok := p.current(); ok {
				return do(id, path)
			}
			return nil
		}
	}
	edit := common.Binding{Key: k.Edit, Run: current(p.startEdit), Write: true, Hint: hints[1], Column: 1}
	if p.ctx.Served {
		edit.Disabled = editOverSSH
	}
	return common.Bindings{
		{Key: k.New, Run: func() tea.Cmd { return common.OpenDialog(newKindChooser(p.ctx)) }, Write: true, Hint: hints[0], Column: 1},
		edit,
		{Key: k.Delete, Run: current(p.checkDelete), Write: true, Hint: hints[2], Column: 1},
	}
}

func (p *Pane) listBindings() common.Bindings {
	k := p.ctx.Keys
	if p.filter.Active() {
		return common.Bindings{{Key: k.Confirm, Hint: 1}, {Key: k.Back, Hint: 2}}
	}
	onSelected := func(do func(e *entry) tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if e := p.selected(); e != nil {
				return do(e)
			}
			return nil
		}
	}
	bs := common.ListBindings(k, p.listHeight(), len(p.list.rows), 1, 0, p.moveCursor)
	bs = append(bs,
		common.Binding{Key: k.Open, Help: "dependency graph", Short: "open", Run: onSelected(func(e *entry) tea.Cmd { return p.openGraph(e.ID, e.Path) }), Hint: 2},
		common.Binding{Key: k.Details, Run: onSelected(p.openDetails), Hint: 3, Column: 1},
		common.Binding{Key: k.Filter, Run: p.filter.Start, Hint: 4, Column: 1},
		common.Binding{Key: k.SortBy, Run: func() tea.Cmd { return p.sortBy((p.list.sortBy+1)%columnCount, false) }, Hint: 5, Column: 1},
		common.Binding{Key: k.SortReverse, Run: func() tea.Cmd { p.list.descending = !p.list.descending; return p.relist() }, Column: 1},
		common.Binding{Key: k.HideSystem, Run: func() tea.Cmd { p.list.hideSystem = !p.list.hideSystem; return p.relist() }, Hint: 6, Column: 1},
		common.Binding{Key: k.Refresh, Run: func() tea.Cmd { return p.readList(0, true) }, Column: 1},
	)
	bs = append(bs, p.writeBindings([3]int{7, 8, 9})...)
	bs = append(bs,
		common.Binding{Key: k.Back, Help: "clear the filter", Run: p.clearFilter, Column: 1},
		common.Binding{Key: k.CopyPath, Run: onSelected(func(e *entry) tea.Cmd { return common.Copy("path", e.Path) }), Column: 1},
		common.Binding{Key: k.CopyID, Run: onSelected(func(e *entry) tea.Cmd { return common.Copy("configuration id", strconv.FormatInt(e.ID, 10)) }), Column: 1},
	)
	return append(bs, p.sortBindings()...)
}

func (p *Pane) clearFilter() tea.Cmd {
	if p.list.filter == "" {
		return nil
	}
	p.setFilter("")
	return p.readVisibleTypes()
}

// sortBy sorts the list by a column; byKey is a column's own key, which
// pressed again reverses the order. Sorting by type reads every row's type.
func (p *Pane) sortBy(by column, byKey bool) tea.Cmd {
	if byKey {
		p.list.descending = by == p.list.sortBy && !p.list.descending
	}
	p.list.sortBy = by
	cmd := p.relist()
	if by == colType {
		return tea.Batch(cmd, p.readAllTypes())
	}
	return cmd
}

// sortBindings are the list's direct sort keys, shift+letter as in k9s.
func (p *Pane) sortBindings() common.Bindings {
	k := p.ctx.Keys
	by := func(c column) func() tea.Cmd { return func() tea.Cmd { return p.sortBy(c, true) } }
	return common.Bindings{
		{Key: k.SortName, Run: by(colName), Column: 2},
		{Key: k.SortType, Help: "sort by type", Run: by(colType), Column: 2},
		{Key: k.SortFile, Help: "sort by path", Run: by(colPath), Column: 2},
		{Key: k.SortDescription, Run: by(colDescription), Column: 2},
	}
}

func (p *Pane) detailsBindings() common.Bindings {
	k := p.ctx.Keys
	d := p.details
	bs := common.ListBindings(k, p.bodyHeight(), len(d.body), 1, 0, func(delta int) tea.Cmd {
		d.scroll(delta, p.bodyHeight())
		return nil
	})
	bs = append(bs,
		common.Binding{Key: k.Open, Help: "dependency graph", Short: "open", Run: func() tea.Cmd { return p.openGraph(d.id, d.path) }, Hint: 2},
		common.Binding{Key: k.Close, Run: p.toList},
		common.Binding{Key: k.Refresh, Run: func() tea.Cmd { return p.readDetails(d.id, d.path) }, Hint: 5, Column: 1},
	)
	bs = append(bs, p.writeBindings([3]int{0, 3, 4})...)
	return append(bs, common.Binding{Key: k.Back, Run: p.toList, Hint: 6, Column: 1})
}

func (p *Pane) graphBindings() common.Bindings {
	k := p.ctx.Keys
	g := p.graph
	bs := common.ListBindings(k, p.graphHeight(), len(p.lines), 1, 0, func(delta int) tea.Cmd {
		p.moveGraphCursor(delta)
		return nil
	})
	bs = append(bs,
		common.Binding{Key: k.Open, Help: "where it lives", Short: "open", Run: func() tea.Cmd {
			if p.gcursor < len(p.lines) {
				return openWhereItLives(p.lines[p.gcursor].n)
			}
			return nil
		}, Hint: 2},
		common.Binding{Key: k.Close, Run: p.toList},
		common.Binding{Key: k.Deeper, Run: func() tea.Cmd { return p.setLevel(p.deeper()) }, Hint: 3, Column: 1},
		common.Binding{Key: k.Shallower, Run: func() tea.Cmd { return p.setLevel(p.shallower()) }, Hint: 4, Column: 1},
		common.Binding{Key: k.Refresh, Run: p.refreshGraph, Hint: 5, Column: 1},
		common.Binding{Key: k.Details, Run: func() tea.Cmd {
			if e := p.list.byID[g.connID]; e != nil {
				return p.openDetails(e)
			}
			return nil
		}, Hint: 6, Column: 1},
	)
	bs = append(bs, p.writeBindings([3]int{0, 0, 0})...)
	return append(bs, common.Binding{Key: k.Back, Run: p.toList, Hint: 7, Column: 1})
}

// toList goes back from details or the graph to the list.
func (p *Pane) toList() tea.Cmd {
	p.mode = modeList
	return nil
}
