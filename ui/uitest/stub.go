package uitest

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Stub stands in for a pane a test does not drive: it shows its title and
// a note, centred, and does nothing else.
type Stub struct {
	ctx           *common.Context
	title, note   string
	width, height int
}

// NewStub is a stub pane titled title that shows note.
func NewStub(ctx *common.Context, title, note string) *Stub {
	return &Stub{ctx: ctx, title: title, note: note}
}

func (p *Stub) Init() tea.Cmd                         { return nil }
func (p *Stub) Update(tea.Msg) (common.Pane, tea.Cmd) { return p, nil }
func (p *Stub) SetSize(width, height int)             { p.width, p.height = width, height }
func (p *Stub) Title() string                         { return p.title }
func (p *Stub) Bindings() common.Bindings             { return nil }

func (p *Stub) View() string {
	st := p.ctx.Styles
	text := st.PaneTitle.Render(p.title) + "\n\n" + st.Placeholder.Render(p.note)
	return lipgloss.Place(p.width, p.height, lipgloss.Center, lipgloss.Center, text)
}
