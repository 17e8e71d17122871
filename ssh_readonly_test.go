package main

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// TestSSHReadOnlyKeyCannotTrigger: the analyst's key is read-only; the
// analyst may run the import jobs on the platform, but neither t nor
// :trigger starts one from that session, the platform sees no new
// execution, and :profile, which could switch to a writable profile of the
// host, does not exist there.
func TestSSHReadOnlyKeyCannotTrigger(t *testing.T) {
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, nil)
	admin := api.New(running.server, "admin", "admin")
	orders := api.Path("/Data/ImportJobs/Orders.imp")
	lastExecution := func() int64 {
		t.Helper()
		status, err := admin.JobStatus(t.Context(), orders)
		if err != nil {
			t.Fatal(err)
		}
		if status.JobExecutionID == nil {
			return 0
		}
		return *status.JobExecutionID
	}
	before := lastExecution()

	term := dialConsole(t, running, p.analyst, sshtest.Options{Width: 120, Height: 30})
	term.WaitForText("read-only", "analyst@", "Data/")
	term.Type(":jobs\r")
	term.WaitForText("state", "progress", "exec") // the jobs table: "Jobs" alone is in the tab bar too
	term.Type("t")
	term.WaitForText("trigger: read-only session")
	term.Type(":trigger /Data/ImportJobs/Orders.imp\r")
	screen := term.WaitFor("the answer to :trigger", func(screen string) bool {
		status := statusLine(screen)
		return strings.Contains(status, "Orders.imp") && !strings.Contains(status, ":trigger")
	})
	if status := statusLine(screen); strings.Contains(screen, "triggered") || !strings.Contains(status, "✗") {
		t.Fatalf(":trigger was not refused in a read-only session:\n%s", screen)
	}
	if after := lastExecution(); after != before {
		t.Fatalf("the platform ran Orders (execution %d, before %d)", after, before)
	}
	// No way out of the mark from inside: no profile to switch to.
	term.Type(":profile default\r")
	term.WaitForText("unknown command :profile")
}

// statusLine is the row above the help line.
func statusLine(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(rows) < 2 {
		return ""
	}
	return rows[len(rows)-2]
}

// TestSSHReadOnlyFlagHoldsEveryKey: --read-only makes every session
// read-only, a writable key's too.
func TestSSHReadOnlyFlagHoldsEveryKey(t *testing.T) {
	p := newPeople(t)
	running, _ := startSSHDemo(t, p, func(f *sshFlags) { f.readOnly = true })
	term := dialConsole(t, running, p.admin, sshtest.Options{Width: 120, Height: 30})
	term.WaitForText("read-only", "admin@", "Data/")
	term.Type("R")
	term.WaitForText("restore: read-only session")
}
