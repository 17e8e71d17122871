package connections

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

func (p *Pane) symbols() theme.GraphSymbols { return theme.Graph() }

// View implements common.Pane.
func (p *Pane) View() string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	var lines []string
	switch p.mode {
	case modeDetails:
		lines = p.detailsView()
	case modeGraph:
		lines = p.graphView()
	default:
		lines = p.listView()
	}
	if len(lines) > p.height {
		lines = lines[:p.height]
	}
	return strings.Join(lines, "\n")
}

// columns are the widths of the list's columns for the pane's width.
type columns struct{ name, typ, path, desc int }

// prefixWidth is the cursor and the hidden-connection mark before a row.
const prefixWidth = 4

func (p *Pane) columns() columns {
	avail := max(0, p.width-prefixWidth-3) // three column gaps
	c := columns{name: avail * 22 / 100, typ: avail * 14 / 100, path: avail * 34 / 100}
	c.desc = max(0, avail-c.name-c.typ-c.path)
	return c
}

func (p *Pane) listView() []string {
	st := p.ctx.Styles
	sym := p.symbols()
	lines := make([]string, 0, p.height)
	lines = append(lines, p.listTitle())
	count := common.MatchCount(len(p.list.rows), len(p.list.all))
	if p.filter.Active() {
		lines = append(lines, p.filter.ViewCount(count))
	} else if p.list.filter != "" {
		lines = append(lines, st.Label.Render(ansi.Truncate(p.filter.Line(p.list.filter, count), p.width, "…")))
	}
	c := p.columns()
	head := make([]string, columnCount)
	for i, name := range []string{"NAME", "TYPE", "PATH", "DESCRIPTION"} {
		if column(i) == p.list.sortBy {
			arrow := sym.SortUp
			if p.list.descending {
				arrow = sym.SortDown
			}
			name += " " + arrow
		}
		head[i] = name
	}
	lines = append(lines, st.Label.Render(ansi.Truncate(strings.Repeat(" ", prefixWidth)+cells(c, head[0], head[1], head[2], head[3]), p.width, "")))
	switch {
	case !p.listLoaded && p.listErr != nil:
		lines = append(lines, st.Empty.Render("could not read the connections (r reads again)"))
	case !p.listLoaded:
		lines = append(lines, st.Empty.Render(strings.TrimSpace(p.ctx.Spinner+" reading the connections…")))
	case len(p.list.rows) == 0 && p.list.filter != "":
		lines = append(lines, st.Empty.Render("no connection matches"))
	case len(p.list.rows) == 0:
		lines = append(lines, st.Empty.Render("no connections"))
	}
	for i, e := range p.visibleRows() {
		lines = append(lines, p.cachedRow(e, c, p.offset+i == p.cursor, sym))
	}
	return lines
}

// listTitle counts what is shown and says how it is sorted.
func (p *Pane) listTitle() string {
	st := p.ctx.Styles
	sym := p.symbols()
	l := &p.list
	text := fmt.Sprintf("%d of %d", len(l.rows), len(l.all))
	if l.systemN > 0 {
		if l.hideSystem {
			text += fmt.Sprintf(" · %d system hidden (. shows)", l.systemN)
		} else {
			text += fmt.Sprintf(" · %s %d system (. hides)", sym.Hidden, l.systemN)
		}
	}
	text += " · sorted by " + l.sortBy.String()
	if l.sortBy == colType && len(p.typesPending) > 0 {
		text += " (types still being read)"
	}
	return st.PaneTitle.Render("Connections") + " " + st.Label.Render(ansi.Truncate(text, max(0, p.width-12), "…"))
}

// renderedRow is a row as last drawn, with what it depended on.
type renderedRow struct {
	key  rowKey
	text string
}

type rowKey struct {
	version, width int
	selected       bool
	styles         uint64 // the Generation of the styles it was drawn with
}

// cachedRow returns a row's rendering, drawn again only when the width,
// the cursor, the styles or the connection changed: a redraw of an
// unchanged screen, or after a refresh that changed other rows, renders
// nothing anew.
func (p *Pane) cachedRow(e *entry, c columns, selected bool, sym theme.GraphSymbols) string {
	key := rowKey{version: e.version, width: p.width, selected: selected, styles: p.ctx.Styles.Generation()}
	if r := e.rendered; r.text != "" && r.key == key {
		return r.text
	}
	e.rendered = renderedRow{key: key, text: p.row(e, c, selected, sym)}
	return e.rendered.text
}

// row renders one connection. A hidden system connection is dimmed and
// carries a mark, so it does not rest on colour alone.
func (p *Pane) row(e *entry, c columns, selected bool, sym theme.GraphSymbols) string {
	st := p.ctx.Styles
	cursor, mark := "  ", "  "
	if selected {
		cursor = st.Symbols.Cursor + " "
	}
	if e.system {
		mark = sym.Hidden + " "
	}
	typ := e.typ
	if typ == "" {
		typ = "…"
	}
	text := ansi.Truncate(cursor+mark+cells(c, e.Name, typ, e.Path, e.Description), p.width, "…")
	switch {
	case selected:
		return st.SelectedRow.Render(common.PadRight(text, p.width))
	case e.system:
		return st.DimRow.Render(text)
	}
	return st.Row.Render(text)
}

// cells lays four values from the server out in the columns, each cleaned
// for the terminal and cut to fit.
func cells(c columns, name, typ, path, desc string) string {
	return cleanCell(name, c.name) + " " + cleanCell(typ, c.typ) + " " + cleanCell(path, c.path) + " " + ansi.Truncate(common.Clean(desc), c.desc, "…")
}

func cleanCell(s string, w int) string { return common.AlignLeft(common.Clean(s), w) }

func (p *Pane) detailsView() []string {
	st := p.ctx.Styles
	d := p.details
	lines := []string{st.PaneTitle.Render("Details") + " " + st.Label.Render(ansi.Truncate(common.Clean(d.path), max(0, p.width-8), "…"))}
	switch {
	case d.conn == nil && d.err != nil:
		return append(lines, st.Empty.Render("could not read it (r reads again)"))
	case d.conn == nil:
		return append(lines, st.Empty.Render(strings.TrimSpace(p.ctx.Spinner+" reading…")))
	}
	if d.bodyStyles != st.Generation() {
		p.renderDetails()
	}
	end := min(len(d.body), d.offset+p.bodyHeight())
	return append(lines, d.body[d.offset:end]...)
}

// detailsBody lists the connection's fields and properties. Secret
// properties show a fixed mask, whatever their value or length.
func (p *Pane) detailsBody(id int64, c model.Connection) []string {
	st := p.ctx.Styles
	sym := p.symbols()
	type pair struct{ k, v string }
	fields := []pair{
		{"name", c.File.Name}, {"path", c.File.Path}, {"id", strconv.FormatInt(id, 10)}, {"description", c.File.Description},
		{"type", typeName(c) + " (" + c.TypeID + ")"}, {"class", c.ClassName},
		{"version", c.Version}, {"uuid", c.File.UUID},
	}
	keys := make([]string, 0, len(c.Properties))
	for k := range c.Properties {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	labelW := len("description")
	for _, k := range keys {
		labelW = max(labelW, ansi.StringWidth(k)+2)
	}
	render := func(label, value string) string {
		return ansi.Truncate(st.Label.Render(common.PadRight(common.Clean(label), labelW))+" "+st.Value.Render(common.Clean(value)), p.width, "…")
	}
	out := make([]string, 0, len(fields)+len(keys)+2)
	for _, f := range fields {
		out = append(out, render(f.k, f.v))
	}
	out = append(out, "", st.PaneTitle.Render("properties"))
	if len(keys) == 0 {
		out = append(out, st.Empty.Render("  none"))
	}
	for _, k := range keys {
		value := strings.Join(c.Properties[k], ", ")
		if model.IsSecretProperty(k) {
			value = sym.Masked + " (secret, masked)"
		}
		out = append(out, render("  "+k, value))
	}
	return out
}

func (p *Pane) graphView() []string {
	st := p.ctx.Styles
	sym := p.symbols()
	g := p.graph
	level := "all levels"
	if p.level > 0 {
		level = fmt.Sprintf("level %d", p.level)
	}
	title := st.PaneTitle.Render("Dependencies") + " " +
		st.Label.Render(ansi.Truncate(common.Clean(g.path)+" · "+level+" (>/< deeper/shallower, r refreshes)", max(0, p.width-13), "…"))
	legend := fmt.Sprintf("%s connection %s import job %s data link %s upload %s workbook %s export %s infographic %s drawn elsewhere",
		sym.Kind(string(model.KindConnection)), sym.Kind(string(model.KindImportJob)), sym.Kind(string(model.KindDataLink)),
		sym.Kind(string(model.KindFileUpload)), sym.Kind(string(model.KindWorkbook)), sym.Kind(string(model.KindExportJob)), sym.Kind(string(model.KindInfographic)), sym.Repeat)
	lines := []string{title, st.Label.Render(ansi.Truncate(legend, p.width, "…"))}
	if g.unsupported != nil {
		msg := fmt.Sprintf("%s %s. The server answered: %s. The list, details, edit, new and delete work without it.",
			st.Symbols.Error, unsupportedText, statusOf(g.unsupported))
		return append(lines, st.StatusError.Width(p.width).Render(msg))
	}
	end := min(len(p.lines), p.goffset+p.graphHeight())
	for i := p.goffset; i < end; i++ {
		lines = append(lines, p.cachedGraphLine(p.lines[i], i == p.gcursor, sym))
	}
	return lines
}

// renderedNode is a graph line as last drawn, with what it depended on.
type renderedNode struct {
	key  nodeKey
	text string
}

type nodeKey struct {
	width     int
	selected  bool
	state     common.LoadState
	childrenN int
	styles    uint64 // the Generation of the styles it was drawn with
}

// cachedGraphLine returns a graph line's rendering, drawn again only when
// something on it changed; a node being read (its spinner turns) is always
// drawn afresh.
func (p *Pane) cachedGraphLine(l line, selected bool, sym theme.GraphSymbols) string {
	n := l.n
	key := nodeKey{width: p.width, selected: selected, state: n.state, childrenN: len(n.children), styles: p.ctx.Styles.Generation()}
	if r, ok := p.nodeCache[n]; ok && n.state != common.Loading && r.key == key {
		return r.text
	}
	text := p.graphLine(l, selected, sym)
	p.nodeCache[n] = renderedNode{key: key, text: text}
	return text
}

// graphLine renders one line of the graph: a section heading or a node.
func (p *Pane) graphLine(l line, selected bool, sym theme.GraphSymbols) string {
	st := p.ctx.Styles
	n := l.n
	var text string
	if n.depth == 0 {
		heading := sym.Downstream + " downstream — what reads from it"
		if n.direction == model.DirectionUpstream {
			heading = sym.Upstream + " upstream — what it reads from"
		}
		text = heading + p.stateNote(n, true)
	} else {
		branch := sym.Branch
		if l.last {
			branch = sym.Last
		}
		text = l.guides + branch + kindSymbol(sym, n.kind) + " " + common.Clean(n.dep.File.Path)
		if n.repeat {
			text += " " + sym.Repeat
		}
		text += p.stateNote(n, false)
	}
	cursor := "  "
	if selected {
		cursor = st.Symbols.Cursor + " "
	}
	text = ansi.Truncate(cursor+text, p.width, "…")
	switch {
	case selected:
		return st.SelectedRow.Render(common.PadRight(text, p.width))
	case n.depth == 0:
		return st.PaneTitle.Render(text)
	case n.repeat:
		return st.DimRow.Render(text)
	}
	return st.Row.Render(text)
}

// stateNote says what is known of a node's dependencies, when that is not
// simply its children drawn below.
func (p *Pane) stateNote(n *node, heading bool) string {
	switch n.state {
	case common.Loading:
		return " " + strings.TrimSpace(p.ctx.Spinner+" reading…")
	case common.LoadFailed:
		return " " + p.ctx.Styles.Symbols.Error + " " + common.Clean(errorReason(n.err))
	case common.Loaded:
		if heading {
			if len(n.children) == 0 {
				return ": none"
			}
			return fmt.Sprintf(" (%d)", len(n.children))
		}
	}
	return ""
}

// statusOf names the HTTP status of a failure.
func statusOf(err error) string {
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Status != 0 {
		return fmt.Sprintf("%d %s", apiErr.Status, http.StatusText(apiErr.Status))
	}
	return err.Error()
}

// errorReason is the server's status and reason for a failure; when no
// answer came, what went wrong instead (a status of 0 says nothing).
func errorReason(err error) string {
	var apiErr *api.Error
	switch {
	case !errors.As(err, &apiErr):
		return err.Error()
	case apiErr.Status == 0 && apiErr.Reason != "":
		return apiErr.Reason
	case apiErr.Status == 0:
		return err.Error()
	case apiErr.Reason != "":
		return statusOf(err) + ", " + apiErr.Reason
	}
	return statusOf(err)
}
