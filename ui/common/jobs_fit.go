package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts or pads s to exactly h lines no wider than w, so that a pane's
// view fills the size it was given and no more.
func Fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
