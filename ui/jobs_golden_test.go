package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// runTimes matches a history row's start and duration, which are those of
// the run the test just made.
var runTimes = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\d+s`)

func withJobsPane(ctx *common.Context) []common.Pane {
	return []common.Pane{folders.New(ctx), uitest.NewStub(ctx, "Connections", "tested in ui/connections"), jobs.New(ctx)}
}

// Golden screens of the job dashboard's views against the embedded
// platform with demo data. The dashboard itself moves (the demo keeps jobs
// running), so these screens are the views that hold still: a finished
// job's history, and the confirmations and answers opened over it. The
// moving dashboard has its goldens from fixed answers in ui/jobs.
// Regenerate with `go test ./ui -run TestGoldenJobs -update`.
func TestGoldenJobs(t *testing.T) {
	openHistory := func(c *console) string { return c.openOrdersHistory() }
	tests := []struct {
		name  string
		drive func(c *console) string
	}{
		{"History", openHistory},
		{"DeleteDataConfirm", func(c *console) string {
			openHistory(c)
			c.keys("d")
			return c.waitFor("Delete job data")
		}},
		{"DeleteDataMarked", func(c *console) string {
			openHistory(c)
			deleteData(c)
			c.waitFor("admin      deleted") // the history read again
			return c.waitFor("is now marked for deletion")
		}},
		{"DeleteDataAlreadyMarked", func(c *console) string {
			openHistory(c)
			deleteData(c)
			c.waitFor("admin      deleted")
			deleteData(c)
			return c.waitFor("nothing changed")
		}},
		{"StopConfirm", func(c *console) string {
			openHistory(c)
			c.keys(":")
			c.typeText("stop /Data/ImportJobs/Events.imp")
			c.keys("enter")
			return c.waitFor("Stop job")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startConsole(t, consoleOpts{panes: withJobsPane})
			c.t = t
			c.golden(runTimes.ReplaceAllString(tt.drive(c), "YYYY-MM-DD hh:mm:ss         Ns"))
		})
	}
}

// openOrdersHistory opens, in Jobs, the history of the demo's Orders
// import (its second scheduled job: execution #2, done in a moment),
// reading it again (r) until the run has finished, however long a loaded
// machine makes it.
func (c *console) openOrdersHistory() string {
	c.t.Helper()
	c.waitFor("Exports/")
	c.keys("3")
	c.waitFor("Jobs  ")
	c.keys(":")
	c.typeText("history /Data/ImportJobs/Orders.imp")
	c.keys("enter")
	c.waitFor("History of Orders.imp")
	deadline := time.Now().Add(time.Minute)
	for {
		s := c.screen()
		if strings.Contains(s, "#2       ✓ COMPLETED") {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the run never showed as completed; last screen:\n%s", s)
		}
		c.keys("r")
		time.Sleep(100 * time.Millisecond)
	}
}

// deleteData asks to delete the selected execution's data and confirms.
func deleteData(c *console) {
	c.keys("d")
	c.waitFor("Delete job data")
	c.keys("y")
}
