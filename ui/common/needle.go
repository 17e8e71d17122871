package common

import (
	"fmt"
	"strings"
)

// Needle is a list filter as typed: text a row must contain, any case, or,
// behind a leading !, text it must not contain (!CANCELED hides the
// canceled). A lone ! filters nothing.
type Needle struct {
	text   string
	negate bool
}

// ParseNeedle reads a filter.
func ParseNeedle(filter string) Needle {
	text, negate := strings.CutPrefix(filter, "!")
	return Needle{text: strings.ToLower(text), negate: negate}
}

// Empty reports whether the needle lets every row through.
func (n Needle) Empty() bool { return n.text == "" }

// Match reports whether a lower-cased haystack passes the filter.
func (n Needle) Match(haystack string) bool {
	return n.text == "" || strings.Contains(haystack, n.text) != n.negate
}

// MatchCount is how the filter line counts what a filter left: "3 of 12".
func MatchCount(matches, total int) string {
	return fmt.Sprintf("%d of %d", matches, total)
}
