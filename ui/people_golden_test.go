package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/people"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func withPeoplePane(ctx *common.Context) []common.Pane {
	return []common.Pane{folders.New(ctx), uitest.NewStub(ctx, "Connections", "tested in ui/connections"),
		uitest.NewStub(ctx, "Jobs", "tested in ui/jobs"), people.New(ctx)}
}

// ordersRun runs the demo's Orders import to its end before the console
// starts, so that its data is there to view.
func ordersRun(t *testing.T) func(*server.Server, string) {
	return func(_ *server.Server, url string) {
		c := api.New(url, "admin", "admin")
		ref := api.Path("/Data/ImportJobs/Orders.imp")
		if _, err := c.TriggerJob(context.Background(), ref); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if st, err := c.JobStatus(context.Background(), ref); err == nil && st.JobStatus == model.StateCompleted {
				return
			}
		}
		t.Fatal("Orders did not complete")
	}
}

// Golden screens of the People pane and of the data view in the console,
// at 80x24 and 120x40. Regenerate with `go test ./ui -run TestGoldenPeople -update`.
func TestGoldenPeople(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, tc := range []struct {
			name  string
			opts  consoleOpts
			drive func(c *console) string
		}{
			{"People", consoleOpts{panes: withPeoplePane}, func(c *console) string {
				c.waitFor("Exports/")
				c.keys("4")
				return c.waitFor("viewers")
			}},
			{"PeopleAsViewer", consoleOpts{user: "viewer", password: "viewer", panes: withPeoplePane}, func(c *console) string {
				c.waitFor("Visualization/")
				c.keys(":")
				c.typeText("users")
				c.keys("enter")
				return c.waitFor("this is your account")
			}},
			{"DataView", consoleOpts{panes: withPeoplePane}, func(c *console) string {
				c.openImportJobs()
				c.waitFor("Orders.imp")
				c.keys("/")
				c.typeText("Orders.imp")
				c.keys("enter", "j", "v")
				return c.waitFor("rows 1–")
			}},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size.w, size.h), func(t *testing.T) {
				tc.opts.width, tc.opts.height = size.w, size.h
				if tc.name == "DataView" {
					tc.opts.seed = ordersRun(t)
				}
				c := startConsole(t, tc.opts)
				c.golden(tc.drive(c))
			})
		}
	}
}
