package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// keptMessages bounds the message log: a long session forgets its oldest
// notices rather than grow without end.
const keptMessages = 1000

// logEntry is one status-line message as it was said.
type logEntry struct {
	at    time.Time
	level common.Level
	text  string
}

// messageLog is every notice and error of the session, oldest first, so
// that one the status line cut short or replaced can be read whole (L).
type messageLog struct {
	entries []logEntry
}

func (l *messageLog) add(at time.Time, msg common.StatusMsg) {
	if strings.TrimSpace(msg.Text) == "" {
		return
	}
	if len(l.entries) == keptMessages {
		l.entries = append(l.entries[:0], l.entries[1:]...)
	}
	l.entries = append(l.entries, logEntry{at: at, level: msg.Level, text: common.Clean(msg.Text)})
}

// logDialog shows the message log, newest first, each message whole.
type logDialog struct {
	ctx           *common.Context
	entries       []logEntry
	pager         common.Pager
	styles        uint64 // the Generation of the styles the pager's lines hold
	width, height int
}

func newLogDialog(ctx *common.Context, log *messageLog) *logDialog {
	return &logDialog{ctx: ctx, entries: append([]logEntry(nil), log.entries...), pager: common.NewPager(false)}
}

// SetSize implements common.Dialog: the log takes the whole pane area.
func (d *logDialog) SetSize(width, height int) {
	d.width, d.height = width, height
	d.pager.SetSize(width, height-1)
	d.setLines()
}

// setLines draws the entries for the width and the current styles.
func (d *logDialog) setLines() {
	d.pager.SetLines(d.lines())
	d.styles = d.ctx.Styles.Generation()
}

// lines are the entries, newest first, wrapped to the width under their
// time so that a long message reads whole.
func (d *logDialog) lines() []string {
	st := d.ctx.Styles
	if len(d.entries) == 0 {
		return []string{st.Empty.Render("no messages yet")}
	}
	const indent = "           " // the width of "15:04:05 ✗ "
	wrap := lipgloss.NewStyle().Width(max(10, d.width-len(indent)))
	var out []string
	for i := len(d.entries) - 1; i >= 0; i-- {
		e := d.entries[i]
		mark, style := " ", st.Value
		switch e.level {
		case common.LevelError:
			mark, style = st.Symbols.Error, st.StatusError
		case common.LevelNotice:
			mark, style = st.Symbols.Notice, st.StatusNotice
		}
		for j, l := range strings.Split(wrap.Render(e.text), "\n") {
			prefix := indent
			if j == 0 {
				prefix = st.Label.Render(e.at.Format("15:04:05")) + " " + style.Render(mark) + " "
			}
			out = append(out, prefix+strings.TrimRight(l, " "))
		}
	}
	return out
}

// Update implements common.Dialog.
func (d *logDialog) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	k := d.ctx.Keys
	if key.Matches(press, k.Back, k.Log) {
		return nil, nil
	}
	d.pager.HandleKey(press, k)
	return d, nil
}

// View implements common.Dialog.
func (d *logDialog) View() string {
	st := d.ctx.Styles
	if d.styles != st.Generation() {
		d.setLines()
	}
	title := st.PaneTitle.Render("Messages") + st.Label.Render(fmt.Sprintf("  %s, newest first (esc closes)",
		common.Plural(len(d.entries), "message")))
	return common.Fit(title+"\n"+d.pager.View(), d.width, d.height)
}

// ShortHelp implements help.KeyMap.
func (d *logDialog) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	return []key.Binding{k.Move, k.PageDown, k.Back}
}

// FullHelp implements help.KeyMap.
func (d *logDialog) FullHelp() [][]key.Binding {
	k := d.ctx.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Back}}
}
