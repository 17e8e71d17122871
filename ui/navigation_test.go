package ui

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestCdRelativeAndTabCompletion: `:cd` resolves a relative path against
// the selected folder, `..` included, and tab completes folder names from
// the folders read so far, listing them when several match.
func TestCdRelativeAndTabCompletion(t *testing.T) {
	c := startConsole(t, consoleOpts{width: 100, height: 30})
	c.waitFor("Exports/")
	c.keys("j", "j", "j", "enter") // /Data, opened
	c.waitFor("ImportJobs/")
	c.keys(":")
	c.typeText("cd Conn")
	c.keys("tab")
	c.waitFor(":cd Connections/")
	c.keys("enter")
	c.waitFor("at /Data/Connections")
	c.keys(":")
	c.typeText("cd ../..")
	c.keys("enter")
	c.waitFor("at /")
	c.keys(":")
	c.typeText("cd /Data/")
	c.keys("tab")
	screen := c.waitFor("/Data/Connections  /Data/DataLinks  /Data/ImportJobs")
	if !strings.Contains(screen, ":cd /Data/") {
		t.Errorf("several matches changed the line:\n%s", screen)
	}
	c.typeText("Im")
	c.keys("tab")
	c.waitFor(":cd /Data/ImportJobs/")
}

// TestRestoreFormRemembers: ~ in a local path is the home directory; the
// restore form offers the archive last written or restored, with the flags
// of the last restore.
func TestRestoreFormRemembers(t *testing.T) {
	dir := homeOfOwn(t)
	c := startConsole(t, consoleOpts{width: 100, height: 30})
	c.backupDataToHome()
	c.waitFor("backup written to " + dir + "/Data.zip")
	c.keys("enter", ":")
	c.typeText("cd /Exports")
	c.keys("enter")
	c.waitFor("at /Exports")
	c.keys("R")
	c.waitFor(dir + "/Data.zip")
	c.keys("down", "down", "space", "enter") // overwrite on (below the file and the target folder)
	c.waitFor("Restore with overwrite?")
	c.keys("y")
	c.waitFor("restored")
	c.keys("enter", "R")
	screen := c.waitFor("plan the restore")
	if !strings.Contains(screen, dir+"/Data.zip") || !strings.Contains(screen, "[x] overwrite") {
		t.Errorf("the restore form forgot the archive or the flags:\n%s", screen)
	}
}

// TestRestoreWithOverwriteAsksFirst: a restore that overwrites shows its
// plan, in a box that cannot be missed, before anything is sent. Onto the
// folder it was backed up from, the plan names the refusal the platform
// would give (its connections are in use) and n sends nothing; sending only
// what changed (x) restores the one connection changed since the backup
// (issue 29). The platform is asked what it holds, not the screen.
func TestRestoreWithOverwriteAsksFirst(t *testing.T) {
	homeOfOwn(t)
	var writes servertest.WriteRecorder
	c := startConsole(t, consoleOpts{width: 100, height: 30, wrap: writes.Wrap})
	was := c.changeAfterBackup("")
	ctx := context.Background()
	before := len(writes.Writes())

	c.keys("enter", "R")
	c.waitFor("plan the restore")
	c.keys("down", "down", "space", "enter") // overwrite on
	c.waitFor("Restore with overwrite?")
	screen := c.waitFor("would refuse this restore")
	if !strings.Contains(screen, "still used by") {
		t.Errorf("the plan does not say why:\n%s", screen)
	}
	c.keys("n")
	c.waitFor("nothing was sent")
	if w := writes.Writes(); len(w) != before {
		t.Fatalf("a cancelled plan sent %v", w[before:])
	}
	if conn, _ := c.client.Connection(ctx, 4); conn.File.Description != "changed since the backup" {
		t.Fatalf("a cancelled plan changed the connection: %q", conn.File.Description)
	}

	c.keys("R")
	c.waitFor("[x] overwrite") // remembered
	c.keys("enter")
	c.waitFor("would refuse this restore")
	c.keys("x")
	screen = c.waitFor("sends only what changed")
	if !strings.Contains(screen, "1 replace") || !strings.Contains(screen, "MYSQL_QA1.dst") {
		t.Errorf("the plan of what changed:\n%s", screen)
	}
	c.keys("y")
	c.waitFor("restored")
	if conn, _ := c.client.Connection(ctx, 4); conn.File.Description != was {
		t.Errorf("description %q after the restore, want %q", conn.File.Description, was)
	}
}

// backupDataToHome backs /Data up from the tree into ~/Data.zip.
func (c *console) backupDataToHome() {
	c.waitFor("Exports/")
	c.keys("j", "j", "j", "b")
	c.waitFor("start backup")
	c.keys("ctrl+u")
	c.typeText("~/Data.zip")
	c.keys("enter")
}

// homeOfOwn makes HOME a relative directory in one of the test's own and
// returns it, so the paths the screen shows do not depend on TMPDIR.
func homeOfOwn(t *testing.T) string {
	t.Helper()
	t.Chdir(t.TempDir())
	const home = "home"
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	return home
}
