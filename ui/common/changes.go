package common

import (
	"slices"
	"sort"
)

// Changes is how a list answer differs from the answer a pane held when
// it asked (its base), found by the task that read it: that comparison
// costs O(rows), and runs off the UI goroutine, so that Update takes the
// answer in O(changed). A pane hands its task the answer it last took and
// never changes that slice or its elements afterwards.
type Changes struct {
	// InPlace says the answer lists the same ids as the base, in the same
	// order; otherwise (the zero value) the pane merges it by id.
	InPlace bool
	// Changed holds, when InPlace, the indices whose entries differ from
	// the base's.
	Changed []int
}

// Diff compares an answer with its base, entry by entry, by id.
func Diff[T comparable, K comparable](base, answer []T, id func(*T) K) Changes {
	if len(base) != len(answer) {
		return Changes{}
	}
	var changed []int
	for i := range answer {
		if id(&base[i]) != id(&answer[i]) {
			return Changes{}
		}
		if base[i] != answer[i] {
			changed = append(changed, i)
		}
	}
	return Changes{InPlace: true, Changed: changed}
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
