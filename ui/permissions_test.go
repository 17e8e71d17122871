package ui

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
)

// TestPermissionsKeys: in the permissions panel enter opens the row for
// editing and writes nothing; space writes the flag under the cursor; the
// footer names both; switching panes closes the panel.
func TestPermissionsKeys(t *testing.T) {
	c := startConsole(t, consoleOpts{width: 120, height: 30})
	screen := c.openPermissionsOfData()
	for _, want := range []string{"space/x toggle", "enter/e edit"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the footer does not name %q:\n%s", want, screen)
		}
	}
	c.keys("enter")
	screen = c.waitFor("Rights of others on /Data")
	if strings.Contains(screen, "others: ") {
		t.Fatalf("enter wrote:\n%s", screen)
	}
	c.keys("esc")
	c.waitFor("+ add a group")
	c.keys("space")
	c.waitFor("others: read")
	c.keys("tab", "1")
	screen = c.waitFor("Exports/")
	if strings.Contains(screen, "Permissions of") {
		t.Errorf("the panel stayed open across a pane switch:\n%s", screen)
	}
}

// TestLeavingAPaneTellsIt: the root tells the pane the user leaves, once.
func TestLeavingAPaneTellsIt(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	left := &leaveCounter{Pane: m.panes[0]}
	m.panes[0] = left
	typeKeys(t, m, "1", "2", "2", "3")
	if left.n != 1 {
		t.Errorf("Leave called %d times, want 1", left.n)
	}
}

type leaveCounter struct {
	common.Pane
	n int
}

func (l *leaveCounter) Leave() { l.n++ }
