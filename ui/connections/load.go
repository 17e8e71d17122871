package connections

import (
	"context"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// readers bounds the reads one task runs at once (types, one graph level).
const readers = 4

// readList reads the list; selectID, when not 0, is where the cursor goes.
// A read the user asked for shows in the status line; the first read runs
// quietly, so the pane is ready when the user comes to it.
func (p *Pane) readList(selectID int64, asked bool) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	ticket, base := p.listReads.Next(), p.list.answer
	read := func(ctx context.Context) tea.Msg {
		entries, err := client.Connections(ctx)
		msg := listMsg{ticket: ticket, entries: entries, err: err, selectID: selectID, base: base}
		if err == nil {
			msg.changes = common.Diff(base, entries, connectionID, replaceLimit) // O(rows), here rather than in Update
		}
		return msg
	}
	return common.StartTask("reading connections", taskKind(asked), read)
}

func (p *Pane) gotList(msg listMsg) tea.Cmd {
	if !p.listReads.Current(msg.ticket) {
		return nil
	}
	if msg.err != nil {
		p.listErr = msg.err
		return common.Fail("reading the connections", msg.err)
	}
	keep := msg.selectID
	if keep == 0 {
		if e := p.selected(); e != nil {
			keep = e.ID
		}
	}
	p.listLoaded, p.listErr = true, nil
	p.typeReads.Next()
	p.typesPending = map[int64]bool{}
	if common.SameAnswer(msg.base, p.list.answer) {
		p.list.apply(msg.entries, msg.changes)
	} else {
		p.list.set(msg.entries)
	}
	p.keepCursorOn(keep)
	if p.list.sortBy == colType {
		return p.readAllTypes()
	}
	return p.readVisibleTypes()
}

// readVisibleTypes reads, quietly, the types of the rows on screen that are
// not known yet.
func (p *Pane) readVisibleTypes() tea.Cmd {
	return p.readTypes(missingTypes(p.visibleRows(), p.typesPending), false)
}

// readAllTypes reads every missing type, for a sort by type.
func (p *Pane) readAllTypes() tea.Cmd {
	return p.readTypes(missingTypes(p.list.rows, p.typesPending), true)
}

func (p *Pane) readTypes(ids []int64, asked bool) tea.Cmd {
	client := p.ctx.Client
	if len(ids) == 0 || client == nil {
		return nil
	}
	for _, id := range ids {
		p.typesPending[id] = true
	}
	ticket := p.typeReads.Latest()
	read := func(ctx context.Context) tea.Msg {
		types := make([]string, len(ids))
		errs := make([]error, len(ids))
		forEach(len(ids), func(i int) {
			conn, err := client.Connection(ctx, ids[i])
			types[i], errs[i] = typeName(conn), err
			if err != nil {
				types[i] = "?"
			}
		})
		out := make(map[int64]string, len(ids))
		for i, id := range ids {
			out[id] = types[i]
		}
		return typesMsg{ticket: ticket, types: out, err: firstUnauthorized(errs)}
	}
	return common.StartTask(fmt.Sprintf("reading the types of %d connections", len(ids)), taskKind(asked), read)
}

// taskKind shows in the status line what the user asked for, and nothing
// of what the pane reads on its own.
func taskKind(asked bool) common.TaskKind {
	if asked {
		return common.Quick
	}
	return common.Quiet
}

// firstUnauthorized returns the first 401 among errs: the one failure of a
// quiet read worth reporting (the others show as "?" in the list).
func firstUnauthorized(errs []error) error {
	for _, err := range errs {
		if common.IsUnauthorized(err) {
			return err
		}
	}
	return nil
}

// forEach runs do(0) … do(n-1) on at most readers goroutines.
func forEach(n int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(readers, n) {
		wg.Go(func() {
			for i := range next {
				do(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (p *Pane) gotTypes(msg typesMsg) tea.Cmd {
	if !p.typeReads.Current(msg.ticket) {
		return nil
	}
	for id := range msg.types {
		delete(p.typesPending, id)
	}
	if p.list.setTypes(msg.types) {
		p.relist()
	}
	if msg.err != nil { // a 401: other failures show as "?" in the list
		return common.Fail("reading connection types", msg.err)
	}
	return nil
}

// details is one connection's representation, as the details view shows it.
type details struct {
	id     int64
	path   string
	reads  common.Requests
	conn   *model.Connection // nil until read
	err    error
	offset int
	// body is the connection rendered, drawn again only when the
	// connection, the pane's width or the styles (bodyStyles is their
	// Generation) change, never per frame.
	body       []string
	bodyStyles uint64
}

func (d *details) scroll(delta, height int) {
	d.offset = max(0, min(d.offset+delta, len(d.body)-height))
}

// renderDetails draws the open connection's body for the pane's width and
// keeps the scroll inside it.
func (p *Pane) renderDetails() {
	d := p.details
	if d == nil || d.conn == nil {
		return
	}
	d.body, d.bodyStyles = p.detailsBody(d.id, *d.conn), p.ctx.Styles.Generation()
	d.scroll(0, p.bodyHeight())
}

func (p *Pane) openDetails(e *entry) tea.Cmd {
	p.mode = modeDetails
	return p.readDetails(e.ID, e.Path)
}

func (p *Pane) readDetails(id int64, path string) tea.Cmd {
	client := p.ctx.Client
	p.details = &details{id: id, path: path}
	if client == nil {
		return nil
	}
	ticket := p.details.reads.Next()
	return common.StartTask("reading "+path, common.Quick, func(ctx context.Context) tea.Msg {
		conn, err := client.Connection(ctx, id)
		return detailsMsg{ticket: ticket, id: id, conn: conn, err: err}
	})
}

func (p *Pane) gotDetails(msg detailsMsg) tea.Cmd {
	d := p.details
	if d == nil || !d.reads.Current(msg.ticket) {
		return nil
	}
	if msg.err != nil {
		d.err = msg.err
		return common.Fail("reading "+d.path, msg.err)
	}
	d.conn = &msg.conn
	p.renderDetails()
	return nil
}

// openGraph shows a connection's graph: from the cache, or read afresh.
func (p *Pane) openGraph(id int64, path string) tea.Cmd {
	g, cached := p.graphs[id]
	if !cached {
		g = newGraph(id, path)
		p.graphs[id] = g
	}
	p.mode, p.graph, p.gcursor, p.goffset = modeGraph, g, 0, 0
	p.dropGraphLines()
	p.relayoutGraph()
	return p.readLevel(g)
}

// refreshGraph drops the cached graph on screen and reads it again.
func (p *Pane) refreshGraph() tea.Cmd {
	old := p.graph
	g := newGraph(old.connID, old.path)
	p.graphs[g.connID] = g
	p.graph = g
	p.dropGraphLines()
	p.relayoutGraph()
	return p.readLevel(g)
}

func (p *Pane) setLevel(level int) tea.Cmd {
	p.level = level
	p.relayoutGraph()
	return p.readLevel(p.graph)
}

// hasDependencyEndpoint reports whether the interface can tell a kind's
// dependencies; the others are leaves of the graph.
func hasDependencyEndpoint(k model.Kind) bool {
	switch k {
	case model.KindConnection, model.KindImportJob, model.KindDataLink, model.KindWorkbook,
		model.KindExportJob, model.KindInfographic:
		return true
	}
	return false
}

// levelRequest is what one dependency read needs, copied out of a node so
// that the task touches no model state.
type levelRequest struct {
	kind      model.Kind
	id        int64
	direction string
	root      bool
}

// readLevel reads the dependencies of the graph's next level, one level at
// a time: when it is in, gotLevel asks for the one below if the level
// control wants it.
func (p *Pane) readLevel(g *graph) tea.Cmd {
	client := p.ctx.Client
	if g == nil || g.reading || g.unsupported != nil || client == nil {
		return nil
	}
	var nodes []*node
	for _, n := range g.frontier(p.level) {
		if !hasDependencyEndpoint(n.kind) {
			n.state = common.Loaded
			continue
		}
		nodes = append(nodes, n)
	}
	if len(nodes) == 0 {
		return nil
	}
	reqs := make([]levelRequest, len(nodes))
	for i, n := range nodes {
		n.state = common.Loading
		reqs[i] = levelRequest{kind: n.kind, id: n.dep.ID, direction: n.direction, root: n.depth == 0}
	}
	g.reading = true
	connID, ticket := g.connID, g.reads.Latest()
	label := fmt.Sprintf("reading dependencies of %s (level %d)", g.path, nodes[0].depth+1)
	return common.StartTask(label, common.Quick, func(ctx context.Context) tea.Msg {
		deps := make([][]model.Dependency, len(reqs))
		errs := make([]error, len(reqs))
		forEach(len(reqs), func(i int) {
			r := reqs[i]
			deps[i], errs[i] = client.Dependencies(ctx, r.kind, r.id,
				api.DependencyQuery{Direction: r.direction, Level: 1})
			if r.root && r.kind == model.KindConnection && api.IsNotFound(errs[i]) {
				// The platform answers 404 without its plug-in, and for a
				// connection that is gone: its read tells the two apart.
				if _, err := client.Connection(ctx, r.id); api.IsNotFound(err) {
					errs[i] = goneError{errs[i]}
				}
			}
		})
		return levelMsg{connID: connID, ticket: ticket, nodes: nodes, deps: deps, errs: errs}
	})
}

func (p *Pane) gotLevel(msg levelMsg) tea.Cmd {
	g := p.graphs[msg.connID]
	if g == nil || !g.reads.Current(msg.ticket) {
		return nil
	}
	g.reading = false
	var failed error
	for i, n := range msg.nodes {
		err := msg.errs[i]
		switch {
		case err == nil:
			g.setDependencies(n, msg.deps[i])
		case n.depth == 0 && noDependencyEndpoint(err):
			g.unsupported = err
			n.state, n.err = common.LoadFailed, err
		default:
			n.state, n.err = common.LoadFailed, err
			if failed == nil {
				failed = err
			}
		}
	}
	if g == p.graph {
		p.relayoutGraph()
	}
	cmds := []tea.Cmd{p.readLevel(g)}
	if failed != nil {
		cmds = append(cmds, common.Fail("reading dependencies of "+g.path, failed))
	}
	return tea.Batch(cmds...)
}

// relayoutGraph flattens the graph on screen again, keeping the cursor on
// the same node.
func (p *Pane) relayoutGraph() {
	if p.graph == nil {
		p.lines = nil
		return
	}
	var keep *node
	if p.gcursor < len(p.lines) {
		keep = p.lines[p.gcursor].n
	}
	sym := p.symbols()
	p.lines = p.graph.flatten(p.level, guideSymbols{pipe: sym.Pipe, space: sym.Space})
	p.gcursor = max(0, min(p.gcursor, len(p.lines)-1))
	for i, l := range p.lines {
		if l.n == keep {
			p.gcursor = i
			break
		}
	}
	p.scrollGraph()
}

func (p *Pane) moveGraphCursor(delta int) {
	p.gcursor = max(0, min(p.gcursor+delta, len(p.lines)-1))
	p.scrollGraph()
}

func (p *Pane) scrollGraph() {
	p.goffset = common.ScrollOffset(p.gcursor, p.goffset, p.graphHeight(), len(p.lines))
}

// bodyHeight is the pane less its title line.
func (p *Pane) bodyHeight() int { return max(0, p.height-1) }

// graphHeight is the number of graph lines on screen: the pane less its
// title and legend.
func (p *Pane) graphHeight() int { return max(0, p.height-2) }

// unsupportedText explains a server with no dependency endpoint.
const unsupportedText = "This server offers no dependency endpoint (the platform needs its advanced governance plug-in for it)"
