package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit cuts or pads s to exactly h lines no wider than w, so that a pane's
// view fills the size it was given and no more.
func Fit(s string, w, h int) string {
	var f Fitter
	return f.Fit(s, w, h)
}

// Fitter is Fit with a memory of the lines of its last frame and their
// widths: a frame mostly repeats the rows of the one before, and only the
// lines not seen then are measured (measuring is most of a redraw's cost).
// The zero Fitter is ready; one Fitter serves one view.
type Fitter struct {
	last, next map[string]int
}

// Fit is the package's Fit, measuring only lines new since the last call.
func (f *Fitter) Fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	if f.next == nil {
		f.next = make(map[string]int, len(lines))
	}
	for i, l := range lines {
		width, ok := f.last[l]
		if !ok {
			width = ansi.StringWidth(l)
		}
		f.next[l] = width
		if width > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	f.last, f.next = f.next, f.last
	clear(f.next)
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
