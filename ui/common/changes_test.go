package common

import (
	"cmp"
	"slices"
	"testing"
)

type item struct {
	id   int
	text string
}

func itemID(i *item) int { return i.id }

func TestDiff(t *testing.T) {
	base := []item{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}}
	tests := []struct {
		name   string
		answer []item
		want   Changes
	}{
		{"the same", []item{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}}, Changes{Ordered: true}},
		{"one text", []item{{1, "a"}, {2, "B"}, {3, "c"}, {4, "d"}}, Changes{Ordered: true, Changed: []int{1}}},
		{"two texts", []item{{1, "A"}, {2, "b"}, {3, "c"}, {4, "D"}}, Changes{Ordered: true, Changed: []int{0, 3}}},
		{"the last removed", []item{{1, "a"}, {2, "b"}, {3, "c"}}, Changes{Ordered: true, Removed: []int{3}}},
		{"the first removed", []item{{2, "b"}, {3, "c"}, {4, "d"}}, Changes{Ordered: true, Removed: []int{0}}},
		{"two removed", []item{{1, "a"}, {4, "d"}}, Changes{Ordered: true, Removed: []int{1, 2}}},
		{"three removed", []item{{3, "c"}}, Changes{Ordered: true, Removed: []int{0, 1, 3}}},
		{"all removed, more than the limit", nil, Changes{}},
		{"one added last", []item{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {5, "e"}}, Changes{Ordered: true, Inserted: []int{4}}},
		{"one added first", []item{{5, "e"}, {1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}}, Changes{Ordered: true, Inserted: []int{0}}},
		{"added, removed and changed", []item{{1, "A"}, {6, "f"}, {3, "c"}, {4, "D"}, {5, "e"}},
			Changes{Ordered: true, Changed: []int{0, 3}, Removed: []int{1}, Inserted: []int{1, 4}}},
		{"another id in place", []item{{1, "a"}, {5, "b"}, {3, "c"}, {4, "d"}}, Changes{Ordered: true, Removed: []int{1}, Inserted: []int{1}}},
		{"another order", []item{{2, "b"}, {1, "a"}, {3, "c"}, {4, "d"}}, Changes{}},
		{"moved to the end", []item{{1, "a"}, {3, "c"}, {4, "d"}, {2, "b"}}, Changes{}},
		{"a repeated id", []item{{1, "a"}, {2, "b"}, {3, "c"}, {3, "c"}}, Changes{}},
		{"a repeated id, added", []item{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {1, "a"}}, Changes{}},
		{"more than the limit", []item{{1, "a"}, {5, "e"}, {6, "f"}, {7, "g"}, {8, "h"}, {2, "b"}, {3, "c"}, {4, "d"}}, Changes{}},
		{"all new, more than the limit", []item{{5, "e"}, {6, "f"}}, Changes{}},
	}
	for _, tt := range tests {
		got := Diff(base, tt.answer, itemID, 3)
		if got.Ordered != tt.want.Ordered || !slices.Equal(got.Changed, tt.want.Changed) ||
			!slices.Equal(got.Removed, tt.want.Removed) || !slices.Equal(got.Inserted, tt.want.Inserted) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestSameAnswer(t *testing.T) {
	a := []item{{1, "a"}, {2, "b"}}
	if !SameAnswer(a, a) || SameAnswer(a, slices.Clone(a)) || SameAnswer(a, a[:1]) || !SameAnswer[item](nil, nil) {
		t.Error("SameAnswer tells one answer from another wrongly")
	}
}

// TestPlaceSorted: a changed row found before its change and placed after
// it leaves the rows a sort would, whether it moves up, down, in, out or
// nowhere, among equals too.
func TestPlaceSorted(t *testing.T) {
	tests := []struct {
		name    string
		rows    []int // keys, sorted
		change  int   // index of the row that changes, -1 for one not shown
		newKey  int
		show    bool
		wantKey []int
	}{
		{"stays", []int{1, 3, 5, 7}, 1, 4, true, []int{1, 4, 5, 7}},
		{"moves down", []int{1, 3, 5, 7}, 0, 6, true, []int{3, 5, 6, 7}},
		{"moves up", []int{1, 3, 5, 7}, 3, 2, true, []int{1, 2, 3, 5}},
		{"to the end", []int{1, 3, 5, 7}, 1, 9, true, []int{1, 5, 7, 9}},
		{"to the front", []int{1, 3, 5, 7}, 2, 0, true, []int{0, 1, 3, 7}},
		{"after its equals", []int{1, 3, 3, 5}, 0, 3, true, []int{3, 3, 3, 5}},
		{"comes in", []int{1, 3, 5}, -1, 4, true, []int{1, 3, 4, 5}},
		{"goes out", []int{1, 3, 5}, 1, 3, false, []int{1, 5}},
		{"stays out", []int{1, 3, 5}, -1, 3, false, []int{1, 3, 5}},
	}
	type row struct{ key int }
	byKey := func(a, b *row) int { return cmp.Compare(a.key, b.key) }
	for _, tt := range tests {
		rows := make([]*row, len(tt.rows))
		for i, k := range tt.rows {
			rows[i] = &row{k}
		}
		x := &row{-100}
		if tt.change >= 0 {
			x = rows[tt.change]
		}
		from := FindSorted(rows, x, byKey)
		if from != tt.change {
			t.Errorf("%s: found at %d, want %d", tt.name, from, tt.change)
			continue
		}
		x.key = tt.newKey
		rows = PlaceSorted(rows, x, from, tt.show, byKey)
		got := make([]int, len(rows))
		for i, r := range rows {
			got[i] = r.key
		}
		if !slices.Equal(got, tt.wantKey) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.wantKey)
		}
		if i := slices.Index(rows, x); tt.show && (i < 0 || (i+1 < len(rows) && rows[i+1].key == x.key)) {
			t.Errorf("%s: the changed row is at %d, want after its equals", tt.name, i)
		}
	}
}

func TestIndexNear(t *testing.T) {
	ids := []int{10, 20, 30, 20, 50}
	tests := []struct {
		name     string
		id, hint int
		want     int
	}{
		{"at the hint", 30, 2, 2},
		{"below the hint", 10, 3, 0},
		{"above the hint", 50, 0, 4},
		{"the nearer of two", 20, 4, 3},
		{"hint past the end", 50, 99, 4},
		{"absent", 60, 2, -1},
	}
	for _, tt := range tests {
		if got := IndexNear(len(ids), tt.hint, func(i int) bool { return ids[i] == tt.id }); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := IndexNear(0, 0, func(int) bool { return true }); got != -1 {
		t.Errorf("no rows: %d, want -1", got)
	}
}
