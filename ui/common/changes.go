package common

import (
	"slices"
	"sort"
)

// Changes is how a list answer differs from the answer a pane held when
// it asked (its base), found by the task that read it: that comparison
// costs O(rows), and runs off the UI goroutine, so that Update takes the
// answer in O(changes) steps. A pane hands its task the answer it last
// took and never changes that slice or its elements afterwards.
type Changes struct {
	// Ordered says the answer is the base with the Removed entries taken
	// out and the Inserted ones put in, the others in the base's order;
	// otherwise (the zero value) the pane merges it by id.
	Ordered bool
	// Changed holds, when Ordered, the answer's indices whose entries
	// differ from the base's entry of the same id.
	Changed []int
	// Removed holds the base's indices whose ids the answer lacks, and
	// Inserted the answer's indices whose ids the base lacks, ascending.
	Removed, Inserted []int
}

// Diff compares an answer with its base, by id. An answer that keeps the
// base's order but for at most limit inserted and removed entries is
// Ordered; the ids are put in maps only when they differ somewhere. Any
// other (a reorder, a repeated id, more than limit), is not.
func Diff[T comparable, K comparable](base, answer []T, id func(*T) K, limit int) Changes {
	n := min(len(base), len(answer))
	i := 0
	for ; i < n && id(&base[i]) == id(&answer[i]); i++ {
	}
	if i == len(base) && i == len(answer) {
		return Changes{Ordered: true, Changed: changedAt(base, answer, i)}
	}
	if d := len(answer) - len(base); d > limit || -d > limit {
		return Changes{}
	}
	inBase, inAnswer := ids(base, id), ids(answer, id)
	if inBase == nil || inAnswer == nil {
		return Changes{}
	}
	c := Changes{Ordered: true, Changed: changedAt(base, answer, i)}
	if !walkChanges(&c, base, answer, i, inBase, inAnswer, id, limit) {
		return Changes{}
	}
	return c
}

// walkChanges goes through base and answer from index from on, where they first
// differ, noting what was removed, inserted and changed; it reports false
// for a reorder or more than limit insertions and removals.
func walkChanges[T comparable, K comparable](c *Changes, base, answer []T, from int, inBase, inAnswer map[K]bool, id func(*T) K, limit int) bool {
	for b, a := from, from; b < len(base) || a < len(answer); {
		switch {
		case b < len(base) && !inAnswer[id(&base[b])]:
			c.Removed = append(c.Removed, b)
			b++
		case a < len(answer) && !inBase[id(&answer[a])]:
			c.Inserted = append(c.Inserted, a)
			a++
		case b < len(base) && a < len(answer) && id(&base[b]) == id(&answer[a]):
			if base[b] != answer[a] {
				c.Changed = append(c.Changed, a)
			}
			a, b = a+1, b+1
		default:
			return false // reordered
		}
		if len(c.Removed)+len(c.Inserted) > limit {
			return false
		}
	}
	return true
}

// changedAt returns the indices below n at which base and answer, listing
// the same ids there, differ.
func changedAt[T comparable](base, answer []T, n int) []int {
	var changed []int
	for i := range n {
		if base[i] != answer[i] {
			changed = append(changed, i)
		}
	}
	return changed
}

// ids returns the set of a list's ids, nil when one repeats.
func ids[T any, K comparable](list []T, id func(*T) K) map[K]bool {
	set := make(map[K]bool, len(list))
	for i := range list {
		k := id(&list[i])
		if set[k] {
			return nil
		}
		set[k] = true
	}
	return set
}

// SameAnswer reports whether two slices are one answer: the same backing
// array and length. A pane applies Changes only to the base they were
// found against.
func SameAnswer[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// FindSorted returns the index of x among rows sorted by compare, -1 when
// it is not among them: a binary search, then a walk over x's equals.
// compare must order rows as x's keys are now (find before changing x).
func FindSorted[T comparable](rows []T, x T, compare func(a, b T) int) int {
	at, _ := slices.BinarySearchFunc(rows, x, compare)
	for ; at < len(rows) && compare(rows[at], x) == 0; at++ {
		if rows[at] == x {
			return at
		}
	}
	return -1
}

// PlaceSorted moves x, changed, from rows[from] (from -1: it was not
// among them) to where compare now puts it, after its equals as a stable
// sort leaves a later row, or out of rows when show is false; only the
// rows in between shift. rows, but x, stay sorted by compare.
func PlaceSorted[T comparable](rows []T, x T, from int, show bool, compare func(a, b T) int) []T {
	if !show {
		if from >= 0 {
			rows = slices.Delete(rows, from, from+1)
		}
		return rows
	}
	others := len(rows)
	if from >= 0 {
		others--
	}
	to := sort.Search(others, func(k int) bool {
		if from >= 0 && k >= from {
			k++ // skip x itself
		}
		return compare(rows[k], x) > 0
	})
	switch {
	case from < 0:
		rows = slices.Insert(rows, to, x)
	case to < from:
		copy(rows[to+1:from+1], rows[to:from])
		rows[to] = x
	case to > from:
		copy(rows[from:to], rows[from+1:to+1])
		rows[to] = x
	}
	return rows
}

// IndexNear returns the first index below n, nearest hint, at which is
// holds, -1 when none does: a row a refresh left where it was or a few
// rows away is found in as many steps.
func IndexNear(n, hint int, is func(i int) bool) int {
	hint = max(0, min(hint, n-1))
	for d := 0; d < n && (hint-d >= 0 || hint+d < n); d++ {
		if i := hint - d; i >= 0 && is(i) {
			return i
		}
		if i := hint + d; i < n && is(i) {
			return i
		}
	}
	return -1
}
