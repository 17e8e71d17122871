package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// FilterField is the `/` line of a list pane. While it is active, typing
// narrows the list; enter keeps the filter and leaves the field, esc clears
// it and leaves, and the arrows leave the field to move among the matches
// (j and k stay letters of the filter).
type FilterField struct {
	input  TextInput
	active bool
	width  int
}

// FilterAction says what a key did in an active FilterField.
type FilterAction int

const (
	FilterEdited  FilterAction = iota // the text may have changed: filter by Value
	FilterKept                        // enter: the field closed, the filter stays
	FilterCleared                     // esc: the field closed and is empty: show everything
	FilterLeft                        // an arrow: the field closed; the key is the list's to handle
)

// NewFilterField returns an inactive field; placeholder says what it searches.
func NewFilterField(ctx *Context, placeholder string) FilterField {
	input := NewTextInput(ctx)
	input.Prompt = "/"
	input.Placeholder = placeholder
	return FilterField{input: input}
}

// Active reports whether the field takes the keys (the pane captures input).
func (f *FilterField) Active() bool { return f.active }

// Start activates the field, keeping the text of the filter in force.
func (f *FilterField) Start() tea.Cmd {
	f.active = true
	return f.input.Focus()
}

// Clear empties the field, as when esc on the list drops the filter.
func (f *FilterField) Clear() { f.input.SetValue("") }

// SetWidth sets the width of the field's line.
func (f *FilterField) SetWidth(width int) {
	f.width = width
	f.input.SetWidth(max(1, width-2))
}

// Value is the filter text.
func (f *FilterField) Value() string { return f.input.Value() }

// View draws the field's line.
func (f *FilterField) View() string { return f.input.View() }

// ViewCount draws the field's line with what the filter matched after it
// ("3 of 12"), the input narrowed to leave it room.
func (f *FilterField) ViewCount(count string) string {
	f.input.SetWidth(max(1, f.width-2-len(count)-2))
	return f.input.View() + "  " + count
}

// Line is the filter kept after the field closed, with its count: what the
// pane shows in the field's place.
func (f *FilterField) Line(filter, count string) string {
	return "/" + filter + "  " + count + "  (esc clears; a leading ! keeps what does not match)"
}

// Update takes a key while the field is active.
func (f *FilterField) Update(msg tea.KeyPressMsg, k *KeyMap) (FilterAction, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Back):
		f.close()
		f.Clear()
		return FilterCleared, nil
	case key.Matches(msg, k.Confirm):
		f.close()
		return FilterKept, nil
	case msg.String() == "up" || msg.String() == "down":
		f.close()
		return FilterLeft, nil
	}
	return FilterEdited, f.input.Update(msg)
}

func (f *FilterField) close() {
	f.active = false
	f.input.Blur()
}
