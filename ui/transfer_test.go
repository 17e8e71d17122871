package ui

import (
	"archive/zip"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/servertest"
)

// byteCounts matches sizes as the transfer dialog writes them, with the
// blanks after them; archives of the demo data differ by a few bytes from
// run to run (fresh UUIDs and keys).
var byteCounts = regexp.MustCompile(`\d+(\.\d+)? (B|KiB|MiB) *`)

// withoutByteCounts writes every size as "N B"; inside a box it pads it to
// the width it replaces, so that the frame around it stays where it was.
func withoutByteCounts(screen string) string {
	return byteCounts.ReplaceAllStringFunc(screen, func(size string) string {
		if strings.TrimRight(size, " ") == size {
			return "N B"
		}
		return fmt.Sprintf("%-*s", len(size), "N B")
	})
}

// TestGoldenBackupThenRestore takes a backup of /Data from the tree into the
// default local file, restores it into /Exports after its plan, then plans
// it again without overwrite: the plan shows the refusals the platform
// would give, and y sends nothing (the platform sees no write). The archive
// is a path relative to a directory of the test's own, so the screens do
// not show where the test ran.
func TestGoldenBackupThenRestore(t *testing.T) {
	t.Chdir(t.TempDir())
	const file = "Data.zip"
	normalize := withoutByteCounts
	var writes servertest.WriteRecorder
	c := startConsole(t, consoleOpts{wrap: writes.Wrap})
	c.waitFor("Exports/")

	c.keys("j", "j", "j", "b")
	c.waitFor("./Data-2026-11-23.zip") // the default: the folder's name and the date
	c.keys("ctrl+u")
	c.typeText(file)
	c.keys("enter")
	t.Run("BackupDone", func(t *testing.T) {
		c.t = t
		c.golden(normalize(c.waitFor("✓ backup written to")))
	})
	c.t = t
	archive, err := zip.OpenReader(file)
	if err != nil {
		t.Fatalf("the backup file is not a ZIP archive: %v", err)
	}
	entries := len(archive.File)
	archive.Close()
	if entries == 0 {
		t.Fatal("the backup archive is empty")
	}

	c.keys("enter", ":")
	c.typeText("cd /Exports")
	c.keys("enter")
	c.waitFor("at /Exports")
	c.keys("R")
	c.waitFor(file) // the restore form offers the last backup
	c.keys("enter")
	t.Run("RestorePlan", func(t *testing.T) {
		c.t = t
		c.golden(c.waitFor("the platform would take this restore"))
	})
	c.t = t
	if w := writes.Writes(); len(w) != 0 {
		t.Fatalf("the plan wrote: %v", w)
	}
	c.keys("y")
	t.Run("RestoreDone", func(t *testing.T) {
		c.t = t
		c.golden(normalize(c.waitForCount("restored 14 files", 2)))
	})
	c.t = t

	c.keys("enter", "R")
	c.waitFor("plan the restore")
	sent := len(writes.Writes())
	c.keys("enter")
	t.Run("RestoreRefusedPlan", func(t *testing.T) {
		c.t = t
		c.golden(c.waitFor("would refuse this restore"))
	})
	c.t = t
	c.keys("y")
	c.waitFor("the platform would refuse this restore (see")
	c.keys("n")
	c.waitFor("nothing was sent")
	if w := writes.Writes(); len(w) != sent {
		t.Errorf("a refused plan sent %v", w[sent:])
	}
}
