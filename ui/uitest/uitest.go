// Package uitest holds what the console's model tests share: key presses
// as a terminal sends them, commands run the way the program runs them
// (timers aside), views as plain text, a stub pane and the demo platform.
// Each pane's tests use these instead of helpers of their own.
package uitest

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
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
	"f2":        {Code: tea.KeyF2},
}

// Key is the key press a terminal sends for a key name as key.Binding
// spells it ("q", "G", "enter", "shift+tab", "ctrl+c", "space").
func Key(name string) tea.KeyPressMsg {
	if k, ok := namedKeys[name]; ok {
		return k
	}
	return tea.KeyPressMsg{Code: []rune(name)[0], Text: name}
}

// Messages runs cmd as the program does and returns the messages it
// produced, in order: batches and sequences opened, timers (see IsTimer)
// left out. These are what the root gets; a pane gets Expand's.
func Messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || IsTimer(cmd) {
		return nil
	}
	msg := cmd()
	if msg == nil {
		return nil
	}
	if cmds, ok := Commands(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, Messages(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// Commands returns the commands a batch or a sequence holds (tea.Sequence's
// message type is unexported: a slice of commands); ok is false for any
// other message.
func Commands(msg tea.Msg) (cmds []tea.Cmd, ok bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeFor[tea.Cmd]() {
		return nil, false
	}
	cmds = make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

// ForPane is msg as the root hands it to a pane: a task's result in place
// of the task; ok is false for a task-started note, which no pane gets.
func ForPane(msg tea.Msg) (tea.Msg, bool) {
	switch m := msg.(type) {
	case common.TaskDoneMsg:
		return m.Msg, true
	case common.TaskStartedMsg:
		return nil, false
	}
	return msg, true
}

// OnlyRefusal reports whether msgs are one error in the status line that
// gives reason: a key refused, nothing else done.
func OnlyRefusal(msgs []tea.Msg, reason string) bool {
	if len(msgs) != 1 {
		return false
	}
	st, ok := msgs[0].(common.StatusMsg)
	return ok && st.Level == common.LevelError && strings.Contains(st.Text, reason)
}

// Expand is Messages as a pane gets them from the root: a task's result in
// place of the task, and the task-started notes dropped.
func Expand(cmd tea.Cmd) []tea.Msg {
	var out []tea.Msg
	for _, msg := range Messages(cmd) {
		if msg, ok := ForPane(msg); ok {
			out = append(out, msg)
		}
	}
	return out
}

// sgr matches the select-graphic-rendition sequences the console's own
// styles draw with; nothing else that acts on a terminal belongs in a frame.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// Controls returns what in a frame, its own styles aside, would act on a
// terminal instead of showing: C0 and C1 controls but the newline, ESC,
// DEL and the bidirectional controls, each with a little of its context.
func Controls(frame string) []string {
	plain := sgr.ReplaceAllString(frame, "")
	var found []string
	for i, r := range plain {
		if r != '\n' && model.IsTerminalControl(r) {
			found = append(found, fmt.Sprintf("%U in %q", r, plain[max(0, i-20):min(len(plain), i+20)]))
		}
	}
	return found
}

// Hostile are the strings a hostile server sent in names, paths,
// descriptions and reasons, each of which reached the terminal before the
// console cleaned what it draws (common.Clean): an OSC 8 hyperlink, a
// title, DCS, C1 CSI, a right-to-left override, a carriage return.
var Hostile = []string{
	"\x1b]8;;https:evil.example\x1b\\link\x1b]8;;\x1b\\",
	"\x1b]0;owned\x07",
	"\x1bP+q544e\x1b\\",
	"\u009b2J",
	"\u202Egpj.exe",
	"ok\rFAILED",
}
