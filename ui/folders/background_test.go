package folders

import (
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// enter sends a running transfer's dialog to the background: the pane
// follows its progress on (for the header), :transfer shows the dialog
// again, and a failure in the background opens it with what the server
// said (issue 30: a backup or restore blocked the console while it ran).
func TestTransferGoesOnInTheBackground(t *testing.T) {
	p := paneWithFiles(t, false)
	_, ch, _, cancel := p.newTransfer()
	d := newTransferDialog(p.ctx, p.lastTransfer, "Backup of /Data", "→ x.zip", ch, cancel)
	d.label = "backup of /Data"
	p.transfers[d.id] = d
	if next, _ := d.Update(uitest.Key("enter")); next != nil || !d.hidden {
		t.Fatal("enter did not send the running transfer to the background")
	}
	_, cmd := p.Update(transferProgress{id: d.id, done: 10, total: 40})
	close(ch) // the transfer ends: the pane's listening returns
	want := common.TransferProgressMsg{Label: "backup of /Data", Done: 10, Total: 40}
	var told bool
	for _, m := range uitest.Expand(cmd) {
		told = told || m == want
	}
	if !told {
		t.Errorf("the pane told the root nothing of the progress: %#v", uitest.Expand(cmd))
	}
	if _, cmd := p.Update(showTransferMsg{}); uitest.Dialog(uitest.Expand(cmd)) != d || d.hidden {
		t.Error(":transfer did not show the running transfer again")
	}
	d.hidden = true
	_, cmd = p.Update(transferDone{id: d.id, err: &api.Error{Status: 409, Reason: "11 file(s) already exist"}})
	if uitest.Dialog(uitest.Expand(cmd)) != d || !d.finished {
		t.Error("a failure in the background did not show its dialog")
	}
}
