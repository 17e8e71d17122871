package common

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/theme"
)

// pickerRows is how many matches a pick list shows at once.
const pickerRows = 5

// Picker is the pick list under a text field whose value is one of a known
// set (a user, a group): it offers the choices that contain what is typed,
// ↓ and ↑ choose among them, enter takes the chosen one. Typing still works,
// and Known tells a value the set lacks before any request is sent. With
// no choices (the server would not list them) it offers nothing and knows
// every value.
type Picker struct {
	choices []string
	matches []string
	sel     int // index into matches, -1 while none is chosen
}

// NewPicker returns a pick list of choices.
func NewPicker(choices []string) *Picker {
	p := &Picker{choices: slices.Clone(choices), sel: -1}
	p.Filter("")
	return p
}

// Filter keeps the choices containing value (any case), none chosen.
func (p *Picker) Filter(value string) {
	needle := strings.ToLower(strings.TrimSpace(value))
	p.matches = p.matches[:0]
	for _, c := range p.choices {
		if strings.Contains(strings.ToLower(c), needle) && c != value {
			p.matches = append(p.matches, c)
		}
	}
	p.sel = -1
}

// Move chooses the next (1) or previous (-1) match; it reports false when
// there is nothing to choose, so the key may do its usual work.
func (p *Picker) Move(delta int) bool {
	if len(p.matches) == 0 {
		return false
	}
	p.sel = max(-1, min(p.sel+delta, len(p.matches)-1))
	return true
}

// Chosen returns the chosen match, if one is.
func (p *Picker) Chosen() (string, bool) {
	if p.sel < 0 || p.sel >= len(p.matches) {
		return "", false
	}
	return p.matches[p.sel], true
}

// Known reports whether value is one of the choices (true with none).
func (p *Picker) Known(value string) bool {
	return len(p.choices) == 0 || slices.Contains(p.choices, value)
}

// Lines draws the matches around the chosen one, indented, at most
// pickerRows and a line saying how many more there are.
func (p *Picker) Lines(st *theme.Styles, indent int) []string {
	if len(p.matches) == 0 {
		return nil
	}
	start := max(0, min(p.sel-pickerRows/2, len(p.matches)-pickerRows))
	end := min(len(p.matches), start+pickerRows)
	pad := strings.Repeat(" ", indent)
	var out []string
	for i := start; i < end; i++ {
		name := Clean(p.matches[i])
		if i == p.sel {
			out = append(out, pad+st.FieldFocused.Render(st.Symbols.Cursor+" "+name))
		} else {
			out = append(out, pad+st.Label.Render("  "+name))
		}
	}
	if rest := len(p.matches) - (end - start); rest > 0 {
		out = append(out, pad+st.Label.Render(fmt.Sprintf("  … %d more (type to narrow)", rest)))
	}
	return out
}
