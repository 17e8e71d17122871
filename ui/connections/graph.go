package connections

import (
	"cmp"
	"slices"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// node is one file of a dependency graph. A file reached a second time
// (two workbooks reading the same import job) becomes a node with repeat
// set: drawn, marked, never expanded, so a cycle cannot loop.
type node struct {
	dep       model.Dependency
	kind      model.Kind
	direction string // model.DirectionDownstream or model.DirectionUpstream
	depth     int    // 1 for a direct dependency of the connection
	children  []*node
	state     common.LoadState
	repeat    bool
	err       error
}

// key identifies a file across the graph.
func (n *node) key() string {
	if n.dep.File.UUID != "" {
		return n.dep.File.UUID
	}
	return n.dep.File.Path
}

// kindOf tells a dependency's kind: the embedded server names it in
// file.type; the real platform's type names do not, so the extension does.
func kindOf(d model.Dependency) model.Kind {
	k := model.Kind(d.File.Type)
	if k.Extension() != "" {
		return k
	}
	if byPath, ok := model.KindOfPath(d.File.Path); ok {
		return byPath
	}
	return k
}

// kindOrder sorts siblings: jobs before what reads them.
var kindOrder = map[model.Kind]int{
	model.KindConnection: 0, model.KindImportJob: 1, model.KindDataLink: 2, model.KindFileUpload: 3,
	model.KindWorkbook: 4, model.KindExportJob: 5, model.KindInfographic: 6,
}

// graph is the dependency graph of one connection, read level by level
// and kept (per connection) until refreshed.
type graph struct {
	connID int64
	path   string
	// reads tags the level reads of this graph; an answer for a graph a
	// refresh replaced carries another's ticket and is dropped.
	reads common.Requests
	// roots are the two sections: downstream then upstream.
	down, up *node
	seen     map[string]*node // the node drawn in full, per direction and file
	// unsupported holds the error when the server has no dependency endpoint.
	unsupported error
	// reading is set while a level's reads are under way: one at a time.
	reading bool
}

func newGraph(connID int64, path string) *graph {
	conn := model.Dependency{ID: connID, File: model.DependencyFile{Path: path, Type: string(model.KindConnection)}}
	g := &graph{
		connID: connID, path: path,
		down: &node{dep: conn, kind: model.KindConnection, direction: model.DirectionDownstream},
		up:   &node{dep: conn, kind: model.KindConnection, direction: model.DirectionUpstream},
		seen: map[string]*node{},
	}
	g.reads.Next()
	return g
}

// frontier returns the nodes whose dependencies are needed to show the
// graph to level (0 for all) and are neither read nor being read.
func (g *graph) frontier(level int) []*node {
	var out []*node
	var walk func(n *node)
	walk = func(n *node) {
		if level > 0 && n.depth >= level {
			return
		}
		if n.state == common.NotLoaded && !n.repeat {
			out = append(out, n)
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(g.down)
	walk(g.up)
	return out
}

// setDependencies installs what a node depends on (or what depends on it),
// marking files already reached elsewhere in the same direction. Nodes of
// one level arrive together, in display order, so the first reach of a
// file is the one nearest the connection.
func (g *graph) setDependencies(n *node, deps []model.Dependency) {
	children := make([]*node, 0, len(deps))
	for _, d := range deps {
		if d.ID == g.connID && kindOf(d) == model.KindConnection {
			continue // the connection itself, reached round a cycle
		}
		children = append(children, &node{dep: d, kind: kindOf(d), direction: n.direction, depth: n.depth + 1})
	}
	slices.SortStableFunc(children, func(a, b *node) int {
		if c := cmp.Compare(kindOrder[a.kind], kindOrder[b.kind]); c != 0 {
			return c
		}
		return cmp.Compare(a.dep.File.Path, b.dep.File.Path)
	})
	for _, c := range children {
		k := c.direction + "\x00" + c.key()
		if _, ok := g.seen[k]; ok {
			c.repeat = true
		} else {
			g.seen[k] = c
		}
	}
	n.children = children
	n.state = common.Loaded
}

// deepest returns the largest depth of a node in the graph.
func (g *graph) deepest() int {
	d := 0
	var walk func(n *node)
	walk = func(n *node) {
		d = max(d, n.depth)
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(g.down)
	walk(g.up)
	return d
}

// line is one line of the drawn graph: a section heading (n is a section
// root) or a node with the guides before it.
type line struct {
	n      *node
	guides string
	last   bool
}

// flatten lists the lines of the graph down to level (0 for all).
func (g *graph) flatten(level int, sym guideSymbols) []line {
	var out []line
	var walk func(n *node, guides string)
	walk = func(n *node, guides string) {
		if level > 0 && n.depth >= level {
			return
		}
		for i, c := range n.children {
			last := i == len(n.children)-1
			out = append(out, line{n: c, guides: guides, last: last})
			next := guides + sym.pipe
			if last {
				next = guides + sym.space
			}
			if !c.repeat {
				walk(c, next)
			}
		}
	}
	out = append(out, line{n: g.down})
	walk(g.down, "")
	out = append(out, line{n: g.up})
	walk(g.up, "")
	return out
}

type guideSymbols struct{ pipe, space string }
