package common

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
