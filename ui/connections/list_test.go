package connections

import (
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestRefreshMergesAsAFreshListWould: a list answer merged into the list
// a refresh holds shows the same rows, in the same order, as the answer
// read into an empty list, whatever changed, sort or filter.
func TestRefreshMergesAsAFreshListWould(t *testing.T) {
	changes := []struct {
		name   string
		change func([]model.ConnectionEntry) []model.ConnectionEntry
	}{
		{"nothing", func(l []model.ConnectionEntry) []model.ConnectionEntry { return l }},
		{"a name moves to the front", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[17].Name = "AAA first"
			return l
		}},
		{"a name moves to the end", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[3].Name = "zzz last"
			return l
		}},
		{"a description now matches", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[25].Description = "number 7 now"
			return l
		}},
		{"one becomes a system connection", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[4].Path = systemFolder + "moved.dst"
			return l
		}},
		{"one leaves the system folder", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[10].Path = "/Data/moved.dst"
			return l
		}},
		{"one is deleted", func(l []model.ConnectionEntry) []model.ConnectionEntry { return slices.Delete(l, 8, 9) }},
		{"one is added", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			return append(l, model.ConnectionEntry{ID: 999, Name: "conn-00005b", Path: "/Data/new.dst"})
		}},
		{"the order changes", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			slices.Reverse(l)
			return l
		}},
		{"many change", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			for i := range l {
				l[i].Name = l[len(l)-1-i].Name
			}
			return l
		}},
	}
	views := []struct {
		name   string
		adjust func(*list)
	}{
		{"by name", func(*list) {}},
		{"by description, descending", func(l *list) { l.sortBy, l.descending = colDescription, true }},
		{"by type", func(l *list) { l.sortBy = colType }},
		{"filtered, system hidden", func(l *list) { l.filter, l.hideSystem = "number 7", true }},
	}
	for _, v := range views {
		for _, c := range changes {
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				var merged list
				v.adjust(&merged)
				merged.set(entries(120))
				merged.setTypes(map[int64]string{3: "FileSystem", 40: "Jdbc MySQL"})
				merged.rebuild()
				answer := c.change(entries(120))
				merged.set(answer)

				var fresh list
				v.adjust(&fresh)
				fresh.set(answer)
				types := map[int64]string{}
				for _, e := range merged.all {
					if e.typ != "" {
						types[e.ID] = e.typ
					}
				}
				fresh.setTypes(types)
				fresh.rebuild()

				if got, want := ids(merged.rows), ids(fresh.rows); !slices.Equal(got, want) {
					t.Errorf("rows after the refresh:\n%v\nread afresh:\n%v", got, want)
				}
				if merged.systemN != fresh.systemN {
					t.Errorf("%d system connections counted, want %d", merged.systemN, fresh.systemN)
				}
			})
		}
	}
}

func TestMovedConnectionLosesItsType(t *testing.T) {
	var l list
	l.set(entries(5))
	l.setTypes(map[int64]string{2: "FileSystem", 3: "FileSystem"})
	moved := entries(5)
	moved[1].Path = "/Elsewhere/x.dst"
	moved[2].Name = "renamed"
	l.set(moved)
	if typ := l.byID[2].typ; typ != "" {
		t.Errorf("a moved connection keeps type %q: it must be read again", typ)
	}
	if typ := l.byID[3].typ; typ != "FileSystem" {
		t.Errorf("a renamed connection has type %q, want FileSystem", typ)
	}
}

func ids(rows []*entry) []int64 {
	out := make([]int64, len(rows))
	for i, e := range rows {
		out[i] = e.ID
	}
	return out
}

func TestRefreshShowsAChangedConnection(t *testing.T) {
	list := entries(30)
	p := withList(newTestPane(nil, 120, 20, false), list)
	before := p.View()
	list[2].Description = "edited elsewhere"
	p.Update(listMsg{ticket: p.listReads.Latest(), entries: list})
	after := uitest.Screen(p.View())
	if !strings.Contains(after, "edited elsewhere") {
		t.Fatalf("the refresh does not show the new description:\n%s", after)
	}
	if strings.Count(uitest.Screen(before), "\n") != strings.Count(after, "\n") {
		t.Errorf("the refresh changed the number of lines")
	}
}
