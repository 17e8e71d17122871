package connections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
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
	// search is the lower-cased text the filter matches against.
	search string
}

func newEntry(e model.ConnectionEntry) *entry {
	return &entry{ConnectionEntry: e, system: strings.HasPrefix(e.Path, systemFolder),
		search: strings.ToLower(e.Name + "\x00" + e.Path + "\x00" + e.Description)}
}

func (e *entry) field(c column) string {
	switch c {
	case colType:
		return e.typ
	case colPath:
		return e.Path
	case colDescription:
		return e.Description
	}
	return e.Name
}

// list is every connection read, and the rows shown: filtered, with or
// without system connections, sorted. rows is rebuilt only when one of
// those changes, never on a cursor move or a redraw.
type list struct {
	all        []*entry
	byID       map[int64]*entry
	rows       []*entry
	filter     string
	hideSystem bool
	sortBy     column
	descending bool
	systemN    int // system connections among all
}

func (l *list) set(entries []model.ConnectionEntry) {
	old := l.byID
	l.all = make([]*entry, len(entries))
	l.byID = make(map[int64]*entry, len(entries))
	l.systemN = 0
	for i, e := range entries {
		n := newEntry(e)
		if prev, ok := old[e.ID]; ok && prev.Path == e.Path {
			n.typ = prev.typ
		}
		l.all[i], l.byID[e.ID] = n, n
		if n.system {
			l.systemN++
		}
	}
	l.rebuild()
}

// setTypes records types read; it reports whether the rows need sorting again.
func (l *list) setTypes(types map[int64]string) bool {
	for id, t := range types {
		if e, ok := l.byID[id]; ok {
			e.typ = t
			e.search = strings.ToLower(e.Name + "\x00" + e.Path + "\x00" + e.Description + "\x00" + t)
		}
	}
	return l.sortBy == colType || l.filter != ""
}

func (l *list) rebuild() {
	needle := strings.ToLower(l.filter)
	l.rows = l.rows[:0]
	for _, e := range l.all {
		if l.hideSystem && e.system {
			continue
		}
		if needle != "" && !strings.Contains(e.search, needle) {
			continue
		}
		l.rows = append(l.rows, e)
	}
	by, desc := l.sortBy, l.descending
	slices.SortStableFunc(l.rows, func(a, b *entry) int {
		av, bv := a.field(by), b.field(by)
		// unknown types sort last either way: they are not known yet.
		if by == colType && (av == "") != (bv == "") {
			if av == "" {
				return 1
			}
			return -1
		}
		c := cmp.Compare(strings.ToLower(av), strings.ToLower(bv))
		if c == 0 {
			c = cmp.Compare(a.Path, b.Path)
		}
		if desc {
			return -c
		}
		return c
	})
}

func (l *list) indexOf(id int64) int {
	for i, e := range l.rows {
		if e.ID == id {
			return i
		}
	}
	return -1
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
