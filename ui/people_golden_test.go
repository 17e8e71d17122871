package ui

import (
	"fmt"
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/people"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func withPeoplePane(ctx *common.Context) []common.Pane {
	return []common.Pane{folders.New(ctx), uitest.NewStub(ctx, "Connections", "tested in ui/connections"),
		uitest.NewStub(ctx, "Jobs", "tested in ui/jobs"), people.New(ctx)}
}

// Golden screens of the People pane in the console,
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
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size.w, size.h), func(t *testing.T) {
				tc.opts.width, tc.opts.height = size.w, size.h
				c := startConsole(t, tc.opts)
				c.golden(tc.drive(c))
			})
		}
	}
}
