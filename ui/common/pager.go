package common

import (
	"charm.land/bubbles/v2/key"
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
	switch {
	case key.Matches(msg, k.Up):
		p.view.ScrollUp(1)
	case key.Matches(msg, k.Down):
		p.view.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		p.view.PageUp()
	case key.Matches(msg, k.PageDown):
		p.view.PageDown()
	case key.Matches(msg, k.Top):
		p.view.GotoTop()
	case key.Matches(msg, k.Bottom):
		p.SetFollow(true)
		return true
	default:
		return false
	}
	p.follow = p.follow && p.view.AtBottom()
	return true
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
