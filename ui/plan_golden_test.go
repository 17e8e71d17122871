package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/servertest"
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

// TestGoldenDiff: after a backup of /Data, one connection's description and
// password change on the platform; = on /Data compares the backup with the
// folder (the description field by field, the password only as changed),
// and = in a restore's plan shows the same diff over the plan.
func TestGoldenDiff(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			homeOfOwn(t)
			var writes servertest.WriteRecorder
			c := startConsole(t, consoleOpts{width: size.width, height: size.height, wrap: writes.Wrap})
			c.changeAfterBackup("n3w-s3cret")
			before := len(writes.Writes())
			c.keys("enter", "=")
			c.waitFor("Diff of /Data with a backup")
			c.keys("enter")
			screen := c.waitFor("1 changed")
			if strings.Contains(screen, "n3w-s3cret") {
				t.Fatalf("the diff shows a secret:\n%s", screen)
			}
			c.golden(withoutByteCounts(screen))
			c.keys("esc", "R")
			c.waitFor("plan the restore")
			c.keys("enter")
			c.waitFor("the platform would refuse")
			c.keys("=")
			t.Run("FromThePlan", func(t *testing.T) {
				c.t = t
				c.golden(withoutByteCounts(c.waitFor("1 changed")))
			})
			c.t = t
			c.keys("esc")
			c.waitFor("the platform would refuse")
			if w := writes.Writes(); len(w) != before {
				t.Errorf("a diff wrote %v", w[before:])
			}
		})
	}
}

// changeAfterBackup backs /Data up into ~/Data.zip, then changes connection
// 4 (MYSQL_QA1, which nothing reads from) on the platform: its description
// and, when given, its password. It returns the description backed up.
func (c *console) changeAfterBackup(password string) string {
	c.t.Helper()
	c.backupDataToHome()
	c.waitFor("backup written to")
	ctx := context.Background()
	conn, err := c.client.Connection(ctx, 4)
	if err != nil {
		c.t.Fatal(err)
	}
	was := conn.File.Description
	conn.File.Description = "changed since the backup"
	if password != "" {
		conn.Properties["password"] = []string{password}
	}
	if err := c.client.UpdateConnection(ctx, 4, conn); err != nil {
		c.t.Fatal(err)
	}
	return was
}
