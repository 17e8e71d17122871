package common

import (
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// Pager is a long text read by scrolling: the message log, a job's log.
// It moves with the shared KeyMap's navigation keys (not the viewport's own
// bindings), wraps long lines, and draws only the lines on screen. A
// following pager stays at the end as lines arrive, like `tail -f`;
// scrolling up stops following and G (bottom) starts it again.
type Pager struct {
	view   viewport.Model
	follow bool
}

// NewPager returns an empty pager; follow makes it keep to the end.
func NewPager(follow bool) Pager {
	v := viewport.New()
	v.SoftWrap = true
	return Pager{view: v, follow: follow}
}

// SetSize sets the area the pager draws in.
func (p *Pager) SetSize(width, height int) {
	p.view.SetWidth(max(1, width))
	p.view.SetHeight(max(1, height))
	if p.follow {
		p.view.GotoBottom()
	}
}

// SetLines replaces the text; the reader keeps their place unless the pager
// follows the end.
func (p *Pager) SetLines(lines []string) {
	p.view.SetContentLines(lines)
	if p.follow {
		p.view.GotoBottom()
	}
}

// Following reports whether the pager keeps to the end.
func (p *Pager) Following() bool { return p.follow }

// SetFollow starts or stops following the end.
func (p *Pager) SetFollow(follow bool) {
	p.follow = follow
	if follow {
		p.view.GotoBottom()
	}
}

// HandleKey scrolls for a navigation key and reports whether it was one.
func (p *Pager) HandleKey(msg tea.KeyPressMsg, k *KeyMap) bool {
	_, ok := p.Bindings(k, 0, 0).Handle(&Context{}, msg)
	return ok
}

// Bindings are the pager's keys: ↑↓ (hint is its place in the hint bar),
// pages, the top, and the bottom, from where the pager follows new lines;
// column is theirs in `?`.
func (p *Pager) Bindings(k *KeyMap, hint, column int) Bindings {
	scroll := func(do func()) func() tea.Cmd {
		return func() tea.Cmd {
			do()
			p.follow = p.follow && p.view.AtBottom()
			return nil
		}
	}
	bottomHint := 0
	if hint > 0 {
		bottomHint = hint + 1
	}
	return Bindings{
		{Key: k.Move, Hint: hint, Column: NoHelp},
		{Key: k.Up, Run: scroll(func() { p.view.ScrollUp(1) }), Column: column},
		{Key: k.Down, Run: scroll(func() { p.view.ScrollDown(1) }), Column: column},
		{Key: k.PageUp, Run: scroll(p.view.PageUp), Column: column},
		{Key: k.PageDown, Run: scroll(p.view.PageDown), Column: column},
		{Key: k.Top, Run: scroll(func() { p.view.GotoTop() }), Column: column},
		{Key: k.Bottom, Help: "bottom, follow", Short: "follow", Run: func() tea.Cmd { p.SetFollow(true); return nil }, Hint: bottomHint, Column: column},
	}
}

// Position says where the reader is: "12–40 of 120".
func (p *Pager) Position() (first, last, total int) {
	total = p.view.TotalLineCount()
	first = min(total, p.view.YOffset()+1)
	last = min(total, p.view.YOffset()+p.view.VisibleLineCount())
	return first, last, total
}

// View draws the lines on screen.
func (p *Pager) View() string { return p.view.View() }
