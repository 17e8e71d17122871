package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// BenchmarkView is the console's frame once the panes have their first
// answers: Bubble Tea calls View after every message, a dozen times before
// the first frame is on the screen (each task's notes, the terminal's
// answers), so what View costs with nothing changed is paid on every one.
func BenchmarkView(b *testing.B) {
	ctx := common.NewContext(uitest.DemoClient(b), "http://dap.test", "admin", "", false)
	m := New(Options{Context: ctx, HeartbeatOff: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	uitest.RunAsRoot(m, m.Init(), quit)
	b.ReportAllocs()
	for b.Loop() {
		m.View()
	}
}
