package connections

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// A new login reads the list again under the filter the field still shows.
func TestFilterSurvivesANewLogin(t *testing.T) {
	p := withList(newTestPane(nil, 100, 20, false), entries(30))
	uitest.Press(p, "/", "2", "3", "enter")
	if len(p.list.rows) != 1 {
		t.Fatalf("filter 23: %d rows, want 1", len(p.list.rows))
	}
	p.Update(common.LoggedInMsg{})
	p.Update(listMsg{ticket: p.listReads.Latest(), entries: entries(30)})
	view := uitest.Screen(p.View())
	if len(p.list.rows) != 1 || !strings.Contains(view, "/23  1 of 30") || !strings.Contains(view, "conn-00023") {
		t.Errorf("after a new login: %d rows, want the 1 the filter shows:\n%s", len(p.list.rows), view)
	}
}
