package dialog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// A confirmation taller than the terminal keeps its title and its answers:
// the body gives way, marked as cut.
func TestConfirmFitsTheHeight(t *testing.T) {
	var body strings.Builder
	for i := range 12 {
		fmt.Fprintf(&body, "dependent %02d\n", i)
	}
	body.WriteString("this cannot be undone")
	tests := []struct {
		name          string
		width, height int
		wantAll       bool
	}{
		{"room for everything", 80, 30, true},
		{"the minimum terminal", 40, 7, false},
		{"a little short", 80, 16, false},
	}
	for _, tt := range tests {
		for _, danger := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s danger=%v", tt.name, danger), func(t *testing.T) {
				c := NewConfirm(common.NewContext(nil, "", "", "", false), "Delete /a?", body.String(), "delete", danger, nil)
				c.SetSize(tt.width, tt.height)
				view := ansi.Strip(c.View())
				lines := strings.Split(view, "\n")
				if len(lines) > tt.height {
					t.Errorf("%d lines, want at most %d:\n%s", len(lines), tt.height, view)
				}
				for _, want := range []string{"Delete /a?", "[y] delete", "[n] no"} {
					if !strings.Contains(view, want) {
						t.Errorf("%q is missing:\n%s", want, view)
					}
				}
				if got := strings.Contains(view, "this cannot be undone"); got != tt.wantAll {
					t.Errorf("whole body shown = %v, want %v:\n%s", got, tt.wantAll, view)
				}
				if !tt.wantAll && !strings.Contains(view, "…") {
					t.Errorf("a cut body is not marked:\n%s", view)
				}
			})
		}
	}
}
