package jobs

import (
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// TestStopBeforeTheFirstPoll: a row this console just triggered by path has
// no file id until a poll lists it; its stop addresses the path, not file 0.
func TestStopBeforeTheFirstPoll(t *testing.T) {
	p := newTestPane(nil, 100, 12, func() time.Time { return clockAt })
	orders := api.Path("/Data/ImportJobs/Orders.imp")
	p.Update(triggeredMsg{ref: orders, label: orders.String(), answer: model.Triggered{JobExecutionID: 50, JobExecutionUser: "admin"}})
	wantConfirm(t, press(p, "s"), stopRequest{ref: orders, label: "Orders.imp #50", execID: 50})
}
