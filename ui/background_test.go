package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// A backup or restore sent to the background shows how far it is in the
// header (issue 30: a transfer blocked the console while it ran).
func TestTransferProgressInTheHeader(t *testing.T) {
	m := newTestModel(t, false, 120, 24)
	m.ctx.Client = api.New("http://127.0.0.1:1", "admin", "admin") // never called
	m.Update(common.TaskStartedMsg{ID: 5, Label: "backup of /Data", Transfer: true, Cancel: func() {}})
	m.Update(common.TransferProgressMsg{Label: "backup of /Data", Done: 42, Total: 100})
	if header := ansi.Strip(m.headerView()); !strings.Contains(header, "⇅ backup of /Data 42%") {
		t.Errorf("the header does not say how far the backup is: %q", header)
	}
	m.Update(common.TaskDoneMsg{ID: 5})
	if header := ansi.Strip(m.headerView()); strings.Contains(header, "⇅") {
		t.Errorf("the header still shows an ended transfer: %q", header)
	}
}
