package folders

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// report is the frame the plan and diff dialogs share: a title, a few
// lines that sum up, a list long enough to scroll (a plan of 10,000
// files), and the dialog's keys. Lines are cleaned here, since they name
// what a server sent, and wrapped to the box once per size, so the pager
// draws only the lines on screen.
type report struct {
	ctx           *common.Context
	danger        bool
	title, sub    string
	head          []reportLine
	items         []reportLine
	empty         string // what the list says when it has no line
	pager         common.Pager
	width, height int
	wrappedAt     int    // the inner width the pager's lines were wrapped to
	generation    uint64 // the styles they were drawn with
	// keys are the dialog's bindings, which handle its keys and draw its
	// hints and `?`; a binding that closes the dialog sets closed.
	keys   func() common.Bindings
	closed bool
}

// reportLine is one line of a report with the theme's style it is drawn in;
// lead, when set, is a column before the text (a plan's action), and the
// text's wrapped lines are indented by its width.
type reportLine struct {
	text  string
	style lipgloss.Style
	lead  string
}

func newReport(ctx *common.Context) report {
	return report{ctx: ctx, pager: common.NewPager(false)}
}

// setItems replaces the list, read from its top again.
func (r *report) setItems(items []reportLine) {
	r.items, r.wrappedAt, r.pager = items, 0, common.NewPager(false)
}

func (r *report) box() lipgloss.Style {
	if r.danger {
		return r.ctx.Styles.DialogDanger
	}
	return r.ctx.Styles.Dialog
}

func (r *report) inner() int {
	return max(20, min(100, r.width-r.box().GetHorizontalFrameSize()))
}

// frameLines are the lines around the list: title, sub-title, a blank,
// the head, a blank above the list and the buttons below it.
func (r *report) frameLines() int { return 2 + 1 + len(r.head) + 1 + 1 + 1 }

// listHeight is how many lines of the list show: what the terminal leaves,
// at most the list's own length.
func (r *report) listHeight(lines int) int {
	avail := r.height - r.box().GetVerticalFrameSize() - r.frameLines()
	return max(1, min(lines, avail))
}

// wrap draws the list's lines at the box's width, once per width and theme.
func (r *report) wrap() {
	inner, gen := r.inner(), r.ctx.Styles.Generation()
	if r.wrappedAt == inner && r.generation == gen {
		return
	}
	var lines []string
	for _, it := range r.items {
		lead := common.Clean(it.lead)
		indent := strings.Repeat(" ", ansi.StringWidth(lead))
		wrapped := strings.Split(it.style.Width(max(10, inner-len(indent))).Render(common.Clean(it.text)), "\n")
		for i, l := range wrapped {
			if i == 0 {
				wrapped[i] = it.style.Render(lead) + l
			} else {
				wrapped[i] = indent + l
			}
		}
		lines = append(lines, wrapped...)
	}
	if len(lines) == 0 {
		lines = []string{r.ctx.Styles.Empty.Render(r.empty)}
	}
	r.pager.SetLines(lines)
	r.pager.SetSize(inner, r.listHeight(len(lines)))
	r.wrappedAt, r.generation = inner, gen
}

// SetSize implements common.Dialog (through the dialogs that embed report).
func (r *report) SetSize(width, height int) {
	r.width, r.height, r.wrappedAt = width, height, 0
}

// scrollBindings are the list's keys, in `?` only: ↑↓ is in the hint bar.
func (r *report) scrollBindings() common.Bindings {
	return r.pager.Bindings(r.ctx.Keys, 0, 1)
}

// view draws the report with buttons, the words of the dialog's keys.
func (r *report) view(buttons string) string {
	r.wrap()
	st := r.ctx.Styles
	inner, box := r.inner(), r.box()
	titleStyle := st.DialogTitle
	title := common.Clean(r.title)
	if r.danger {
		titleStyle, title = st.DialogDangerTitle, st.Symbols.Warning+" "+title
	}
	lines := []string{titleStyle.Render(ansi.Truncate(title, inner, "…")), st.Label.Render(ansi.Truncate(common.Clean(r.sub), inner, "…")), ""}
	for _, h := range r.head {
		lines = append(lines, h.style.Render(ansi.Truncate(common.Clean(h.text), inner, "…")))
	}
	// Above the list: which of its lines show, when not all of them do.
	above := ""
	if first, last, total := r.pager.Position(); total > last-first+1 {
		above = st.Label.Render(ansi.Truncate(fmt.Sprintf("lines %d–%d of %d (↑↓ pgup pgdn)", first, last, total), inner, "…"))
	}
	lines = append(lines, above, r.pager.View(), "", buttons)
	return box.Width(inner + box.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// button draws a key as the dialogs' buttons do: "[y] restore".
func button(st lipgloss.Style, b key.Binding, words string) string {
	return st.Render("[" + b.Help().Key + "] " + words)
}

// buttons puts the buttons shown on one line.
func buttons(shown ...string) string {
	return strings.Join(slices.DeleteFunc(shown, func(s string) bool { return s == "" }), "  ")
}

// update runs a key press through the dialog's bindings; self is the
// dialog, or nil once a key closed it.
func (r *report) update(self common.Dialog, msg tea.Msg) (common.Dialog, tea.Cmd) {
	var cmd tea.Cmd
	if press, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ = r.keys().Handle(r.ctx, press)
	}
	if r.closed {
		return nil, cmd
	}
	return self, cmd
}

// ShortHelp implements help.KeyMap: the hint bar, from the bindings.
func (r *report) ShortHelp() []key.Binding { return r.keys().Hints(r.ctx) }

// FullHelp implements help.KeyMap: `?`, from the bindings, the disabled
// keys apart.
func (r *report) FullHelp() [][]key.Binding {
	columns, disabled, _ := r.keys().Help(r.ctx)
	if len(disabled) > 0 {
		columns = append(columns, disabled)
	}
	return columns
}
