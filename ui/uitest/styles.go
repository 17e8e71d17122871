package uitest

import (
	"testing"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

// NewStylesRedraw checks the rule every pane's render caches follow: when
// the root swaps the styles (the terminal reported a light background),
// what the pane drew under the old ones is drawn again at its next View,
// without the pane being told. open returns a new pane, with its context,
// showing the view to check; it is called twice.
func NewStylesRedraw(t testing.TB, open func() (view func() string, ctx *common.Context)) {
	t.Helper()
	light := theme.New(false, false)

	view, ctx := open()
	dark := view()
	ctx.Styles = light

	fresh, freshCtx := open()
	freshCtx.Styles = light
	want := fresh()
	if want == dark {
		t.Fatal("the light and dark themes draw the same screen; the test shows nothing")
	}
	if got := view(); got != want {
		t.Errorf("after the new styles the pane still draws with the old ones:\n got %q\nwant %q", got, want)
	}
}
