package common_test

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

type answer struct{ text string }

// taskSteps opens a task's sequence: the command that says it started and
// the one that delivers its result.
func taskSteps(t *testing.T, task tea.Cmd) (started, done tea.Cmd) {
	t.Helper()
	steps, ok := uitest.Commands(task())
	if !ok || len(steps) != 2 {
		t.Fatalf("a task is a sequence of two commands, got %d (ok %v)", len(steps), ok)
	}
	return steps[0], steps[1]
}

// TestTaskWorkStartsWithItsStartedNote: the work runs as soon as the note
// that it started is made, before the event loop has taken that note (at
// start the loop is busy drawing), and the result still comes after it.
func TestTaskWorkStartsWithItsStartedNote(t *testing.T) {
	running := make(chan struct{})
	started, done := taskSteps(t, common.StartTask("reading /", common.Quick, func(ctx context.Context) tea.Msg {
		close(running)
		return answer{"root"}
	}))
	note, ok := started().(common.TaskStartedMsg)
	if !ok || note.Label != "reading /" {
		t.Fatalf("first message %#v, want the task's TaskStartedMsg", note)
	}
	<-running // the work began with the note alone: done has not run
	result, ok := done().(common.TaskDoneMsg)
	if !ok || result.ID != note.ID || result.Msg != (answer{"root"}) {
		t.Fatalf("second message %#v, want TaskDoneMsg of task %d with the answer", result, note.ID)
	}
}

// TestTaskCancelledByItsNote: the note's Cancel reaches the work's context.
func TestTaskCancelledByItsNote(t *testing.T) {
	started, done := taskSteps(t, common.StartTask("backup of /Data", common.Transfer, func(ctx context.Context) tea.Msg {
		<-ctx.Done()
		return answer{ctx.Err().Error()}
	}))
	started().(common.TaskStartedMsg).Cancel()
	if got := done().(common.TaskDoneMsg).Msg; got != (answer{context.Canceled.Error()}) {
		t.Fatalf("result %#v, want the work to see its context cancelled", got)
	}
}

// TestTaskPanicReachesTheProgram: a panic in the work is raised again by
// the command that delivers the result, where Bubble Tea catches panics
// and restores the terminal, and it names the work's own stack.
func TestTaskPanicReachesTheProgram(t *testing.T) {
	started, done := taskSteps(t, common.StartTask("reading /", common.Quick, func(context.Context) tea.Msg {
		panic("broken answer")
	}))
	started()
	defer func() {
		r, _ := recover().(string)
		if !strings.HasPrefix(r, "broken answer") || !strings.Contains(r, "task_test.go") {
			t.Fatalf("recovered %q, want the work's panic with its stack", r)
		}
	}()
	done()
	t.Fatal("done returned; want the work's panic")
}
