package jobs

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Answers to reads made before a new login, or for a view since closed and
// opened again, are dropped: each carries a ticket no longer current.
func TestStaleAnswersAreDropped(t *testing.T) {
	tests := []struct {
		name  string
		stale func(p *Pane) tea.Msg // takes a ticket, then makes it stale
		check func(t *testing.T, p *Pane)
	}{
		{"a poll made as the previous user", func(p *Pane) tea.Msg {
			msg := indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: []model.RunningJob{runningJob(99, "Secret", model.StateRunning, clockAt)}})
			p.Update(common.LoggedInMsg{})
			return msg
		}, func(t *testing.T, p *Pane) {
			if p.table.rows[99] != nil {
				t.Error("the previous user's job reached the new dashboard")
			}
		}},
		{"a status round made as the previous user", func(p *Pane) tea.Msg {
			p.Update(polled(p, []model.RunningJob{runningJob(41, "Events", model.StateRunning, clockAt)}))
			msg := jobStatusMsg{ticket: p.status.reads.Next(), results: []statusResult{running(41, 80, time.Second)}}
			p.Update(common.LoggedInMsg{})
			p.Update(polled(p, []model.RunningJob{runningJob(41, "Events", model.StateRunning, clockAt)}))
			return msg
		}, func(t *testing.T, p *Pane) {
			if r := p.table.rows[41]; r == nil || r.hasProgress {
				t.Errorf("the previous user's progress reached the new dashboard: %+v", r)
			}
		}},
		{"a history page of a history opened again", func(p *Pane) tea.Msg {
			p.openHistory(241, "Orders.imp")
			msg := historyMsg{ticket: p.history.reads.Latest(), configID: 241, total: 1, entries: []model.HistoryEntry{{ID: 7}}}
			p.openHistory(241, "Orders.imp")
			return msg
		}, func(t *testing.T, p *Pane) {
			if len(p.history.entries) != 0 {
				t.Error("the page asked for by the closed history filled the new one")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := dashboardAt(t, 100, 12)
			p.Update(tt.stale(p))
			tt.check(t, p)
		})
	}
}
