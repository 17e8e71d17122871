package dialog

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Field is one line of a form: a text input when Text is set, else a toggle.
type Field struct {
	Name  string // key in Values
	Label string
	Text  bool
	Value string // initial text of a text field
	// Secret masks a text field as typed (a password).
	Secret bool
	On     bool // initial state of a toggle
	// Choices, for a text field, are the values it takes (users, groups):
	// they are offered as a pick list as the field is typed, and a value
	// outside them is refused with "unknown <Label>" before the submit.
	Choices []string
	// Suggested makes Choices suggestions only: a value outside them is
	// taken too (a file picker's names, where any path may be typed).
	Suggested bool
}

// Values is what a submitted form holds.
type Values struct {
	texts map[string]string
	bools map[string]bool
}

// Text returns the text of the named text field.
func (v Values) Text(name string) string { return v.texts[name] }

// Bool returns the state of the named toggle.
func (v Values) Bool(name string) bool { return v.bools[name] }

// Check is what a submit returns when its decision needs the local disk
// (does the file exist? is its folder there?): the form runs it as a task,
// since Update does no I/O, and takes its answer as the submit's own. The
// form stays open meanwhile; an edit drops an answer for the old values.
type Check func() (tea.Msg, error)

// checkedMsg brings a Check's answer back to the form that asked.
type checkedMsg struct {
	ticket common.Ticket
	msg    tea.Msg
	err    error
}

// Form is a dialog of text fields and toggles submitted with enter: the
// backup and restore options, a new group permission. Submit turns the
// values into the message that does the work (or a Check that finds it),
// or returns an error that the form shows and stays open for.
type Form struct {
	ctx           *common.Context
	title, note   string
	submitLabel   string
	fields        []Field
	inputs        map[int]*common.TextInput
	pickers       map[int]*common.Picker
	focus         int
	problem       string
	submit        func(Values) (tea.Msg, error)
	checks        common.Requests // a Check under way
	width, height int
	toggleKey     key.Binding
}

// NewForm returns a form with the focus on its first field.
func NewForm(ctx *common.Context, title, note, submitLabel string, fields []Field, submit func(Values) (tea.Msg, error)) *Form {
	f := &Form{
		ctx: ctx, title: title, note: note, submitLabel: submitLabel, fields: fields,
		inputs: map[int]*common.TextInput{}, pickers: map[int]*common.Picker{}, submit: submit,
		toggleKey: key.NewBinding(key.WithKeys(ctx.Keys.Mark.Keys()...), key.WithHelp("space", "toggle")),
	}
	for i, fl := range fields {
		if !fl.Text {
			continue
		}
		in := common.NewTextInput(ctx)
		in.SetValue(fl.Value)
		if fl.Secret {
			in.EchoMode = textinput.EchoPassword
			in.EchoCharacter = '•'
		}
		in.CursorEnd()
		f.inputs[i] = &in
		if len(fl.Choices) > 0 {
			f.pickers[i] = common.NewPicker(fl.Choices)
			f.pickers[i].Filter(fl.Value)
		}
	}
	f.focusField(0)
	return f
}

func (f *Form) focusField(i int) {
	if n := len(f.fields); n > 0 {
		i = (i%n + n) % n
	}
	for j, in := range f.inputs {
		if j == i {
			in.Focus()
		} else {
			in.Blur()
		}
	}
	f.focus = i
}

// Focused returns the name of the focused field (tests and key handling).
func (f *Form) Focused() string { return f.fields[f.focus].Name }

// SetSize implements common.Dialog.
func (f *Form) SetSize(width, height int) {
	f.width, f.height = width, height
	for _, in := range f.inputs {
		in.SetWidth(max(4, f.innerWidth()-f.labelWidth()-5))
	}
}

// Update implements common.Dialog.
func (f *Form) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	if c, ok := msg.(checkedMsg); ok {
		if !f.checks.Current(c.ticket) {
			return f, nil
		}
		f.checks.Reset()
		return f.decided(c.msg, c.err)
	}
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	f.checks.Reset() // the values a check under way saw may change
	k := f.ctx.Keys
	if f.pickKey(press) {
		return f, nil
	}
	switch {
	case key.Matches(press, k.Back):
		return nil, nil
	case key.Matches(press, k.Confirm):
		return f.trySubmit()
	case key.Matches(press, k.NextField):
		f.focusField(f.focus + 1)
		return f, nil
	case key.Matches(press, k.PrevField):
		f.focusField(f.focus - 1)
		return f, nil
	}
	if in, isText := f.inputs[f.focus]; isText {
		cmd := in.Update(press)
		f.problem = ""
		if pick := f.pickers[f.focus]; pick != nil {
			pick.Filter(in.Value())
		}
		return f, cmd
	}
	if key.Matches(press, f.toggleKey) {
		f.fields[f.focus].On = !f.fields[f.focus].On
	}
	return f, nil
}

// pickKey gives a key to the focused field's pick list: ↓ and ↑ choose,
// enter takes the choice into the field. It reports whether it took the key.
func (f *Form) pickKey(press tea.KeyPressMsg) bool {
	pick := f.pickers[f.focus]
	if pick == nil {
		return false
	}
	switch {
	case press.String() == "down" && pick.Move(1), press.String() == "up" && pick.Move(-1):
		return true
	case key.Matches(press, f.ctx.Keys.Confirm):
		chosen, ok := pick.Chosen()
		if ok {
			f.inputs[f.focus].SetValue(chosen)
			f.inputs[f.focus].CursorEnd()
			pick.Filter(chosen)
		}
		return ok
	}
	return false
}

func (f *Form) trySubmit() (common.Dialog, tea.Cmd) {
	v := Values{texts: map[string]string{}, bools: map[string]bool{}}
	for i, fl := range f.fields {
		if in, isText := f.inputs[i]; isText {
			v.texts[fl.Name] = strings.TrimSpace(in.Value())
			if pick := f.pickers[i]; pick != nil && !fl.Suggested && !pick.Known(v.texts[fl.Name]) {
				f.problem = fmt.Sprintf("unknown %s %q: choose one from the list", fl.Label, v.texts[fl.Name])
				return f, nil
			}
		} else {
			v.bools[fl.Name] = fl.On
		}
	}
	msg, err := f.submit(v)
	if check, ok := msg.(Check); ok && err == nil {
		ticket := f.checks.Next()
		return f, common.StartTask("checking "+f.title, common.Quiet, func(context.Context) tea.Msg {
			msg, err := check()
			return checkedMsg{ticket: ticket, msg: msg, err: err}
		})
	}
	return f.decided(msg, err)
}

// decided closes the form with the message that does the work, or keeps it
// open saying why not.
func (f *Form) decided(msg tea.Msg, err error) (common.Dialog, tea.Cmd) {
	if err != nil {
		f.problem = err.Error()
		return f, nil
	}
	return nil, func() tea.Msg { return msg }
}

func (f *Form) innerWidth() int { return boxInnerWidth(f.ctx.Styles.Dialog, f.width, 64) }

func (f *Form) labelWidth() int {
	w := 0
	for _, fl := range f.fields {
		if fl.Text {
			w = max(w, ansi.StringWidth(fl.Label)+1)
		}
	}
	return w
}

// View implements common.Dialog. When the box is taller than the space
// given, the lines around the focused field are kept.
func (f *Form) View() string {
	st := f.ctx.Styles
	inner := f.innerWidth()
	lines := []string{st.DialogTitle.Render(truncate(common.Clean(f.title), inner))} // titles name server files
	if f.note != "" {
		lines = append(lines, st.Label.Width(inner).Render(f.note))
	}
	head := len(lines)
	focusLine := 0
	for i, fl := range f.fields {
		marker := "  "
		if i == f.focus {
			marker = st.FieldFocused.Render(st.Symbols.Cursor) + " "
			focusLine = len(lines)
		}
		var line string
		if in, isText := f.inputs[i]; isText {
			label := st.Label.Render(common.PadRight(fl.Label, f.labelWidth()))
			line = marker + label + " " + in.View()
		} else {
			label := fl.Label
			if i == f.focus {
				label = st.FieldFocused.Render(label)
			}
			line = marker + st.Toggle(fl.On) + " " + label
		}
		lines = append(lines, ansi.Truncate(line, inner, "…"))
		if pick := f.pickers[i]; pick != nil && i == f.focus {
			for _, l := range pick.Lines(st, 3+f.labelWidth()) {
				lines = append(lines, ansi.Truncate(l, inner, "…"))
			}
		}
	}
	if f.problem != "" {
		lines = append(lines, st.StatusError.Width(inner).Render(st.Symbols.Error+" "+f.problem))
	}
	buttons := st.ButtonFocused.Render("enter "+f.submitLabel) + "  " + st.Button.Render("esc cancel")
	if avail := f.height - st.Dialog.GetVerticalFrameSize(); avail > 0 && len(lines)+1 > avail {
		lines = keepWindow(lines, head, focusLine, avail-1)
	}
	lines = append(lines, buttons)
	return st.Dialog.Width(inner + st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// keepWindow shortens lines to n, keeping the title and the focused line
// (the buttons below them are kept by the caller).
func keepWindow(lines []string, head, focus, n int) []string {
	if n <= 1 {
		return lines[:1]
	}
	body := lines[head:]
	room := n - 1
	focus -= head
	start := max(0, min(focus-room/2, len(body)-room))
	end := min(len(body), start+room)
	window := append([]string{lines[0]}, body[start:end]...)
	// An arrow in the cursor's column says more fields lie above or below.
	mark := func(i int, arrow string) {
		if strings.HasPrefix(window[i], " ") {
			window[i] = arrow + window[i][1:]
		}
	}
	if start > 0 {
		mark(1, "↑")
	}
	if end < len(body) {
		mark(len(window)-1, "↓")
	}
	return window
}

// ShortHelp implements help.KeyMap.
func (f *Form) ShortHelp() []key.Binding {
	k := f.ctx.Keys
	return []key.Binding{k.NextField, f.toggleKey, k.Confirm, k.Back}
}

// FullHelp implements help.KeyMap.
func (f *Form) FullHelp() [][]key.Binding {
	k := f.ctx.Keys
	return [][]key.Binding{{k.NextField, k.PrevField}, {f.toggleKey, k.Confirm, k.Back}}
}

func boxInnerWidth(box lipgloss.Style, avail, want int) int {
	return max(10, min(want, avail-box.GetHorizontalFrameSize()))
}

func truncate(s string, w int) string { return ansi.Truncate(s, w, "…") }
