package connections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// systemFolder holds the platform's hidden connections.
const systemFolder = "/.system/"

// column is a column of the list, in the order the sort key cycles them.
type column int

const (
	colName column = iota
	colType
	colPath
	colDescription
	columnCount
)

func (c column) String() string {
	return [...]string{"name", "type", "path", "description"}[c]
}

// entry is one connection of the list. typ stays "" until the
// connection's own read tells it (the list does not carry it).
type entry struct {
	model.ConnectionEntry
	typ    string
	system bool
	// keys are the lower-cased fields the sort compares, and search the
	// lower-cased text the filter matches against: computed when the entry
	// or its type is read, never while sorting or filtering.
	keys   [columnCount]string
	search string
	// version changes with anything the entry's row shows; rendered is the
	// row as last drawn.
	version  int
	rendered renderedRow
}

func newEntry(c model.ConnectionEntry) *entry {
	e := &entry{}
	e.setFields(c)
	return e
}

// setFields takes what the list says of the connection. A connection that
// moved loses its type: it is read again.
func (e *entry) setFields(c model.ConnectionEntry) {
	if c.Path != e.Path {
		e.typ, e.keys[colType] = "", ""
	}
	e.ConnectionEntry = c
	e.system = strings.HasPrefix(c.Path, systemFolder)
	e.keys[colName] = strings.ToLower(c.Name)
	e.keys[colPath] = strings.ToLower(c.Path)
	e.keys[colDescription] = strings.ToLower(c.Description)
	e.index()
}

func (e *entry) setType(t string) {
	e.typ, e.keys[colType] = t, strings.ToLower(t)
	e.index()
}

func (e *entry) index() {
	e.search = e.keys[colName] + "\x00" + e.keys[colPath] + "\x00" + e.keys[colDescription]
	if e.typ != "" {
		e.search += "\x00" + e.keys[colType]
	}
	e.version++
}

// compareEntries orders two entries by a column, then by path; unknown
// types sort last either way: they are not known yet.
func compareEntries(a, b *entry, by column, descending bool) int {
	if by == colType && (a.typ == "") != (b.typ == "") {
		if a.typ == "" {
			return 1
		}
		return -1
	}
	c := cmp.Compare(a.keys[by], b.keys[by])
	if c == 0 {
		c = cmp.Compare(a.Path, b.Path)
	}
	if descending {
		return -c
	}
	return c
}

// list is every connection read, and the rows shown: filtered, with or
// without system connections, sorted. rows is rebuilt only when one of
// those changes, never on a cursor move or a redraw.
type list struct {
	all  []*entry
	byID map[int64]*entry
	// answer is the list answer all was last set from. A read hands it to
	// its task, which compares the next answer with it off the UI
	// goroutine: nothing changes this slice or its elements once taken.
	answer     []model.ConnectionEntry
	rows       []*entry
	filter     string
	hideSystem bool
	sortBy     column
	descending bool
	systemN    int // system connections among all
}

// replaceLimit is how many changed, added or removed connections a
// refresh places one by one; past it, sorting all rows again is cheaper.
const replaceLimit = 64

func connectionID(c *model.ConnectionEntry) int64 { return c.ID }

// set takes a list answer, compared here, on the UI goroutine, with the
// one before: what a read does when its task's comparison was made
// against another answer (see apply).
func (l *list) set(entries []model.ConnectionEntry) {
	l.apply(entries, common.Diff(l.answer, entries, connectionID, replaceLimit))
}

// apply takes a list answer and how it differs from l.answer, merged by
// id: an unchanged connection keeps its entry (keys, type, rendering).
// When the answer keeps the order of the one before but for a few
// connections added or removed, as a refresh mostly does, only those and
// the changed ones are placed, by binary search: O(changes × log rows)
// compares. Taking one out of or putting one into all and rows moves the
// pointers after it, O(rows) in the worst case, but a memmove (some 50 µs
// for 100,000 rows). Otherwise, or for the first answer, the rows are
// sorted again.
func (l *list) apply(entries []model.ConnectionEntry, changes common.Changes) {
	defer func() { l.answer = entries }()
	reshaped := len(changes.Removed)+len(changes.Inserted) > 0
	if changes.Ordered && !reshaped && len(changes.Changed) > replaceLimit {
		for _, i := range changes.Changed {
			l.setFields(l.all[i], entries[i])
		}
		l.rebuild()
		return
	}
	if changes.Ordered && l.byID != nil && len(changes.Changed)+len(changes.Removed)+len(changes.Inserted) <= replaceLimit {
		needle := common.ParseNeedle(l.filter)
		for _, i := range slices.Backward(changes.Removed) {
			e := l.all[i]
			l.rows = common.PlaceSorted(l.rows, e, common.FindSorted(l.rows, e, l.compare), false, l.compare)
			l.all = slices.Delete(l.all, i, i+1)
			delete(l.byID, e.ID)
			l.systemN -= b2i(e.system)
		}
		for _, i := range changes.Inserted {
			e := newEntry(entries[i])
			l.all = slices.Insert(l.all, i, e)
			l.byID[e.ID] = e
			l.systemN += b2i(e.system)
			l.rows = common.PlaceSorted(l.rows, e, -1, l.shown(e, needle), l.compare)
		}
		for _, i := range changes.Changed {
			e := l.all[i]
			from := common.FindSorted(l.rows, e, l.compare)
			l.setFields(e, entries[i])
			l.rows = common.PlaceSorted(l.rows, e, from, l.shown(e, needle), l.compare)
		}
		return
	}
	old := l.byID
	l.all = make([]*entry, len(entries))
	l.byID = make(map[int64]*entry, len(entries))
	l.systemN = 0
	for i, c := range entries {
		e, ok := old[c.ID]
		switch {
		case !ok:
			e = newEntry(c)
		case e.ConnectionEntry != c:
			e.setFields(c)
		}
		l.all[i], l.byID[c.ID] = e, e
		l.systemN += b2i(e.system)
	}
	l.rebuild()
}

// setFields takes what the answer says of a listed connection, keeping
// the count of system connections.
func (l *list) setFields(e *entry, c model.ConnectionEntry) {
	wasSystem := e.system
	e.setFields(c)
	l.systemN += b2i(e.system) - b2i(wasSystem)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// shown says whether an entry passes the filter and the system toggle.
func (l *list) shown(e *entry, needle common.Needle) bool {
	return !(l.hideSystem && e.system) && needle.Match(e.search)
}

func (l *list) compare(a, b *entry) int { return compareEntries(a, b, l.sortBy, l.descending) }

// setTypes records types read; it reports whether the rows need sorting again.
func (l *list) setTypes(types map[int64]string) bool {
	for id, t := range types {
		if e, ok := l.byID[id]; ok {
			e.setType(t)
		}
	}
	return l.sortBy == colType || l.filter != ""
}

func (l *list) rebuild() {
	needle := common.ParseNeedle(l.filter)
	l.rows = l.rows[:0]
	for _, e := range l.all {
		if l.shown(e, needle) {
			l.rows = append(l.rows, e)
		}
	}
	by, desc := l.sortBy, l.descending
	slices.SortStableFunc(l.rows, func(a, b *entry) int { return compareEntries(a, b, by, desc) })
}

// indexOf returns the row of a connection, -1 when it is not shown; hint
// is where it was, where a refresh leaves it or a few rows away.
func (l *list) indexOf(id int64, hint int) int {
	return common.IndexNear(len(l.rows), hint, func(i int) bool { return l.rows[i].ID == id })
}

// missingTypes returns the ids among rows whose type is not read yet.
func missingTypes(rows []*entry, pending map[int64]bool) []int64 {
	var ids []int64
	for _, e := range rows {
		if e.typ == "" && !pending[e.ID] {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// typeName names a connection's type for the list: the type id without
// the platform's decoration, with the database kind when there is one
// ("Jdbc MySQL", "FileSystem").
func typeName(c model.Connection) string {
	t := strings.TrimPrefix(c.TypeID, "das.")
	t = strings.TrimSuffix(t, "DataStoreType")
	if t == "" {
		t = "unknown"
	}
	if c.DBType != nil && c.DBType.Name != "" {
		t += " " + c.DBType.Name
	}
	return t
}
