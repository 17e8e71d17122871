package connections

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/dapconsole/dapconsole/ui/uitest"
)

// Over SSH e is not offered, in the hint bar or in ? (bug 9 of issue 30: it
// was, though refused); ? marks it ✗ with the reason, and pressing it says
// the reason and runs nothing.
func TestEditNotOfferedOverSSH(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(3))
	p.ctx.Served = true
	offers := func(keys []key.Binding) bool {
		return slices.ContainsFunc(keys, func(b key.Binding) bool { return slices.Contains(b.Keys(), "e") })
	}
	if offers(p.Bindings().Hints(p.ctx)) {
		t.Error("the hint bar offers e over SSH")
	}
	columns, disabled, reasons := p.Bindings().Help(p.ctx)
	for _, c := range columns {
		if offers(c) {
			t.Error("? offers e over SSH")
		}
	}
	if !offers(disabled) || !slices.Contains(reasons, editOverSSH) {
		t.Errorf("? does not mark e disabled (%v) with its reason (%q)", disabled, reasons)
	}
	if got := uitest.Messages(uitest.Press(p, "e")); !uitest.OnlyRefusal(got, editOverSSH) {
		t.Errorf("e over SSH sent %#v", got)
	}
}
