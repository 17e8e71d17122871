package ui

import (
	"testing"

	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestCompletionHintIsClean: the folders a tab at :cd leaves to choose from
// are paths the server named, so the hint cleans them before the terminal.
func TestCompletionHintIsClean(t *testing.T) {
	c := commandLine{candidates: uitest.Hostile}
	if found := uitest.Controls(c.hint()); len(found) > 0 {
		t.Errorf("the hint holds %d control(s), first %s", len(found), found[0])
	}
}
