package folders

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// rowCache keeps each row's rendering until the node, the width, the
// cursor or the styles change, so a redraw of an unchanged screen renders
// nothing anew.
type rowCache struct {
	entries map[*node]cachedRow
}

type cachedRow struct {
	key  rowKey
	text string
}

// rowKey is what a row's rendering depends on besides the node's name.
type rowKey struct {
	version  int
	width    int
	selected bool
	styles   uint64 // the Generation of the styles it was drawn with
	// filesGen is the file index the row was drawn under: a folder not
	// read again still says whether it opens by the newest index.
	filesGen int
}

func newRowCache() rowCache { return rowCache{entries: map[*node]cachedRow{}} }

// frame is the last screen View drew, valid within one generation of the
// pane while the shared spinner shows the same frame and the styles are
// the same.
type frame struct {
	gen     int
	spinner string
	styles  uint64
	text    string
}

// crumbsCache is the last breadcrumbs line and what it depends on.
type crumbsCache struct {
	key  crumbsKey
	text string
}

type crumbsKey struct {
	node         *node
	version      int
	shape, width int
	marked       int
	styles       uint64
}

// View implements common.Pane: breadcrumbs, the filter when one is set,
// the rows on screen, and the permissions beside or over them.
func (p *Pane) View() string {
	f := frame{gen: p.gen, spinner: p.ctx.Spinner, styles: p.ctx.Styles.Generation()}
	if p.frame.text != "" && p.frame.gen == f.gen && p.frame.spinner == f.spinner && p.frame.styles == f.styles {
		return p.frame.text
	}
	f.text = p.render()
	p.frame = f
	return f.text
}

func (p *Pane) render() string {
	if p.perms != nil && p.narrow() {
		return p.perms.view()
	}
	left := p.treeView(p.treeWidth())
	if p.perms == nil {
		return left
	}
	st := p.ctx.Styles
	sep := st.TreeGuide.Render(strings.TrimSuffix(strings.Repeat("│\n", p.height), "\n"))
	left = lipgloss.NewStyle().Width(p.treeWidth()).Render(left)
	return lipgloss.JoinHorizontal(lipgloss.Top, left, sep, p.perms.view())
}

func (p *Pane) treeView(width int) string {
	st := p.ctx.Styles
	lines := make([]string, 0, p.height)
	lines = append(lines, p.breadcrumbs(width))
	count := fmt.Sprintf("%d matches among the folders read", p.tree.matches)
	if p.tree.matches == 1 {
		count = "1 match among the folders read"
	}
	if p.filter.Active() {
		lines = append(lines, p.filter.ViewCount(count))
	} else if p.tree.filter != "" {
		lines = append(lines, st.Label.Render(ansi.Truncate(p.filter.Line(p.tree.filter, count), width, "…")))
	}
	switch {
	case p.tree.root == nil && p.ctx.Client == nil:
		lines = append(lines, st.Empty.Render("not logged in"))
	case p.tree.root == nil && p.reading(0):
		lines = append(lines, st.Empty.Render(p.ctx.Spinner+" reading the root folder…"))
	case p.tree.root == nil:
		lines = append(lines, st.Empty.Render("no folders read (r reads again)"))
	case len(p.tree.rows) <= 1 && p.tree.filter != "":
		lines = append(lines, p.row(p.tree.rows[0], width, p.cursor == 0), st.Empty.Render("no folder read so far matches"))
	default:
		end := min(len(p.tree.rows), p.offset+p.listHeight())
		for i := p.offset; i < end; i++ {
			lines = append(lines, p.row(p.tree.rows[i], width, i == p.cursor))
		}
	}
	return strings.Join(lines, "\n")
}

// breadcrumbs names the path of the selected folder, cut from the left
// when it does not fit, and the number of marked folders.
func (p *Pane) breadcrumbs(width int) string {
	n := p.selected()
	if n == nil {
		return p.ctx.Styles.Breadcrumb.Render("/")
	}
	key := crumbsKey{node: n, version: n.version, shape: p.tree.shape, width: width, marked: p.tree.markedCount, styles: p.ctx.Styles.Generation()}
	if p.crumbs.text != "" && p.crumbs.key == key {
		return p.crumbs.text
	}
	p.crumbs = crumbsCache{key: key, text: p.renderBreadcrumbs(n, width)}
	return p.crumbs.text
}

func (p *Pane) renderBreadcrumbs(n *node, width int) string {
	st := p.ctx.Styles
	crumbs := n.crumbs()
	parts := make([]string, len(crumbs))
	for i, c := range crumbs {
		c = common.Clean(c)
		if i == len(crumbs)-1 {
			parts[i] = st.BreadcrumbCurrent.Render(c)
		} else {
			parts[i] = st.Breadcrumb.Render(c)
		}
	}
	line := strings.Join(parts, st.Breadcrumb.Render(st.Symbols.Crumb))
	if marked := p.tree.markedCount; marked > 0 {
		line += st.MarkedRow.Render(" · " + common.Plural(marked, "marked file") + " (b backs them up, esc unmarks)")
	}
	if ansi.StringWidth(line) > width {
		line = ansi.TruncateLeft(line, ansi.StringWidth(line)-width+1, "…")
	}
	return line
}

// row renders one folder, from the cache when nothing about it changed.
// Loading rows carry the spinner and are drawn fresh each time.
func (p *Pane) row(n *node, width int, selected bool) string {
	key := rowKey{version: n.version, width: width, selected: selected, styles: p.ctx.Styles.Generation(), filesGen: p.filesGen}
	if n.state != common.Loading {
		if c, ok := p.rows.entries[n]; ok && c.key == key {
			return c.text
		}
	}
	text := p.renderRow(n, width, selected)
	if n.state != common.Loading {
		p.rows.entries[n] = cachedRow{key: key, text: text}
	}
	return text
}

func (p *Pane) renderRow(n *node, width int, selected bool) string {
	if n.isFile() {
		return p.renderFileRow(n, width, selected)
	}
	name := common.Clean(n.name)
	if n.parent != nil {
		name += "/"
	}
	text := p.rowPrefix(n, selected) + p.folderIcon(n) + " " + name
	text = withColumns(text, rowColumns(p.ctx.Styles.Symbols.Kinds[string(model.KindFolder)], fmt.Sprintf("id %d", n.id), ""), width)
	return p.styleRow(n, text, width, selected)
}

// folderIcon says a folder's state: loading, failed, empty, open, closed.
func (p *Pane) folderIcon(n *node) string {
	sym := p.ctx.Styles.Symbols
	switch {
	case n.state == common.Loading && p.ctx.Spinner != "":
		return p.ctx.Spinner
	case n.state == common.Loading:
		return "…"
	case n.state == common.LoadFailed:
		return sym.Error
	case n.state == common.Loaded && len(n.children) == 0 && len(n.files) == 0 && (p.ctx.FileIndex == nil || n.filesGen == p.filesGen):
		return sym.Leaf
	case n.expanded:
		return sym.Expanded
	}
	return sym.Collapsed
}

// rowPrefix is what starts every row: the cursor, the mark, the indent.
func (p *Pane) rowPrefix(n *node, selected bool) string {
	sym := p.ctx.Styles.Symbols
	cursor, mark := "  ", "  "
	if selected {
		cursor = sym.Cursor + " "
	}
	if n.marked {
		mark = sym.Marked + " "
	}
	return cursor + mark + strings.Repeat("  ", n.depth)
}

// styleRow draws a row's text as selected, marked, hidden (a folder
// whose name starts with a dot) or plain.
func (p *Pane) styleRow(n *node, text string, width int, selected bool) string {
	st := p.ctx.Styles
	switch {
	case selected:
		return st.SelectedRow.Render(common.PadRight(text, width))
	case n.marked:
		return st.MarkedRow.Render(text)
	case !n.isFile() && strings.HasPrefix(n.name, "."):
		return st.DimRow.Render(text)
	}
	return st.Row.Render(text)
}

// renderFileRow draws a file under its folder: name, then its kind as a
// glyph and a word, its configuration id and, for a job, its last state.
func (p *Pane) renderFileRow(n *node, width int, selected bool) string {
	sym := p.ctx.Styles.Symbols
	kind := sym.Kinds[string(n.file.Kind)]
	if kind == "" {
		kind = string(n.file.Kind)
	}
	state := ""
	if n.file.Kind.Runnable() {
		state = jobStateText(n.jobState)
	}
	text := withColumns(p.rowPrefix(n, selected)+"  "+common.Clean(n.name), rowColumns(kind, "conf "+configID(n), state), width)
	return p.styleRow(n, text, width, selected)
}

// rowColumns are the columns right of a row's name, the same widths on
// folder and file rows: kind, id, and a job's last state. A folder shows
// its file id, a file its configuration id marked "conf": a REF (:seq,
// the CLI) reads a bare number as a file id, another file's.
func rowColumns(kind, id, state string) string {
	return fmt.Sprintf("%-14s %10s  %-23s", kind, id, state)
}

// jobStateText is a job's last state as its row shows it.
func jobStateText(s model.JobState) string {
	switch s {
	case "":
		return "…"
	case model.StateNone:
		return "never run"
	}
	return common.Clean(string(s))
}

// withColumns puts columns at the right of a row of the given width, the
// name cut short to make room; on a narrow pane the columns go first.
func withColumns(left, columns string, width int) string {
	const minName = 24
	columns = "  " + columns
	cw := ansi.StringWidth(columns)
	if width-cw < minName {
		return ansi.Truncate(left, width, "…")
	}
	left = ansi.Truncate(left, width-cw, "…")
	return common.PadRight(left, width-cw) + columns
}
