package folders

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func planOf(files ...restoreplan.File) restoreplan.Plan {
	var p restoreplan.Plan
	p.Add(files...)
	return p
}

var (
	refusedPlan = planOf(restoreplan.File{Path: "/Data/a.dst", Action: restoreplan.Refuse, Reason: "still used by /Data/b.imp"},
		restoreplan.File{Path: "/Data/c.dst", Action: restoreplan.Create})
	takenPlan = planOf(restoreplan.File{Path: "/Data/a.dst", Action: restoreplan.Replace},
		restoreplan.File{Path: "/Data/c.dst", Action: restoreplan.Unchanged})
)

func openPlan(t *testing.T, readOnly bool, req restoreRequest, plan restoreplan.Plan) *planDialog {
	t.Helper()
	ctx := common.NewContext(nil, "http://dap.test", "admin", "", readOnly)
	d := newPlanDialog(ctx, restorePlanned{req: req, plan: plan})
	d.SetSize(100, 30)
	return d
}

// The keys of the plan dialog: y sends the planned restore only when the
// platform would take it (and the session may write), n and esc cancel
// with nothing sent, x plans again with only what changed (issue 29).
func TestPlanDialogKeys(t *testing.T) {
	req := restoreRequest{path: "/Data", file: "data.zip", flags: api.RestoreOverwrite}
	tests := []struct {
		name     string
		readOnly bool
		plan     restoreplan.Plan
		key      string
		sends    bool   // a restoreRequest
		closes   bool   // the dialog
		status   string // in a status message, "" for none
	}{
		{"y sends a plan the platform takes", false, takenPlan, "y", true, true, ""},
		{"y sends nothing the platform would refuse", false, refusedPlan, "y", false, false, "would refuse this restore"},
		{"y sends nothing in a read-only session", true, takenPlan, "y", false, false, common.ReadOnlyReason},
		{"n cancels", false, takenPlan, "n", false, true, "nothing was sent"},
		{"esc cancels", false, refusedPlan, "esc", false, true, "nothing was sent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := openPlan(t, tt.readOnly, req, tt.plan)
			next, cmd := d.Update(uitest.Key(tt.key))
			msgs := uitest.Messages(cmd)
			sent, isSent := uitest.First[restoreRequest](msgs)
			if isSent != tt.sends {
				t.Errorf("sent %v, want %v: %#v", isSent, tt.sends, msgs)
			}
			if isSent && (sent.plan == nil || sent.plan.Count(restoreplan.Replace) != 1 || sent.path != "/Data") {
				t.Errorf("sent without its plan: %+v", sent)
			}
			if (next == nil) != tt.closes {
				t.Errorf("closed %v, want %v", next == nil, tt.closes)
			}
			status, _ := uitest.First[common.StatusMsg](msgs)
			if !strings.Contains(status.Text, tt.status) || (tt.status == "") != (status.Text == "") {
				t.Errorf("status %q, want %q", status.Text, tt.status)
			}
		})
	}
}

// x plans again off the loop; y waits for the new plan, and an answer to
// an earlier toggle is dropped.
func TestPlanDialogPlansAgain(t *testing.T) {
	d := openPlan(t, false, restoreRequest{path: "/Data", file: "data.zip", flags: api.RestoreOverwrite}, refusedPlan)
	_, cmd := d.Update(uitest.Key("x"))
	if len(uitest.Messages(cmd)) == 0 || !d.req.skipUnchanged || !d.replaning {
		t.Fatalf("x did not plan again: skip %v, replanning %v", d.req.skipUnchanged, d.replaning)
	}
	stale := d.replan.Latest()
	d.Update(uitest.Key("x"))
	d.Update(uitest.Key("x"))
	if _, cmd := d.Update(uitest.Key("y")); uitest.OnlyRefusal(uitest.Messages(cmd), "being made again") == false {
		t.Errorf("y while the plan is made again: %#v", uitest.Messages(cmd))
	}
	d.Update(replanned{ticket: stale, req: d.req, plan: refusedPlan})
	if !d.replaning {
		t.Fatal("an answer to an earlier toggle was taken")
	}
	req := d.req
	d.Update(replanned{ticket: d.replan.Latest(), req: req, plan: takenPlan})
	if d.replaning || !strings.Contains(viewOf(d), "1 replace, 1 unchanged") || !strings.Contains(viewOf(d), "sends only what changed") {
		t.Errorf("the new plan is not shown:\n%s", viewOf(d))
	}
	_, cmd = d.Update(uitest.Key("y"))
	if sent, ok := uitest.First[restoreRequest](uitest.Messages(cmd)); !ok || !sent.skipUnchanged {
		t.Errorf("y after the toggle sent %+v", sent)
	}
}

// The dialog says whether the restore would be refused, counts each action
// and lists refusals first with their reasons; a reason a server sent is
// cleaned before it reaches the terminal.
func TestPlanDialogView(t *testing.T) {
	hostile := planOf(restoreplan.File{Path: "/Data/x\x1b]0;owned\x07.dst", Action: restoreplan.Refuse, Reason: "unknown owner \x1b[31mbob"},
		restoreplan.File{Path: "/Data/c.dst", Action: restoreplan.Create})
	d := openPlan(t, false, restoreRequest{path: "/Data", file: "data.zip"}, hostile)
	v := viewOf(d)
	for _, want := range []string{"would refuse this restore", "1 refuse, 1 create", "refuse /Data/x", "unknown owner"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if strings.Index(v, "refuse /Data") > strings.Index(v, "create /Data") {
		t.Errorf("refusals not first:\n%s", v)
	}
	if found := uitest.Controls(d.View()); len(found) > 0 {
		t.Errorf("the view holds control sequences from the server: %q", found)
	}
}

// A plan whose reads fail (the server went down) opens no dialog, sends
// nothing, and says why in the status line.
func TestPlanFailsWhenTheServerIsDown(t *testing.T) {
	ctx := common.NewContext(api.New(uitest.GoneURL(), "admin", "admin"), "http://dap.test", "admin", "", false)
	p := New(ctx)
	msgs := uitest.Run[common.Pane](p, p.planRestore(restoreRequest{path: "/Data", file: "data.zip"}), func(m tea.Msg) bool {
		switch m.(type) {
		case common.OpenDialogMsg, common.StatusMsg, restoreRequest:
			return true
		}
		return false
	})
	status := uitest.Only[common.StatusMsg](t, msgs)
	if status.Level != common.LevelError || !strings.Contains(status.Text, "plan of the restore") {
		t.Errorf("status %+v", status)
	}
}

// The diff dialog counts each change and lists the changed fields; a
// secret field says only that it changed, and what a server sent is
// cleaned before it reaches the terminal.
func TestDiffDialogView(t *testing.T) {
	ctx := common.NewContext(nil, "http://dap.test", "admin", "", false)
	d := newDiffDialog(ctx, diffDone{req: diffRequest{file: "data.zip", path: "/Data"}, changes: []restoreplan.Change{
		{Path: "/Data/a.dst", Change: restoreplan.Changed, Fields: []restoreplan.Field{
			{Field: "file.description", Archive: `"old"`, Live: "\"new\x1b]0;owned\x07\""},
			{Field: "properties.password[0]", Secret: true}}},
		{Path: "/Data/b.imp", Change: restoreplan.Added},
	}})
	d.SetSize(100, 30)
	v := viewOf(d)
	for _, want := range []string{"1 added, 0 removed, 1 changed", `file.description: backup "old", now "new`, "properties.password[0]: changed (a secret"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if found := uitest.Controls(d.View()); len(found) > 0 {
		t.Errorf("the view holds control sequences from the server: %q", found)
	}
	if next, _ := d.Update(uitest.Key("esc")); next != nil {
		t.Error("esc left the diff open")
	}
}

// A restore's plan works against a platform before 7.2.6 as against a
// newer one: it reads the whole tree (GET backup), never the POST backup
// of chosen files that such a platform lacks.
func TestPlanOnAnOlderPlatform(t *testing.T) {
	older := api.New(uitest.DemoServer(t, servertest.LackingPostBackup).URL, "admin", "admin")
	var archive bytes.Buffer
	if _, err := older.Backup(t.Context(), api.Path("/Data"), 0, &archive, nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "data.zip")
	if err := os.WriteFile(file, archive.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	p := New(common.NewContext(older, "http://dap.test", "admin", "", false))
	msgs := uitest.Run[common.Pane](p, p.planRestore(restoreRequest{path: "/Data", file: file, flags: api.RestoreOverwrite, skipUnchanged: true}),
		func(m tea.Msg) bool { _, ok := m.(common.OpenDialogMsg); return ok })
	d := uitest.Only[common.OpenDialogMsg](t, msgs).Dialog
	d.SetSize(100, 30)
	if v := viewOf(d); !strings.Contains(v, "nothing to send: every file is unchanged") {
		t.Errorf("the plan on an older platform:\n%s", v)
	}
}
