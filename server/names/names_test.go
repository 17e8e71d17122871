package names_test

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/names"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		in   string
		why  string // a fragment of the refusal; "" for a good name
	}{
		{"plain", "Sales 2026.wbk", ""},
		{"accents composed", "Café ééé", ""},
		{"other scripts", "売上 データ", ""},
		{"longest", strings.Repeat("a", names.MaxBytes), ""},
		{"too long", strings.Repeat("a", names.MaxBytes+1), "more than 255"},
		{"too long in bytes", strings.Repeat("é", 128), "more than 255"},
		{"empty", "", "empty"},
		{"dot", ".", "no name"},
		{"dot dot", "..", "no name"},
		{"hidden files are names", ".system", ""},
		{"backslash", `a\b`, "backslash"},
		{"slash", "a/b", "slash"},
		{"nul", "a\x00b", "control"},
		{"escape", "a\x1b[31mb", "control"},
		{"bidi override", "a\u202eb", "control"},
		{"zero-width space", "a\u200bb", "invisible"},
		{"zero-width joiner", "a\u200db", "invisible"},
		{"byte order mark", "\ufeffa", "invisible"},
		{"soft hyphen", "a\u00adb", "invisible"},
		{"line separator", "a\u2028b", "invisible"},
		{"decomposed", "Cafe\u0301", "NFC"},
		{"not UTF-8", "a\xffb", "UTF-8"},
		{"leading space", " a", "spaces"},
		{"trailing space", "a ", "spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := names.Check(tt.in)
			switch {
			case tt.why == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.why != "" && (err == nil || !strings.Contains(err.Error(), tt.why)):
				t.Errorf("got %v, want a refusal saying %q", err, tt.why)
			}
		})
	}
}
