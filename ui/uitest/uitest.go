// Package uitest holds what the console's model tests share: key presses
// as a terminal sends them, and commands run the way the program runs them.
package uitest

import (
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// namedKeys are the keys whose name, as key.Binding spells it, is not the
// text they type.
var namedKeys = map[string]tea.KeyPressMsg{
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"space":     {Code: tea.KeySpace, Text: " "},
	"backspace": {Code: tea.KeyBackspace},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
}

// Key is the key press a terminal sends for a key name as key.Binding
// spells it ("q", "G", "enter", "shift+tab", "ctrl+c", "space").
func Key(name string) tea.KeyPressMsg {
	if k, ok := namedKeys[name]; ok {
		return k
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

// Expand runs cmd and returns the messages it produced, in order: batches
// and sequences opened, a task's result in place of the task, and the
// task-started notes dropped.
func Expand(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		var out []tea.Msg
		for i := range v.Len() {
			out = append(out, Expand(v.Index(i).Interface().(tea.Cmd))...)
		}
		return out
	}
	switch m := msg.(type) {
	case common.TaskDoneMsg:
		return []tea.Msg{m.Msg}
	case common.TaskStartedMsg:
		return nil
	}
	return []tea.Msg{msg}
}
