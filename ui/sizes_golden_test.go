package ui

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
)

// logTimes matches the times of a log's lines, those of the run the test
// just made.
var logTimes = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`)

// withAllPanes is the console's own panes but People (its goldens are in
// TestGoldenPeople), all against the demo platform.
func withAllPanes(ctx *common.Context) []common.Pane {
	return []common.Pane{folders.New(ctx), connections.New(ctx), jobs.New(ctx)}
}

// fixedRunning answers the running-jobs poll and the status reads of its
// executions with two runs that hold still (started 40 s and 2 min 5 s
// before fixedNow), so the dashboard's golden does not follow the demo's
// scheduled jobs; everything else goes to the demo platform.
func fixedRunning(next http.Handler) http.Handler {
	start := fixedNow.UnixMilli()
	running := fmt.Sprintf(`[{"jobStatus":"RUNNING","fileName":"Orders.imp","jobName":"Orders","fileId":48,"uuid":"5f0c2c1e-4e8a-4b0e-9a53-0d5e7d1c2a11","creationDate":%d,"jobExecutionId":77,"dapJobConfigurationId":3,"estimatedTime":11000,"startTime":%d},`+
		`{"jobStatus":"QUEUED","fileName":"Sales by Region.wbk","jobName":"Sales by Region","fileId":52,"uuid":"6a1d3d2f-5f9b-4c1f-8b64-1e6f8e2d3b22","creationDate":%d,"jobExecutionId":78,"dapJobConfigurationId":7,"estimatedTime":0,"startTime":%d}]`,
		start-40_000, start-40_000, start-125_000, start-125_000)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/list-running"):
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, running)
		case strings.HasPrefix(r.URL.Path, "/api/job-execution/") && strings.HasSuffix(r.URL.Path, "/status"):
			w.Header().Set("Content-Type", "application/json")
			// The pane asks by the running job's file id.
			file := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/api/job-execution/"), "/status")
			status, ok := map[string]string{
				"48": `{"status":"success","file-id":48,"job-execution-id":77,"job-status":"RUNNING","job-progress":42,"estimate-time":"60s"}`,
				"52": `{"status":"success","file-id":52,"job-execution-id":78,"job-status":"QUEUED"}`,
			}[file]
			if !ok { // a file of the demo's own
				next.ServeHTTP(w, r)
				return
			}
			fmt.Fprint(w, status)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// holdBackups holds every backup download open until release is closed,
// so a transfer stays running for as long as the test looks at it.
func holdBackups(release <-chan struct{}) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/backup") {
				select {
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// TestGoldenSizes draws every view issue 30 changed at exactly 80×24 and
// 120×40 (the People pane and the data view are in TestGoldenPeople; the
// too-small message in TestGolden, at the sizes where it shows).
// Regenerate with `go test ./ui -run TestGoldenSizes -update`.
func TestGoldenSizes(t *testing.T) {
	tests := []struct {
		name  string
		opts  consoleOpts
		drive func(c *console) string
	}{
		{"Tree", consoleOpts{wrap: statesPending}, func(c *console) string {
			c.openImportJobs()
			return c.waitFor("Products.imp")
		}},
		{"Help", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("?")
			c.waitFor("Keys — Folders")
			return c.waitFor("platform 11.0.0") // the licence read, which comes when it comes
		}},
		{"Prompt", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys(":")
			return c.waitFor(":help")
		}},
		{"Connections", consoleOpts{panes: withAllPanes, wrap: fixedRunning}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("2")
			return c.waitQuiet("Warehouse", " … ", "reading")
		}},
		{"Graph", consoleOpts{panes: withAllPanes, wrap: fixedRunning}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("2")
			c.waitQuiet("Warehouse", " … ", "reading")
			c.keys("j", "j", "enter")
			return c.waitQuiet("what it reads from: none", "reading")
		}},
		{"Jobs", consoleOpts{panes: withAllPanes, wrap: fixedRunning}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("3")
			return c.waitQuiet("42%", "reading")
		}},
		{"History", consoleOpts{panes: withJobsPane}, func(c *console) string {
			return c.openOrdersHistory()
		}},
		{"Log", consoleOpts{panes: withJobsPane}, func(c *console) string {
			c.openOrdersHistory()
			c.keys("V")
			return c.waitQuiet("ended: COMPLETED", "reading…")
		}},
		{"Transfer", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "b")
			c.waitFor("start backup")
			c.keys("enter")
			c.waitFor("received (size not known yet)")
			c.keys("enter") // to the background: the header shows it
			c.waitQuiet("⇅ backup of /Data", "received")
			c.keys(":")
			c.typeText("transfer")
			c.keys("enter")
			return c.waitFor("received (size not known yet)")
		}},
		{"RestorePickList", consoleOpts{}, func(c *console) string {
			for _, name := range []string{"Data-2026-11-20.zip", "Data-2026-11-23.zip", "Exports.zip"} {
				if err := os.WriteFile(name, nil, 0o600); err != nil {
					c.t.Fatal(err)
				}
			}
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "R")
			c.waitFor("Restore a backup")
			c.typeText("./Data")
			return c.waitFor("Data-2026-11-23.zip")
		}},
	}
	for _, size := range goldenSizes {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s_%dx%d", tt.name, size.width, size.height), func(t *testing.T) {
				t.Chdir(t.TempDir()) // the restore form's pick list reads the working directory
				opts := tt.opts
				opts.width, opts.height = size.width, size.height
				release := make(chan struct{})
				if tt.name == "Transfer" { // its backup runs until the test ends
					opts.wrap = holdBackups(release)
				}
				c := startConsole(t, opts)
				// Before the server's own clean-up, which waits for its handlers.
				t.Cleanup(func() { close(release) })
				c.t = t
				screen := runTimes.ReplaceAllString(tt.drive(c), "YYYY-MM-DD hh:mm:ss         Ns")
				c.golden(logTimes.ReplaceAllString(screen, "YYYY-MM-DD hh:mm:ss"))
			})
		}
	}
}

// TestNoLineWiderThanTheTerminal resizes the console through every width
// from the smallest it draws at to a wide one, in the panes whose hint bars
// are the longest, and checks that no line of the screen (the hint bar
// above all: bubbles' help adds items past the width when its "…" would
// not fit either) is wider than the terminal.
func TestNoLineWiderThanTheTerminal(t *testing.T) {
	c := startConsole(t, consoleOpts{panes: withAllPanes, wrap: fixedRunning})
	c.waitFor("Exports/")
	for _, pane := range []string{"1", "2", "3"} {
		c.keys(pane)
		for w := 40; w <= 160; w++ {
			c.tm.Send(tea.WindowSizeMsg{Width: w, Height: 24})
			for i, line := range strings.Split(c.screen(), "\n") {
				if got := ansi.StringWidth(line); got > w {
					t.Fatalf("pane %s at width %d: line %d is %d wide:\n%s", pane, w, i+1, got, line)
				}
			}
		}
	}
}

// TestDialogKeepsAMargin opens a dialog over the tree at 120×40, where
// a folder row's last character ("id 11" of Exports) lies in the column
// right of the box: the box keeps a blank column on either side, so no character of
// what is under it sticks to its frame ("╮1").
func TestDialogKeepsAMargin(t *testing.T) {
	c := startConsole(t, consoleOpts{width: 120, height: 40, wrap: statesPending})
	c.openImportJobs()
	c.waitFor("Products.imp")
	c.keys("j", "j", "j", "j", "j", "j", "enter") // DataLinks: one more row
	c.waitFor("Orders With Errors.lnk")
	c.keys("f2")
	screen := c.waitFor("Rename /Data/DataLinks")
	for i, line := range strings.Split(screen, "\n") {
		runes := []rune(line)
		left := strings.IndexAny(line, "╭│╰")
		right := strings.LastIndexAny(line, "╮│╯")
		if left < 0 || right < 0 {
			continue
		}
		l, r := len([]rune(line[:left])), len([]rune(line[:right]))
		if (l > 0 && runes[l-1] != ' ') || (r+1 < len(runes) && runes[r+1] != ' ') {
			t.Fatalf("line %d: the dialog's frame touches what is under it:\n%s", i+1, screen)
		}
	}
}
