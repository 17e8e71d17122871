package ui

import "testing"

// TestCursorFollowsAMovedOrRenamedFolder: after m and F2 the cursor is on
// the folder where it now is, so the next key acts on it. In the tmux walk
// the cursor stayed on the row index, and a :rename after a move renamed
// /Analytics, the folder that had taken the moved one's row.
func TestCursorFollowsAMovedOrRenamedFolder(t *testing.T) {
	c := startConsole(t, consoleOpts{})
	c.waitFor("Exports/")
	c.keys("j", "j", "j", "j", "m")
	c.waitFor("Move /Analytics")
	c.keys("ctrl+u")
	c.typeText("/Exports")
	c.keys("enter")
	c.waitFor("moved /Analytics into /Exports")
	c.waitFor("\n/ › Exports › Analytics\n") // the breadcrumb: where the cursor is
	c.keys("f2")
	c.waitFor("Rename /Exports/Analytics")
	c.keys("ctrl+u")
	c.typeText("Charts")
	c.keys("enter")
	c.waitFor("renamed /Exports/Analytics to /Exports/Charts")
	c.waitFor("\n/ › Exports › Charts\n")
}
