package theme

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// styles lists every lipgloss style of the sheet by field name.
func styles(s *Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if st, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = st
		}
	}
	for state, ss := range map[string]textinput.StyleState{"Focused": s.TextInput.Focused, "Blurred": s.TextInput.Blurred} {
		for _, f := range []struct {
			name string
			st   lipgloss.Style
		}{{"Text", ss.Text}, {"Placeholder", ss.Placeholder}, {"Suggestion", ss.Suggestion}, {"Prompt", ss.Prompt}} {
			out["TextInput."+state+"."+f.name] = f.st
		}
	}
	out["TextInput.Cursor"] = lipgloss.NewStyle().Foreground(s.TextInput.Cursor.Color)
	return out
}

// TestNoColorDrawsNoColour: with NO_COLOR no style sets a foreground,
// background or border colour (ANSI 38, 48); emphasis stays.
func TestNoColorDrawsNoColour(t *testing.T) {
	for _, dark := range []bool{true, false} {
		sheet := styles(New(dark, true))
		if len(sheet) < 20 {
			t.Fatalf("found only %d styles", len(sheet))
		}
		for name, st := range sheet {
			out := st.Render("x")
			if strings.Contains(out, "[38;") || strings.Contains(out, ";38;") || strings.Contains(out, "[48;") || strings.Contains(out, ";48;") {
				t.Errorf("dark=%v %s draws a colour with NO_COLOR: %q", dark, name, out)
			}
		}
	}
	colored := New(true, false)
	if out := colored.StatusError.Render("x"); !strings.Contains(out, "38;") {
		t.Errorf("without NO_COLOR the error style has no colour: %q", out)
	}
}

func TestNoColorRequested(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if NoColorRequested() {
		t.Error("an empty NO_COLOR asked for no colour")
	}
	t.Setenv("NO_COLOR", "1")
	if !NoColorRequested() {
		t.Error("NO_COLOR=1 not honoured")
	}
}

// TestStatesHaveSymbols: each pair of states a colour tells apart is also
// told apart in text.
func TestStatesHaveSymbols(t *testing.T) {
	s := DefaultSymbols
	pairs := [][2]string{{s.On, s.Off}, {s.Marked, ""}, {s.Marked, " "}, {s.Expanded, s.Collapsed}, {s.Healthy, s.Unhealthy}, {s.Error, s.Notice}}
	for _, p := range pairs {
		if p[0] == "" || p[0] == p[1] {
			t.Errorf("states drawn alike: %q and %q", p[0], p[1])
		}
	}
	jobStates := []string{s.JobRunning, s.JobQueued, s.JobCanceled, s.JobUnknown, s.Notice, s.Warning, s.Error}
	seen := map[string]bool{}
	for _, sym := range jobStates {
		if sym == "" || seen[sym] {
			t.Errorf("job states drawn alike or blank: %q in %q", sym, jobStates)
		}
		seen[sym] = true
	}
	if New(true, true).Toggle(true) == New(true, true).Toggle(false) {
		t.Error("a toggle on and off look the same without colour")
	}
}

// TestEverySheetHasItsOwnGeneration: caches of rendered text key on the
// Generation, so two sheets, even alike, never share one.
func TestEverySheetHasItsOwnGeneration(t *testing.T) {
	a, b := New(true, false), New(true, false)
	if a.Generation() == b.Generation() {
		t.Errorf("two sheets share generation %d", a.Generation())
	}
}

// One glyph per kind everywhere (issue 30: the connection was ⛁ in the
// tree and ◉ in the graph's legend): the graph's glyph of each kind starts
// the tree's label of it, in either alphabet.
func TestOneGlyphPerKind(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		labels, graph := kindLabels(ascii), UnicodeGraph
		if ascii {
			graph = ASCIIGraph
		}
		for kind, label := range labels {
			if glyph := graph.Kind(kind); !strings.HasPrefix(label, glyph+" ") {
				t.Errorf("ascii %v: %s is %q in the graph, %q in the tree", ascii, kind, glyph, label)
			}
		}
	}
	if DefaultSymbols.Kinds["connection"] != "⛁ connection" && !asciiRequested {
		t.Errorf("the connection is %q in the tree", DefaultSymbols.Kinds["connection"])
	}
}
