package ui

import (
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
)

// longError is longer than any status line the goldens draw.
const longError = "restore /Data: the server refused: 3 files exist already and overwrite was not asked: /Data/Connections/Local Files.dst, /Data/ImportJobs/Orders.imp, /Data/ImportJobs/Customers.imp"

// Golden screens of the console against the embedded platform with demo
// data, at fixed sizes, in the ASCII colour profile. Regenerate with
// `go test ./ui -run TestGolden -update`.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		opts  consoleOpts
		drive func(c *console) string
	}{
		{"FirstScreen", consoleOpts{}, func(c *console) string {
			return c.waitFor("Exports/")
		}},
		{"MinimumSize", consoleOpts{width: 40, height: 10}, func(c *console) string {
			return c.waitFor("Visualization/")
		}},
		{"MinimumSizeScrolled", consoleOpts{width: 40, height: 10}, func(c *console) string {
			c.waitFor("Visualization/")
			c.keys("G")
			return c.waitFor("Exports/")
		}},
		{"TinyTerminal", consoleOpts{width: 39, height: 9}, func(c *console) string {
			return c.waitFor("terminal too small")
		}},
		{"ExpandedFolder", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "enter")
			return c.waitFor("ImportJobs/")
		}},
		{"GotoPath", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys(":")
			c.typeText("cd /Data/Connections")
			c.keys("enter")
			return c.waitFor("at /Data/Connections")
		}},
		{"Filter", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "enter")
			c.waitFor("ImportJobs/")
			c.keys("/")
			c.typeText("job")
			c.waitFor("/job")
			// The walk of the folders not read yet has ended, and the file
			// lists have come: ImportJobs holds files, no folders.
			return c.waitQuiet("▸ ImportJobs/", "searching")
		}},
		{"Permissions", consoleOpts{}, func(c *console) string {
			return c.openPermissionsOfData()
		}},
		{"PermissionsNarrow", consoleOpts{width: 60, height: 16}, func(c *console) string {
			return c.openPermissionsOfData()
		}},
		{"AddGroupDialog", consoleOpts{}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("k", "e")
			c.waitFor("   viewer\n") // the owner's pick list: the users and groups are read
			c.keys("down")
			c.waitFor("› admin")
			c.keys("esc", "a")
			return c.waitFor("Add a group to /Data") // with the pick list of the platform's groups
		}},
		{"PermissionsEditForm", consoleOpts{}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("enter")
			return c.waitFor("Rights of others on /Data")
		}},
		{"DeleteGroupConfirm", consoleOpts{}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("j", "d")
			return c.waitFor("Delete group permission")
		}},
		{"BackupDialog", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "b")
			return c.waitFor("start backup")
		}},
		{"BackupDialogTiny", consoleOpts{width: 40, height: 10}, func(c *console) string {
			c.waitFor("Visualization/")
			c.keys("j", "j", "j", "b")
			c.waitFor("Backup of /Data")
			c.keys("down", "down", "down") // the form scrolls to keep the focused field in view
			return c.waitFor("› [ ] includeDataPermissions")
		}},
		{"BackupMarkedDialog", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "enter")
			c.waitFor("ImportJobs/")
			c.keys("j", "space", "space", "b")
			return c.waitFor("Backup of 2 marked files")
		}},
		{"RestoreDialog", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "R")
			return c.waitFor("plan the restore")
		}},
		{"QuitWhileTransferConfirm", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.tm.Send(taskStarted("backup of /Data"))
			c.keys("q")
			return c.waitFor("Quit while a transfer runs?")
		}},
		{"StatusLineError", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys(":")
			c.typeText("cd /Data/Nope")
			c.keys("enter")
			return c.waitFor("no folder /Data/Nope")
		}},
		{"ForbiddenWrite", consoleOpts{user: "analyst", password: "analyst"}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("space")
			return c.waitFor("not allowed")
		}},
		{"CommandLine", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys(":", "c")
			return c.waitFor(":cd PATH")
		}},
		{"StatusLineCut", consoleOpts{width: 60, height: 12}, func(c *console) string {
			c.waitFor("Exports/")
			c.tm.Send(common.StatusMsg{Level: common.LevelError, Text: longError})
			return c.waitFor("(L: whole message)")
		}},
		{"MessageLog", consoleOpts{width: 60, height: 14}, func(c *console) string {
			c.waitFor("Exports/")
			c.tm.Send(common.StatusMsg{Level: common.LevelNotice, Text: "triggered Orders.imp: execution #7 by admin"})
			c.tm.Send(common.StatusMsg{Level: common.LevelError, Text: longError})
			c.waitFor("(L: whole message)")
			c.keys("L")
			return c.waitFor("2 messages")
		}},
		{"FolderWithFiles", consoleOpts{wrap: statesPending}, func(c *console) string {
			c.openImportJobs()
			return c.waitFor("Products.imp")
		}},
		{"FilePermissions", consoleOpts{wrap: statesPending}, func(c *console) string {
			c.openImportJobs()
			c.waitFor("Products.imp")
			c.keys("enter", "j", "j", "j", "p") // Orders.imp
			return c.waitFor("group analysts")
		}},
		{"CopyNotice", consoleOpts{wrap: statesPending}, func(c *console) string {
			c.openImportJobs()
			c.waitFor("Products.imp")
			c.keys("enter", "j", "j", "j", "y")
			return c.waitFor("copied path")
		}},
		{"OwnerPickList", consoleOpts{}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("k", "e")
			c.waitFor("   viewer\n") // the users are read
			c.keys("ctrl+u")
			c.typeText("a")
			c.keys("down")
			return c.waitFor("› admin") // admin and analyst offered
		}},
		{"ReadOnlyHelp", consoleOpts{readOnly: true}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("?")
			c.waitFor("restore ✗")
			return c.waitFor("platform 11.0.0")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startConsole(t, tt.opts)
			c.t = t
			c.golden(tt.drive(c))
		})
	}
}

// openPermissionsOfData opens the permissions of /Data from the first screen.
func (c *console) openPermissionsOfData() string {
	c.t.Helper()
	c.waitFor("Exports/")
	c.keys("j", "j", "j", "p")
	return c.waitFor("+ add a group")
}
