package jobs

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The dashboard's rows follow new styles: their caches key on them.
func TestNewStylesRedrawTheRows(t *testing.T) {
	uitest.NewStylesRedraw(t, func() (func() string, *common.Context) {
		p := dashboardAt(t, 100, 12)
		return p.View, p.ctx
	})
}

// A marked row carries the theme's mark in the theme's marked style; no
// glyph of its own.
func TestMarkedRowTakesTheThemesMark(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	p := dashboardAt(t, 100, 12)
	p.ctx.Styles = theme.New(true, false)
	uitest.Press(p, "j", "space") // marks #41, running; the cursor moves on
	st := p.ctx.Styles
	if !strings.Contains(p.View(), st.MarkedRow.Render(st.Symbols.Marked)+" ") {
		t.Errorf("no mark drawn in the marked style:\n%s", uitest.Screen(p.View()))
	}
	uitest.Press(p, "k") // onto the marked row: the selection draws it whole
	if line := strings.Split(uitest.Screen(p.View()), "\n")[3]; !strings.HasPrefix(line, st.Symbols.Cursor+st.Symbols.Marked+" ") {
		t.Errorf("the selected marked row reads %q\n%s", line, uitest.Screen(p.View()))
	}
}
