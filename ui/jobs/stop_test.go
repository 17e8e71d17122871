package jobs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestStopEndsEveryWatchedExecutionOfTheFileAsAsked: a stop cancels all of
// a file's executions, so each one this console watched ends with a
// notice, whichever row or command asked; a cancel nobody here asked for
// stays an error.
func TestStopEndsEveryWatchedExecutionOfTheFileAsAsked(t *testing.T) {
	orders := runningJob(41, "Orders", model.StateRunning, clockAt)
	ordersAgain := runningJob(42, "Orders", model.StateQueued, clockAt)
	ordersAgain.FileID = orders.FileID
	events := runningJob(43, "Events", model.StateRunning, clockAt)
	tests := []struct {
		name string
		stop func(p *Pane) stopRequest
		// asked are the executions whose end is a notice; the others are errors.
		asked []int64
	}{
		{"the stop key on one row", func(p *Pane) stopRequest {
			return stopRequest{ref: p.table.rows[41].ref, label: "Orders #41", execID: 41}
		}, []int64{41, 42}},
		{":stop by file id", func(p *Pane) stopRequest {
			return stopRequest{ref: api.FileID(orders.FileID), label: "141"}
		}, []int64{41, 42}},
		{"another file", func(p *Pane) stopRequest {
			return stopRequest{ref: api.FileID(events.FileID), label: "Events #43", execID: 43}
		}, []int64{43}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
			p.Init()
			p.Update(polled(p, []model.RunningJob{orders, ordersAgain, events}))
			for _, id := range []int64{41, 42, 43} {
				p.watched[id] = p.table.rows[id].label()
			}
			p.stop(tt.stop(p))

			p.Update(polled(p, nil)) // all three left the list
			var results []statusResult
			for _, id := range []int64{41, 42, 43} {
				results = append(results, statusResult{execID: id, status: model.JobStatus{
					JobExecutionID: ptr(id), JobStatus: model.StateCanceled}})
			}
			p.status.inFlight = true
			_, cmd := p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: results})
			notices := uitest.All[common.StatusMsg](uitest.Expand(cmd))
			if len(notices) != 3 {
				t.Fatalf("notices %v", notices)
			}
			for _, id := range []int64{41, 42, 43} {
				i := slices.IndexFunc(notices, func(n common.StatusMsg) bool {
					return strings.Contains(n.Text, fmt.Sprintf("#%d ended", id))
				})
				if i < 0 {
					t.Fatalf("no notice for #%d: %v", id, notices)
				}
				n, asked := notices[i], slices.Contains(tt.asked, id)
				wantLevel := common.LevelError
				if asked {
					wantLevel = common.LevelNotice
				}
				if n.Level != wantLevel || asked != strings.Contains(n.Text, "stopped as asked") {
					t.Errorf("#%d: %+v, want asked %v", id, n, asked)
				}
			}
		})
	}
}

// TestStopBeforeTheFirstPoll: a row this console just triggered by path has
// no file id until a poll lists it; its stop addresses the path, not file 0.
func TestStopBeforeTheFirstPoll(t *testing.T) {
	p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
	orders := api.Path("/Data/ImportJobs/Orders.imp")
	p.Update(triggeredMsg{ref: orders, label: orders.String(), answer: model.Triggered{JobExecutionID: 50, JobExecutionUser: "admin"}})
	wantConfirm(t, uitest.Press(p, "s"), stopRequest{ref: orders, label: "Orders.imp #50", execID: 50})
}
