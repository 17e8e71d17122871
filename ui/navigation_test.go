package ui

import (
	"os"
	"strings"
	"testing"
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
	screen := c.waitFor("start restore")
	if !strings.Contains(screen, dir+"/Data.zip") || !strings.Contains(screen, "[x] overwrite") {
		t.Errorf("the restore form forgot the archive or the flags:\n%s", screen)
	}
}

// TestRestoreWithOverwriteAsksFirst: a restore that overwrites asks, in a
// box that cannot be missed, before anything is sent; n sends nothing.
func TestRestoreWithOverwriteAsksFirst(t *testing.T) {
	dir := homeOfOwn(t)
	c := startConsole(t, consoleOpts{width: 100, height: 30})
	c.backupDataToHome()
	c.waitFor("backup written to")
	c.keys("enter", "R")
	c.waitFor("start restore")
	c.keys("down", "down", "space", "enter")
	c.waitFor("Restore with overwrite?")
	c.keys("n")
	screen := c.waitFor("Exports/")
	if strings.Contains(screen, "restored") {
		t.Errorf("n restored:\n%s", screen)
	}
	c.keys("R")
	c.waitFor("start restore")
	c.keys("down", "down", "space", "enter")
	c.waitFor("Restore with overwrite?")
	c.keys("y")
	c.waitFor("← " + dir) // the restore went out (the server then judges it)
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
