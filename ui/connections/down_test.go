package connections

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// With no server answering, the list says it could not read and how to try
// again, the status line says why, and r tries again.
func TestListWhenTheServerIsDown(t *testing.T) {
	gone := uitest.GoneURL()
	p := newTestPane(api.New(gone, "admin", "admin"), 100, 10, false)

	var status []string
	for _, msg := range uitest.Run(p, p.Init(), foreign) {
		if s, ok := msg.(common.StatusMsg); ok && s.Level == common.LevelError {
			status = append(status, s.Text)
		}
	}
	if len(status) != 1 || !strings.Contains(status[0], "the server does not answer") {
		t.Errorf("status %q, want one error saying the server does not answer", status)
	}
	if view := uitest.Screen(p.View()); !strings.Contains(view, "could not read the connections (r reads again)") {
		t.Errorf("the list does not say it could not read:\n%s", view)
	}
	if cmd := uitest.Press(p, "r"); cmd == nil {
		t.Error("r does not read the list again")
	}
}
