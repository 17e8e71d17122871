package common

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// TextInput is a bubbles text input drawn in the theme's TextInput styles.
// It takes them at View whenever they are not the ones it holds (it keys on
// their Generation, as every rendering cache does), so an input made before
// the terminal reported its background follows it.
type TextInput struct {
	textinput.Model
	ctx    *Context
	styles uint64 // the Generation of the styles it holds
}

// NewTextInput returns an empty input with no prompt. It reads nothing of
// ctx until View, so a task may build one.
func NewTextInput(ctx *Context) TextInput {
	in := TextInput{Model: textinput.New(), ctx: ctx}
	in.Prompt = ""
	return in
}

func (t *TextInput) restyle() {
	if g := t.ctx.Styles.Generation(); g != t.styles {
		t.SetStyles(t.ctx.Styles.TextInput)
		t.styles = g
	}
}

// Update passes msg (a key) to the input.
func (t *TextInput) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	t.Model, cmd = t.Model.Update(msg)
	return cmd
}

// View draws the input in the current styles.
func (t *TextInput) View() string {
	t.restyle()
	return t.Model.View()
}
