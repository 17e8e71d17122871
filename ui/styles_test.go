package ui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
)

// backgroundSpy is a pane that fails the test if the terminal's background
// reaches it: the root swaps the styles, and the pane's caches notice.
type backgroundSpy struct {
	common.Pane
	t *testing.T
}

func (s backgroundSpy) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	if _, ok := msg.(tea.BackgroundColorMsg); ok {
		s.t.Errorf("%s was sent the background colour", s.Title())
	}
	var cmd tea.Cmd
	s.Pane, cmd = s.Pane.Update(msg)
	return s, cmd
}

// TestLightBackgroundRedrawsEveryPane: after the terminal reports a light
// background, each pane draws as one built with the light styles from the
// start, though no pane is told.
func TestLightBackgroundRedrawsEveryPane(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	build := func(ctx *common.Context) *Model {
		panes := []common.Pane{folders.New(ctx), connections.New(ctx), jobs.New(ctx)}
		for i, p := range panes {
			panes[i] = backgroundSpy{Pane: p, t: t}
		}
		m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, panes...)})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
		return m
	}
	m := build(common.NewContext(nil, "http://127.0.0.1:1", "admin", "", false))
	dark := make([]string, len(m.panes))
	for i := range m.panes {
		dark[i] = m.Pane(i).View()
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})

	lightCtx := common.NewContext(nil, "http://127.0.0.1:1", "admin", "", false)
	lightCtx.Styles = theme.New(false, lightCtx.Styles.NoColor)
	light := build(lightCtx)
	for i := range m.panes {
		want := light.Pane(i).View()
		if want == dark[i] {
			t.Fatalf("%s: the light and dark themes draw the same pane; the test shows nothing", m.Pane(i).Title())
		}
		if got := m.Pane(i).View(); got != want {
			t.Errorf("%s still draws with the dark styles:\n got %q\nwant %q", m.Pane(i).Title(), got, want)
		}
	}
}
