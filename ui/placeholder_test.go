package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// placeholder stands in for a pane a test does not drive.
type placeholder struct {
	ctx           *common.Context
	title, note   string
	width, height int
}

func newPlaceholder(ctx *common.Context, title, note string) *placeholder {
	return &placeholder{ctx: ctx, title: title, note: note}
}

func (p *placeholder) Init() tea.Cmd                         { return nil }
func (p *placeholder) Update(tea.Msg) (common.Pane, tea.Cmd) { return p, nil }
func (p *placeholder) SetSize(width, height int)             { p.width, p.height = width, height }
func (p *placeholder) Title() string                         { return p.title }
func (p *placeholder) ShortHelp() []key.Binding              { return nil }
func (p *placeholder) FullHelp() [][]key.Binding             { return nil }

func (p *placeholder) View() string {
	st := p.ctx.Styles
	text := st.PaneTitle.Render(p.title) + "\n\n" + st.Placeholder.Render(p.note)
	return lipgloss.Place(p.width, p.height, lipgloss.Center, lipgloss.Center, text)
}

// folderPlaceholder stands in for the folders pane where a test needs the
// pane that shows folder paths (:cd goes to it) but not the tree.
type folderPlaceholder struct{ *placeholder }

func (f folderPlaceholder) Update(tea.Msg) (common.Pane, tea.Cmd) { return f, nil }
func (folderPlaceholder) CurrentPath() string                     { return "/" }
func (folderPlaceholder) CompletePath(string) []string            { return nil }
