package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// PadRight fills s with spaces to w cells; a wider s comes back as it is
// (AlignLeft cuts it).
func PadRight(s string, w int) string {
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return s + strings.Repeat(" ", pad)
	}
	return s
}

// AlignLeft is s in exactly w cells, as a table's column wants it: cut with
// "…" when wider, followed by spaces when narrower.
func AlignLeft(s string, w int) string { return PadRight(ansi.Truncate(s, w, "…"), w) }

// AlignRight is AlignLeft with the spaces before s (numbers, durations).
func AlignRight(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return strings.Repeat(" ", pad) + s
	}
	return s
}
