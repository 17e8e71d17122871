package uitest

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Type types text into d one rune at a time and returns the dialog that
// follows.
func Type(d common.Dialog, text string) common.Dialog {
	for _, r := range text {
		d, _ = d.Update(Key(string(r)))
	}
	return d
}

// Submit presses enter in d and settles what follows.
func Submit(d common.Dialog) (common.Dialog, []tea.Msg) {
	return Settle(d.Update(Key("enter")))
}

// Settle runs cmd, d's answer to a message, and, as the root would, gives
// d every message that follows (the answer of a form's Check of the local
// disk) while it is open. It returns d, nil once it closed, and the
// messages in order.
func Settle(d common.Dialog, cmd tea.Cmd) (common.Dialog, []tea.Msg) {
	var out []tea.Msg
	for queue := Expand(cmd); len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		if d != nil {
			var next tea.Cmd
			d, next = d.Update(queue[0])
			queue = append(queue, Expand(next)...)
		}
	}
	return d, out
}
