package ui

import (
	"archive/zip"
	"fmt"
	"regexp"
	"strings"
	"testing"
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
// default local file, restores it into /Exports, then restores it again
// without overwrite and shows the server's refusal. The archive is a path
// relative to a directory of the test's own, so the screens do not show
// where the temporary directories are (TMPDIR).
func TestGoldenBackupThenRestore(t *testing.T) {
	t.Chdir(t.TempDir())
	const file = "Data.zip"
	normalize := withoutByteCounts
	c := startConsole(t, consoleOpts{})
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
	t.Run("RestoreDone", func(t *testing.T) {
		c.t = t
		c.golden(normalize(c.waitForCount("restored 14 files", 2)))
	})
	c.t = t

	c.keys("enter", "R")
	c.waitFor("start restore")
	c.keys("enter")
	t.Run("RestoreConflict", func(t *testing.T) {
		c.t = t
		c.golden(normalize(c.waitForCount("restore refused", 2)))
	})
}
