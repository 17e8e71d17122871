package ui

import (
	"fmt"
	"testing"
)

// goldenSizes are the terminal sizes every new dialog's goldens are taken at.
var goldenSizes = []struct{ width, height int }{{80, 24}, {120, 40}}

// TestGoldenRestorePlan: the plan of restoring a backup of /Data onto /Data
// with overwrite, refused (its connections are in use) and scrolled, then
// with only what changed sent: nothing to send.
func TestGoldenRestorePlan(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			homeOfOwn(t)
			c := startConsole(t, consoleOpts{width: size.width, height: size.height})
			c.backupDataToHome()
			c.waitFor("backup written to")
			c.keys("enter", "R")
			c.waitFor("plan the restore")
			c.keys("down", "down", "space", "enter") // overwrite on
			c.golden(withoutByteCounts(c.waitFor("would refuse this restore")))
			if size.height < 30 { // the list is longer than the box
				c.keys("pgdown")
				t.Run("Scrolled", func(t *testing.T) {
					c.t = t
					c.golden(withoutByteCounts(c.waitFor("lines 11–")))
				})
				c.t = t
			}
			c.keys("x")
			t.Run("OnlyChanged", func(t *testing.T) {
				c.t = t
				c.golden(withoutByteCounts(c.waitFor("nothing to send")))
			})
		})
	}
}
