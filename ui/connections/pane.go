package connections

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

// mode is what the pane shows: the list, one connection's details, or one
// connection's dependency graph.
type mode int

const (
	modeList mode = iota
	modeDetails
	modeGraph
)

// maxLevel is the deepest numbered level; one more step shows all levels.
const maxLevel = 9

// Pane is the connections pane.
type Pane struct {
	ctx           *common.Context
	width, height int
	mode          mode

	list           list
	cursor, offset int
	listReads      common.Requests
	listLoaded     bool
	listErr        error
	filter         common.FilterField

	// types of connections being read, so a scroll does not ask twice;
	// the reads of one list's types share a ticket, and a new list drops
	// their answers.
	typesPending map[int64]bool
	typeReads    common.Requests

	// nodeCache keeps the rendering of graph lines, dropped with the graph.
	nodeCache map[*node]renderedNode

	details *details

	graphs  map[int64]*graph // cached per connection until refreshed
	graph   *graph           // the one on screen
	level   int              // 1…maxLevel, 0 for all
	lines   []line
	gcursor int
	goffset int
}

// New returns the connections pane.
func New(ctx *common.Context) *Pane {
	return &Pane{ctx: ctx, filter: common.NewFilterField(ctx, "filter name, type, path, description"), level: 1, typesPending: map[int64]bool{}, graphs: map[int64]*graph{},
		nodeCache: map[*node]renderedNode{}}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Connections" }

// Init implements common.Pane: read the list without a spinner, so the
// pane is ready when the user comes to it.
func (p *Pane) Init() tea.Cmd { return p.readList(0, false) }

// SetSize implements common.Pane.
func (p *Pane) SetSize(width, height int) {
	p.width, p.height = width, height
	p.filter.SetWidth(width)
	p.scrollList()
	p.scrollGraph()
	p.renderDetails()
}

// CapturingInput implements common.InputCapturer.
func (p *Pane) CapturingInput() bool { return p.filter.Active() }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	for _, route := range []func(tea.Msg) (tea.Cmd, bool){p.routeReads, p.routeWrites} {
		if cmd, ok := route(msg); ok {
			return p, cmd
		}
	}
	return p, nil
}

// routeReads takes the keys, the list and what the views read, a login, a watch tick and the server back.
func (p *Pane) routeReads(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.handleKey(msg), true
	case listMsg:
		return p.gotList(msg), true
	case typesMsg:
		return p.gotTypes(msg), true
	case detailsMsg:
		return p.gotDetails(msg), true
	case levelMsg:
		return p.gotLevel(msg), true
	case common.OpenConnectionMsg:
		return p.openConnection(msg), true
	case common.LoggedInMsg:
		p.reset()
		return p.readList(0, false), true
	case common.ServerBackMsg:
		if p.listErr != nil {
			return p.readList(0, false), true
		}
		return nil, true
	case common.WatchTickMsg:
		// The list is read again quietly; the selection and the filter stay.
		return p.readList(0, false), true
	}
	return nil, false
}

// routeWrites takes edits, creations and deletions, asked and answered.
func (p *Pane) routeWrites(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case editLoadedMsg:
		return p.gotEditLoaded(msg), true
	case editedMsg:
		return p.gotEdited(msg), true
	case editAgainMsg:
		return openEditor(msg.id, msg.path, msg.body, msg.problem), true
	case savedMsg:
		return p.gotSaved(msg), true
	case newKindMsg:
		return common.OpenDialog(newConnectionForm(p.ctx, msg.kind)), true
	case createMsg:
		return p.create(msg), true
	case createdMsg:
		return p.gotCreated(msg), true
	case deleteCheckMsg:
		return p.gotDeleteCheck(msg), true
	case deleteMsg:
		return p.delete(msg), true
	case deletedMsg:
		return p.gotDeleted(msg), true
	case common.DeleteFileMsg:
		if msg.Kind == model.KindConnection {
			return p.checkDelete(msg.ID, msg.Path), true
		}
		return nil, true
	}
	return nil, false
}

// reset forgets everything read under the previous session; how the list
// is filtered and sorted stays, as the filter field still shows it.
func (p *Pane) reset() {
	p.list = list{filter: p.list.filter, sortBy: p.list.sortBy, descending: p.list.descending, hideSystem: p.list.hideSystem}
	p.cursor, p.offset, p.listLoaded, p.listErr = 0, 0, false, nil
	p.typesPending = map[int64]bool{}
	p.listReads.Reset()
	p.typeReads.Reset()
	p.mode, p.details, p.graph, p.lines = modeList, nil, nil, nil
	p.graphs = map[int64]*graph{}
	p.dropGraphLines()
}

// dropGraphLines forgets the graph lines as drawn, whose nodes a new graph
// leaves behind. New styles need no call: the caches key on them.
func (p *Pane) dropGraphLines() {
	p.nodeCache = map[*node]renderedNode{}
}

// selected returns the connection under the list's cursor.
func (p *Pane) selected() *entry {
	if p.cursor >= 0 && p.cursor < len(p.list.rows) {
		return p.list.rows[p.cursor]
	}
	return nil
}

// current returns the connection the pane is about: the one whose details
// or graph is open, else the one under the cursor.
func (p *Pane) current() (id int64, path string, ok bool) {
	switch {
	case p.mode == modeDetails && p.details != nil:
		return p.details.id, p.details.path, true
	case p.mode == modeGraph && p.graph != nil:
		return p.graph.connID, p.graph.path, true
	}
	if e := p.selected(); e != nil {
		return e.ID, e.Path, true
	}
	return 0, "", false
}

func (p *Pane) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	action, cmd := p.filter.Update(msg, p.ctx.Keys)
	switch action {
	case common.FilterEdited:
		p.setFilter(p.filter.Value())
	case common.FilterCleared:
		p.setFilter("")
	case common.FilterKept:
		return nil
	case common.FilterLeft:
		return p.handleKey(msg)
	}
	return tea.Batch(cmd, p.readVisibleTypes())
}

func (p *Pane) setFilter(text string) {
	if text == "" {
		p.filter.Clear()
	}
	p.list.filter = text
	p.relist()
}

// relist rebuilds the rows and keeps the cursor on the same connection.
func (p *Pane) relist() tea.Cmd {
	var keep int64
	if e := p.selected(); e != nil {
		keep = e.ID
	}
	p.list.rebuild()
	p.keepCursorOn(keep)
	return p.readVisibleTypes()
}

// openConnection selects a connection another pane pointed at (its row in
// the folder tree), back in the list; a filter or the hidden system
// connections that keep it off the list are said, not undone.
func (p *Pane) openConnection(msg common.OpenConnectionMsg) tea.Cmd {
	p.mode = modeList
	if i := p.list.indexOf(msg.ConfigID, p.cursor); i >= 0 {
		p.cursor = i
		p.scrollList()
		return p.readVisibleTypes()
	}
	return common.Info(msg.Path + " is not in the list as shown (a filter, hidden system connections, or not read yet: r)")
}

func (p *Pane) keepCursorOn(id int64) {
	if i := p.list.indexOf(id, p.cursor); i >= 0 {
		p.cursor = i
	}
	p.cursor = max(0, min(p.cursor, len(p.list.rows)-1))
	p.scrollList()
}

func (p *Pane) moveCursor(delta int) tea.Cmd {
	p.cursor = max(0, min(p.cursor+delta, len(p.list.rows)-1))
	p.scrollList()
	return p.readVisibleTypes()
}

// scrollList keeps the cursor inside the window of rows on screen.
func (p *Pane) scrollList() {
	p.offset = common.ScrollOffset(p.cursor, p.offset, p.listHeight(), len(p.list.rows))
}

// listHeight is the number of list rows on screen: the pane less its
// title, the column heads and the filter line.
func (p *Pane) listHeight() int {
	h := p.height - 2
	if p.filter.Active() || p.list.filter != "" {
		h--
	}
	return max(0, h)
}

// visibleRows returns the rows on screen.
func (p *Pane) visibleRows() []*entry {
	end := min(len(p.list.rows), p.offset+p.listHeight())
	if p.offset >= end {
		return nil
	}
	return p.list.rows[p.offset:end]
}

// deeper and shallower step the level control: 1 … maxLevel, then all.
func (p *Pane) deeper() int {
	if p.level == 0 || p.level >= maxLevel {
		return 0
	}
	return p.level + 1
}

func (p *Pane) shallower() int {
	if p.level == 0 {
		deepest := 1
		if p.graph != nil {
			deepest = p.graph.deepest()
		}
		return max(1, min(maxLevel, deepest-1))
	}
	return max(1, p.level-1)
}

// openWhereItLives shows a node of the graph where it lives: a job in the
// job dashboard, anything else in its folder of the tree.
func openWhereItLives(n *node) tea.Cmd {
	f := n.dep.File
	if n.depth > 0 && n.kind.Runnable() {
		job := common.OpenJobMsg{ConfigID: n.dep.ID, UUID: f.UUID, Path: f.Path}
		return tea.Sequence(
			func() tea.Msg { return common.FocusPaneMsg{Pane: common.JobsPane} },
			func() tea.Msg { return job })
	}
	return func() tea.Msg { return common.GotoPathMsg{Path: parentFolder(f.Path)} }
}

// parentFolder returns the folder a file path lies in.
func parentFolder(path string) string {
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == '/' {
			return path[:i]
		}
	}
	return "/"
}

// kindSymbol returns a kind's symbol in the graph: the tree's glyph.
func kindSymbol(sym theme.GraphSymbols, k model.Kind) string { return sym.Kind(string(k)) }
