package uitest

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Updater is a model under test: a pane, a dialog or the root.
type Updater[M any] interface {
	Update(tea.Msg) (M, tea.Cmd)
}

// Press sends key presses to m one by one, as a terminal would, and returns
// the commands they gave, batched.
func Press[M any](m Updater[M], names ...string) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(names))
	for _, n := range names {
		_, cmd := m.Update(Key(n))
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// Run delivers what cmd produces to a pane m, and what that produces,
// until nothing is left, as the program would (timers aside). It returns
// the messages keep holds back from m (status lines, dialogs, messages for
// the root); a nil keep delivers every message.
func Run[M any](m Updater[M], cmd tea.Cmd, keep func(tea.Msg) bool) []tea.Msg {
	return run(m, cmd, keep, Expand)
}

// RunAsRoot is Run for the root model, which gets tasks as they are
// (Messages): it keeps the count of running tasks and the server's health.
func RunAsRoot[M any](m Updater[M], cmd tea.Cmd, keep func(tea.Msg) bool) []tea.Msg {
	return run(m, cmd, keep, Messages)
}

func run[M any](m Updater[M], cmd tea.Cmd, keep func(tea.Msg) bool, messages func(tea.Cmd) []tea.Msg) []tea.Msg {
	var kept []tea.Msg
	for queue := messages(cmd); len(queue) > 0; queue = queue[1:] {
		if keep != nil && keep(queue[0]) {
			kept = append(kept, queue[0])
			continue
		}
		_, next := m.Update(queue[0])
		queue = append(queue, messages(next)...)
	}
	return kept
}

// timers are the functions whose commands wait on the clock; run by a
// test, they would hold it for their whole interval.
var timers = []string{
	"charm.land/bubbletea/v2.Tick.",
	"charm.land/bubbletea/v2.Every.",
	"charm.land/bubbles/v2/cursor.(*Model).Blink.",
}

// IsTimer tells a command that only waits to send a tick (tea.Tick,
// tea.Every, a text input's cursor blink): tests leave those out, since no
// test should wait on a real timer. A test that needs a tick sends it.
func IsTimer(cmd tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
	for _, t := range timers {
		if strings.HasPrefix(name, t) {
			return true
		}
	}
	return false
}

// All returns the messages of type T among msgs, in order.
func All[T any](msgs []tea.Msg) []T {
	var out []T
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// First returns the first message of type T among msgs.
func First[T any](msgs []tea.Msg) (T, bool) {
	if all := All[T](msgs); len(all) > 0 {
		return all[0], true
	}
	var zero T
	return zero, false
}

// Only returns the one message of type T among msgs; the test fails when
// there is none or more than one.
func Only[T any](t testing.TB, msgs []tea.Msg) T {
	t.Helper()
	all := All[T](msgs)
	if len(all) != 1 {
		t.Fatalf("want one %T among %#v", *new(T), msgs)
	}
	return all[0]
}

// Dialog returns the dialog msgs open, nil when they open none.
func Dialog(msgs []tea.Msg) common.Dialog {
	open, _ := First[common.OpenDialogMsg](msgs)
	return open.Dialog
}
