package connections

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
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
	p := withList(newTestPane(nil, 120, 20, false), entries(30))
	before := p.View()
	list := entries(30)
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

// TestTaskComparedAnswerMergesAsAFreshListWould: a list answer that comes
// with the changes its task found (see readList) leaves the rows a fresh
// read would show, sorted or filtered, with the cursor on the connection
// it was on; changes found against an answer the pane no longer holds are
// not trusted: the answer is compared again.
func TestTaskComparedAnswerMergesAsAFreshListWould(t *testing.T) {
	edit := func(f func([]model.ConnectionEntry)) func([]model.ConnectionEntry) []model.ConnectionEntry {
		return func(l []model.ConnectionEntry) []model.ConnectionEntry { f(l); return l }
	}
	added := func(id int64, name string) model.ConnectionEntry {
		return model.ConnectionEntry{ID: id, Name: name, Path: "/Data/Connections/" + name + ".dst", Description: "number " + name}
	}
	changes := []struct {
		name   string
		change func([]model.ConnectionEntry) []model.ConnectionEntry
	}{
		{"a description", edit(func(l []model.ConnectionEntry) { l[60].Description = "edited" })},
		{"a name moves past the cursor", edit(func(l []model.ConnectionEntry) { l[21].Name = "AAA first" })},
		{"the cursor's connection moves", edit(func(l []model.ConnectionEntry) { l[40].Name = "zzz last" })},
		{"one now matches the filter", edit(func(l []model.ConnectionEntry) { l[25].Description = "number 7 now" })},
		{"one no longer matches", edit(func(l []model.ConnectionEntry) { l[7].Description = "plain" })},
		{"one becomes a system connection", edit(func(l []model.ConnectionEntry) { l[47].Path = systemFolder + "moved.dst" })},
		{"more than replaceLimit", edit(func(l []model.ConnectionEntry) {
			for i := range l {
				l[i].Description += " again"
			}
		})},
		{"the order changes", edit(func(l []model.ConnectionEntry) { slices.Reverse(l) })},
		{"the first removed", func(l []model.ConnectionEntry) []model.ConnectionEntry { return l[1:] }},
		{"one in the middle removed", func(l []model.ConnectionEntry) []model.ConnectionEntry { return slices.Delete(l, 60, 61) }},
		{"the last removed", func(l []model.ConnectionEntry) []model.ConnectionEntry { return l[:len(l)-1] }},
		{"the cursor's connection removed", func(l []model.ConnectionEntry) []model.ConnectionEntry { return slices.Delete(l, 40, 41) }},
		{"several removed, system ones too", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			return slices.Delete(slices.Delete(l, 70, 75), 10, 12)
		}},
		{"one added first", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			return slices.Insert(l, 0, added(500, "AAA new"))
		}},
		{"one added in the middle", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			return slices.Insert(l, 50, added(500, "conn-00041b"))
		}},
		{"one added last", func(l []model.ConnectionEntry) []model.ConnectionEntry { return append(l, added(500, "zzz new")) }},
		{"several added, a system one too", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			sys := added(502, "hidden")
			sys.Path = systemFolder + "hidden.dst"
			return slices.Insert(slices.Insert(l, 90, added(500, "conn-00002b"), sys), 5, added(501, "mmm"))
		}},
		{"added, removed and changed together", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[30].Name, l[100].Description = "AAA moved", "plain"
			l = slices.Delete(l, 40, 42)
			return slices.Insert(slices.Insert(l, 80, added(500, "conn-00041")), 3, added(501, "conn-00000a"))
		}},
		{"one replaced in place", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			l[45] = added(500, "conn-00045")
			return l
		}},
		{"more than replaceLimit added", func(l []model.ConnectionEntry) []model.ConnectionEntry {
			for i := range replaceLimit + 1 {
				l = append(l, added(int64(500+i), fmt.Sprintf("new-%02d", i)))
			}
			return l
		}},
	}
	views := []struct {
		name   string
		adjust func(*list)
	}{
		{"by name", func(*list) {}},
		{"by path, descending", func(l *list) { l.sortBy, l.descending = colPath, true }},
		{"by type", func(l *list) { l.sortBy = colType }},
		{"filtered, system hidden", func(l *list) { l.filter, l.hideSystem = "number", true }},
	}
	bases := []struct {
		name  string
		stale bool
	}{{"against the answer held", false}, {"against an older answer", true}}
	for _, v := range views {
		for _, c := range changes {
			for _, b := range bases {
				t.Run(v.name+"/"+c.name+"/"+b.name, func(t *testing.T) {
					p := withList(newTestPane(nil, 120, 20, false), entries(120))
					v.adjust(&p.list)
					p.relist()
					p.cursor = p.list.indexOf(41, 0)
					base := p.list.answer
					if b.stale {
						// An answer taken since the read started: the task
						// compared with the one before it.
						older := entries(120)
						older[90].Name = "taken since"
						p.list.set(older)
					}
					answer := c.change(entries(120))
					p.Update(listMsg{ticket: p.listReads.Latest(), entries: answer, base: base,
						changes: common.Diff(base, answer, connectionID, replaceLimit)})

					var fresh list
					v.adjust(&fresh)
					fresh.set(answer)
					types := map[int64]string{}
					for _, e := range p.list.all {
						types[e.ID] = e.typ
					}
					fresh.setTypes(types)
					fresh.rebuild()
					if got, want := ids(p.list.rows), ids(fresh.rows); !slices.Equal(got, want) {
						t.Errorf("rows after the refresh:\n%v\nread afresh:\n%v", got, want)
					}
					if got, want := ids(p.list.all), ids(fresh.all); !slices.Equal(got, want) || len(p.list.byID) != len(fresh.byID) {
						t.Errorf("all after the refresh:\n%v\nread afresh:\n%v", got, want)
					}
					if p.list.systemN != fresh.systemN {
						t.Errorf("%d system connections counted, want %d", p.list.systemN, fresh.systemN)
					}
					if e := p.selected(); fresh.indexOf(41, 0) >= 0 && (e == nil || e.ID != 41) {
						t.Errorf("the cursor is on %v, want connection 41", e)
					}
				})
			}
		}
	}
}
