package folders

import (
	"testing"

	"github.com/dapconsole/dapconsole/theme"
)

// When the terminal reports a light background the root swaps the styles;
// the rows and breadcrumbs drawn under the old ones are drawn again at the next View,
// without the pane being told: its caches key on the styles.
func TestNewStylesRedrawTheRows(t *testing.T) {
	light := theme.New(false, false)

	p := newTestPane(t, 60, 10)
	dark := p.View()
	p.ctx.Styles = light

	fresh := newTestPane(t, 60, 10)
	fresh.ctx.Styles = light
	want := fresh.View()
	if want == dark {
		t.Fatal("the light and dark themes draw the same screen; the test shows nothing")
	}
	if got := p.View(); got != want {
		t.Errorf("after the new styles the pane still draws with the old ones:\n got %q\nwant %q", got, want)
	}
}
