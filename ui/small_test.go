package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Bug 6 of issue 30: at 30×8 the too-small message was cut before the size
// it needs; at 50×14 `?` could not scroll, so some keys could not be read.
func TestSmallTerminals(t *testing.T) {
	m := newTestModel(t, false, 30, 8)
	if screen := ansi.Strip(m.Render()); !strings.Contains(strings.ReplaceAll(screen, "\n", " "), "need 40×10") {
		t.Errorf("the too-small screen does not say the size it needs:\n%s", screen)
	}

	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	m = New(Options{Context: ctx, HeartbeatOff: true})
	m.Update(tea.WindowSizeMsg{Width: 50, Height: 14})
	typeKeys(t, m, "3", "?")
	var seen strings.Builder
	for range 20 {
		seen.WriteString(ansi.Strip(m.Render()))
		typeKeys(t, m, "pgdown")
	}
	for _, column := range m.FullHelp() {
		for _, b := range column {
			if !strings.Contains(seen.String(), b.Help().Desc) {
				t.Errorf("scrolling ? never shows %q (%s)", b.Help().Desc, b.Help().Key)
			}
		}
	}
}
