package folders

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// node is one folder of the tree as far as the console has read it, or one
// file (file set) shown under its folder's sub-folders.
type node struct {
	id       int64
	name     string
	parent   *node
	depth    int
	children []*node
	state    common.LoadState
	expanded bool
	marked   bool
	// version changes whenever anything drawn on the node's row changes,
	// which invalidates its cached rendering.
	version int

	// files are a folder's files from the file index, by name, as of the
	// index the pane counted filesGen (folders out of sight catch up when
	// they are opened).
	files    []*node
	filesGen int
	// file is what the per-kind list said of a file row; nil on folders.
	file *common.FileEntry
	// jobState is a job's last state, "" until read; stateAsked is set
	// while a read of it is under way or done.
	jobState   model.JobState
	stateAsked bool
}

// isFile reports whether the row is a file, not a folder.
func (n *node) isFile() bool { return n.file != nil }

func (n *node) touch() { n.version++ }

// path returns the folder's path from the root, "/" for the root.
func (n *node) path() string {
	if n.parent == nil {
		return "/"
	}
	var segs []string
	for c := n; c.parent != nil; c = c.parent {
		segs = append(segs, c.name)
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(segs[i])
	}
	return b.String()
}

// crumbs returns the names from the root down to the node.
func (n *node) crumbs() []string {
	var out []string
	for c := n; c != nil; c = c.parent {
		out = append(out, c.name)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (n *node) child(name string) *node {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// tree holds the folders read so far and the flattened list of rows on
// screen. rows is rebuilt only when the shape changes (a folder opens,
// closes or loads, the filter changes), never on a cursor move or a redraw.
type tree struct {
	root   *node
	byID   map[int64]*node
	rows   []*node
	filter string
	// matches counts the rows the filter matched (their ancestors, shown
	// around them, are not counted).
	matches int
	// markedCount is kept current by setMarked, so the breadcrumbs need not
	// walk the tree on every redraw.
	markedCount int
	// shape changes whenever folders are added, renamed or dropped.
	shape int
	// order is how each folder lists its rows: as read, or sorted.
	order order
}

// order sorts the rows of each folder, its sub-folders and its files
// apart (sub-folders first, as always): by a column, or as the server and
// the file lists gave them (by zero), reversed or not.
type order struct {
	by      sortColumn
	reverse bool
}

type sortColumn int

const (
	asRead sortColumn = iota
	byName
	byKind
	byID
	byState
	sortColumns
)

var sortNames = [sortColumns]string{"as read", "name", "kind", "id", "job state"}

// ordered returns nodes in the tree's order (nodes itself when as read).
func (t *tree) ordered(nodes []*node) []*node {
	if t.order == (order{}) || len(nodes) < 2 {
		return nodes
	}
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b *node) int {
		c := compareBy(t.order.by, a, b)
		if t.order.reverse {
			return -c
		}
		return c
	})
	return out
}

// compareBy compares two rows of one folder by a column; ties, and the
// columns a folder has not (kind, state), go by name.
func compareBy(by sortColumn, a, b *node) int {
	c := 0
	switch by {
	case asRead:
		return 0
	case byKind:
		c = strings.Compare(string(kindOf(a)), string(kindOf(b)))
	case byID:
		c = cmp.Compare(idOf(a), idOf(b))
	case byState:
		c = strings.Compare(string(stateOf(a)), string(stateOf(b)))
	}
	if c != 0 {
		return c
	}
	return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
}

func kindOf(n *node) model.Kind {
	if n.isFile() {
		return n.file.Kind
	}
	return model.KindFolder
}

func idOf(n *node) int64 {
	if n.isFile() {
		return n.file.ID
	}
	return n.id
}

func stateOf(n *node) model.JobState {
	if n.isFile() {
		return n.jobState
	}
	return ""
}

func newTree() *tree { return &tree{byID: map[int64]*node{}} }

// setRoot installs the root folder, keeping what was known below it when
// the root is read again.
func (t *tree) setRoot(f model.Folder) *node {
	if t.root == nil || t.root.id != f.ID() {
		t.root = &node{id: f.ID(), name: "/", expanded: true}
		t.byID = map[int64]*node{t.root.id: t.root}
	}
	t.setChildren(t.root, f.Embedded.Folders)
	return t.root
}

// setChildren replaces a folder's children with what the server sent,
// keeping the state of children that are still there (open, loaded, marked).
func (t *tree) setChildren(parent *node, entries []model.FolderEntry) {
	if t.renameChildren(parent, entries) {
		return
	}
	old := make(map[int64]*node, len(parent.children))
	for _, c := range parent.children {
		old[c.id] = c
	}
	children := make([]*node, 0, len(entries))
	for _, e := range entries {
		id := e.ID()
		c, kept := old[id]
		if kept {
			delete(old, id)
			if c.name != e.Name {
				c.name = e.Name
				c.touch()
			}
		} else {
			c = &node{id: id, name: e.Name, parent: parent, depth: parent.depth + 1}
			t.byID[id] = c
		}
		children = append(children, c)
	}
	for _, gone := range old {
		t.forget(gone)
	}
	parent.children = children
	parent.state = common.Loaded
	parent.touch()
	t.shape++
	t.rebuild()
}

// renameChildren takes a read of a folder that lists the same children in
// the same order, as a refresh mostly does: names are updated in place and
// the rows stay as they are, unless a filter must see the new names. It
// reports false, changing nothing, when the children differ or the folder
// was never read (a new root is not among the rows yet).
func (t *tree) renameChildren(parent *node, entries []model.FolderEntry) bool {
	if len(entries) != len(parent.children) || parent.state == common.NotLoaded {
		return false
	}
	for i, c := range parent.children {
		if c.id != entries[i].ID() {
			return false
		}
	}
	renamed := false
	for i, c := range parent.children {
		if c.name != entries[i].Name {
			c.name = entries[i].Name
			c.touch()
			renamed = true
		}
	}
	parent.state = common.Loaded
	parent.touch()
	if renamed {
		t.shape++
		if t.filter != "" {
			t.rebuild()
		}
	}
	return true
}

// setMarked marks or unmarks a folder for a backup of chosen folders.
func (t *tree) setMarked(n *node, on bool) {
	if n.marked == on {
		return
	}
	n.marked = on
	n.touch()
	if on {
		t.markedCount++
	} else {
		t.markedCount--
	}
}

// attachFiles gives a folder the files the index holds for it, keeping the
// rows of files still there (marks, job states), and reports whether
// anything changed. The caller rebuilds the rows when it did.
func (t *tree) attachFiles(n *node, entries []common.FileEntry) bool {
	changed := len(entries) != len(n.files)
	old := make(map[string]*node, len(n.files))
	for _, f := range n.files {
		old[f.file.UUID] = f
	}
	files := make([]*node, 0, len(entries))
	for i, e := range entries {
		f, kept := old[e.UUID]
		switch {
		case !kept:
			entry := e
			f = &node{name: e.FileName(), parent: n, depth: n.depth + 1, file: &entry, state: common.Loaded}
			changed = true
		case *f.file != e:
			delete(old, e.UUID)
			entry := e
			f.file, f.name = &entry, e.FileName()
			f.touch()
			changed = true
		default:
			delete(old, e.UUID)
			changed = changed || n.files[i] != f
		}
		files = append(files, f)
	}
	for _, gone := range old {
		t.setMarked(gone, false)
	}
	if changed {
		n.files = files
		n.touch()
		t.shape++
	}
	return changed
}

// forget drops a folder and everything below it from the index.
func (t *tree) forget(n *node) {
	t.setMarked(n, false)
	delete(t.byID, n.id)
	for _, f := range n.files {
		t.setMarked(f, false)
	}
	for _, c := range n.children {
		t.forget(c)
	}
}

// rebuild flattens the open folders into rows. With a filter, it lists the
// folders read so far whose name contains it, with their ancestors, open
// or not, so a match deep down is found without opening every folder.
func (t *tree) rebuild() {
	t.rows = t.rows[:0]
	if t.root == nil {
		return
	}
	if t.filter == "" {
		t.appendOpen(t.root)
		return
	}
	t.matches = 0
	t.appendMatching(t.root, common.ParseNeedle(t.filter))
}

func (t *tree) appendOpen(n *node) {
	t.rows = append(t.rows, n)
	if !n.expanded {
		return
	}
	for _, c := range t.ordered(n.children) {
		t.appendOpen(c)
	}
	t.rows = append(t.rows, t.ordered(n.files)...)
}

// appendMatching appends n and its matching descendants; it reports whether
// anything at or below n matched.
func (t *tree) appendMatching(n *node, needle common.Needle) bool {
	at := len(t.rows)
	t.rows = append(t.rows, n)
	matched := n != t.root && needle.Match(strings.ToLower(n.name))
	if matched {
		t.matches++
	}
	for _, c := range t.ordered(n.children) {
		if t.appendMatching(c, needle) {
			matched = true
		}
	}
	for _, f := range t.ordered(n.files) {
		if needle.Match(strings.ToLower(f.name)) {
			t.rows = append(t.rows, f)
			t.matches++
			matched = true
		}
	}
	if !matched && n != t.root {
		t.rows = t.rows[:at]
	}
	return matched
}

// indexOf returns the row of a node, or -1 when it is not on screen; hint
// is where it was, where a refresh mostly leaves it.
func (t *tree) indexOf(n *node, hint int) int {
	if hint >= 0 && hint < len(t.rows) && t.rows[hint] == n {
		return hint
	}
	for i, r := range t.rows {
		if r == n {
			return i
		}
	}
	return -1
}

// marked returns the marked folders and files in tree order.
func (t *tree) marked() []*node {
	var out []*node
	var walk func(*node)
	walk = func(n *node) {
		if n.marked {
			out = append(out, n)
		}
		for _, c := range n.children {
			walk(c)
		}
		for _, f := range n.files {
			if f.marked {
				out = append(out, f)
			}
		}
	}
	if t.root != nil {
		walk(t.root)
	}
	return out
}

// deepest returns the deepest folder read so far on the way to path, and
// whether it is the folder at path itself; nil before the root is read.
func (t *tree) deepest(path string) (*node, bool) {
	at := t.root
	if at == nil {
		return nil, false
	}
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		if seg == "" {
			continue
		}
		next := at.child(seg)
		if next == nil {
			return at, false
		}
		at = next
	}
	return at, true
}

// find returns the folder read so far at a path, nil when it is not.
func (t *tree) find(path string) *node {
	if n, exact := t.deepest(path); exact {
		return n
	}
	return nil
}
