package folders

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// A new login reads the tree again under the filter the field still shows.
func TestFilterSurvivesANewLogin(t *testing.T) {
	p := newTestPane(t, 60, 10)
	for _, k := range []string{"/", "D", "a", "t", "a", "enter"} {
		press(p, k)
	}
	p.Update(common.LoggedInMsg{})
	p.requests[0] = 99
	p.Update(childrenMsg{req: 99, folder: rootFolder("Users", "Data")})
	view := ansi.Strip(p.View())
	if !strings.Contains(view, "/Data  1 match") || !strings.Contains(view, "Data/") || strings.Contains(view, "Users/") {
		t.Errorf("after a new login the tree is not filtered as the field says:\n%s", view)
	}
}
