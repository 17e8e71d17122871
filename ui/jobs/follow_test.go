package jobs

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// historyOn opens the history of configuration 241 with entries.
func historyOn(t *testing.T, entries ...model.HistoryEntry) *Pane {
	t.Helper()
	p := dashboardAt(t, 120, 20)
	p.Update(historyRequest{configID: 241, label: "Events.imp"})
	p.Update(historyMsg{ticket: p.history.reads.Latest(), configID: 241, total: len(entries), entries: entries})
	return p
}

// startedTasks are the labels of the tasks cmd starts, quiet ones marked.
func startedTasks(cmd tea.Cmd) []string {
	var out []string
	for _, m := range uitest.Messages(cmd) {
		if s, ok := m.(common.TaskStartedMsg); ok {
			label := s.Label
			if s.Quiet {
				label += " (quiet)"
			}
			out = append(out, label)
		}
	}
	return out
}

// The page read again after a run's data was deleted keeps the cursor on
// that run (bug 5 of issue 30: it went to the top, so the next d offered
// another run).
func TestHistoryRereadKeepsTheCursor(t *testing.T) {
	p := historyOn(t, model.HistoryEntry{ID: 41, JobStatus: model.StateCompleted},
		model.HistoryEntry{ID: 37, JobStatus: model.StateCompleted}, model.HistoryEntry{ID: 33, JobStatus: model.StateCompleted})
	uitest.Press(p, "j")
	p.Update(deletedMsg{execID: 37, answer: model.DataDeletion{Outcome: model.DeletionMarked}})
	p.Update(historyMsg{ticket: p.history.reads.Next(), configID: 241, total: 3, entries: []model.HistoryEntry{
		{ID: 41, JobStatus: model.StateCompleted}, {ID: 37, JobStatus: model.StateCompleted, DataDeleted: true}, {ID: 33, JobStatus: model.StateCompleted}}})
	if e, _ := p.history.selected(); e.ID != 37 {
		t.Errorf("the cursor went to #%d, want #37", e.ID)
	}
}

// An open history follows the platform without r (issue 30: a run showed
// RUNNING a minute after it completed): the jobs poll that no longer lists
// a run the page shows running, lists it in another state, or lists a new
// run of the job, reads the page again, quietly; a poll that changes
// nothing reads nothing.
func TestOpenHistoryFollowsThePoll(t *testing.T) {
	running := runningJob(45, "Events", model.StateRunning, clockAt)
	running.DapJobConfigurationID = 241
	unattributed := running // an older platform's poll names no job
	unattributed.DapJobConfigurationID = 0
	entry := func(id int64, state model.JobState) []model.HistoryEntry {
		return []model.HistoryEntry{{ID: id, JobStatus: state}}
	}
	tests := []struct {
		name  string
		page  []model.HistoryEntry
		polls []model.RunningJob
		reads bool
	}{
		{"a run shown running has ended", entry(44, model.StateRunning), nil, true},
		{"a new run started", entry(44, model.StateCompleted), []model.RunningJob{running}, true},
		{"a run shown queued now runs", entry(45, model.StateQueued), []model.RunningJob{running}, true},
		{"a run shown queued now runs, its job unnamed", entry(45, model.StateQueued), []model.RunningJob{unattributed}, true},
		{"a run shown running still runs", entry(45, model.StateRunning), []model.RunningJob{running}, false},
		{"nothing changed", entry(44, model.StateCompleted), nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := historyOn(t, tt.page...)
			_, cmd := p.Update(polled(p, tt.polls))
			read := slices.Contains(startedTasks(cmd), "reading history of Events.imp (quiet)")
			if read != tt.reads {
				t.Errorf("the poll read the history again: %v, want %v (tasks %q)", read, tt.reads, startedTasks(cmd))
			}
		})
	}
}
