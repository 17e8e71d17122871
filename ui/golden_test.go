package ui

import "testing"

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
			return c.waitFor("/job")
		}},
		{"Permissions", consoleOpts{}, func(c *console) string {
			return c.openPermissionsOfData()
		}},
		{"PermissionsNarrow", consoleOpts{width: 60, height: 16}, func(c *console) string {
			return c.openPermissionsOfData()
		}},
		{"AddGroupDialog", consoleOpts{}, func(c *console) string {
			c.openPermissionsOfData()
			c.keys("a")
			return c.waitFor("Add a group to /Data")
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
		{"BackupMarkedDialog", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "enter")
			c.waitFor("ImportJobs/")
			c.keys("j", "space", "space", "b")
			return c.waitFor("Backup of 2 marked folders")
		}},
		{"RestoreDialog", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "R")
			return c.waitFor("start restore")
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
		{"FullHelp", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("?")
			return c.waitFor("Keys — Folders")
		}},
		{"CommandLine", consoleOpts{}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys(":", "c")
			return c.waitFor(":cd PATH")
		}},
		{"ReadOnlyHelp", consoleOpts{readOnly: true}, func(c *console) string {
			c.waitFor("Exports/")
			c.keys("?")
			return c.waitFor("restore ✗")
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
