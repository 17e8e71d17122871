package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Confirm asks a yes/no question. A dangerous one (a delete, quitting during
// a transfer) is drawn with a double red border, a loud title, and the
// focus starts on "No", so a stray enter changes nothing.
type Confirm struct {
	ctx           *common.Context
	title, body   string
	yesLabel      string
	danger        bool
	yes           tea.Msg
	focusYes      bool
	width, height int
	yesKey, noKey key.Binding
	// notice is a confirmation with nothing to confirm: it says why an
	// action cannot be done and offers only to close.
	notice   bool
	closeKey key.Binding
}

// NewConfirm returns a confirmation that sends yes when accepted and nothing
// when refused.
func NewConfirm(ctx *common.Context, title, body, yesLabel string, danger bool, yes tea.Msg) *Confirm {
	return &Confirm{
		ctx: ctx, title: title, body: body, yesLabel: yesLabel, danger: danger, yes: yes,
		focusYes: !danger,
		yesKey:   key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", yesLabel)),
		noKey:    key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "no")),
	}
}

// NewNotice returns a box that says why something cannot be done: it offers
// no yes, only to close (enter or esc), so no key sends a request the
// server would refuse.
func NewNotice(ctx *common.Context, title, body string) *Confirm {
	c := NewConfirm(ctx, title, body, "", false, nil)
	c.notice = true
	c.closeKey = key.NewBinding(key.WithKeys("enter", "esc"), key.WithHelp("enter", "close"))
	return c
}

// SetSize implements common.Dialog.
func (c *Confirm) SetSize(width, height int) { c.width, c.height = width, height }

// Update implements common.Dialog.
func (c *Confirm) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	k := c.ctx.Keys
	if c.notice {
		if key.Matches(press, c.closeKey, k.Back) {
			return nil, nil
		}
		return c, nil
	}
	switch {
	case key.Matches(press, c.yesKey):
		return nil, c.accept()
	case key.Matches(press, c.noKey, k.Back):
		return nil, nil
	case key.Matches(press, k.NextField, k.PrevField, k.Close, k.Open) && press.String() != "enter":
		c.focusYes = !c.focusYes
	case key.Matches(press, k.Confirm):
		if c.focusYes {
			return nil, c.accept()
		}
		return nil, nil
	}
	return c, nil
}

func (c *Confirm) accept() tea.Cmd {
	return func() tea.Msg { return c.yes }
}

// View implements common.Dialog.
func (c *Confirm) View() string {
	st := c.ctx.Styles
	box, titleStyle, yesStyle := st.Dialog, st.DialogTitle, st.ButtonFocused
	if c.danger {
		box, titleStyle, yesStyle = st.DialogDanger, st.DialogDangerTitle, st.ButtonDanger
	}
	inner := boxInnerWidth(box, c.width, 56)
	yes, no := st.Button.Render("[y] "+c.yesLabel), st.Button.Render("[n] no")
	switch {
	case c.notice:
		yes, no = st.ButtonFocused.Render("[enter] close"), ""
	case c.focusYes:
		yes = yesStyle.Render("[y] " + c.yesLabel)
	default:
		no = st.ButtonFocused.Render("[n] no")
	}
	// Title and body name files as a server does: each line is cleaned for the terminal.
	title := common.Clean(c.title)
	if c.danger {
		title = st.Symbols.Warning + " " + title
	}
	body := strings.Split(c.body, "\n")
	for i, l := range body {
		body[i] = common.Clean(l)
	}
	body = strings.Split(lipgloss.NewStyle().Width(inner).Render(strings.Join(body, "\n")), "\n")
	gap := []string{""}
	if avail := c.height - box.GetVerticalFrameSize(); avail > 0 && 4+len(body) > avail {
		// Too tall for the terminal: the blank lines go, then the end of the
		// body; the title and the answers always show.
		gap = nil
		if room := avail - 2; len(body) > room {
			body = append(body[:max(0, room-1)], "…")
		}
	}
	lines := []string{titleStyle.Render(truncate(title, inner))}
	lines = append(append(append(append(lines, gap...), body...), gap...), strings.TrimRight(yes+"  "+no, " "))
	return box.Width(inner + box.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// ShortHelp implements help.KeyMap.
func (c *Confirm) ShortHelp() []key.Binding {
	if c.notice {
		return []key.Binding{c.closeKey}
	}
	return []key.Binding{c.yesKey, c.noKey, c.ctx.Keys.Back}
}

// FullHelp implements help.KeyMap.
func (c *Confirm) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }
