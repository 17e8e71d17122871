package folders

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// profilesTo is one saved profile, "other", of the platform at client.
type profilesTo struct{ client *api.Client }

func (p profilesTo) Names() ([]string, error) { return []string{"other"}, nil }

func (p profilesTo) Connect(name string) (*api.Client, func(string) string, error) {
	if p.client == nil {
		return nil, nil, errors.New("no password for other and no terminal to ask on")
	}
	return p.client, nil, nil
}

// planCopyOf runs the plan of a copy of source to other:/Copied and
// returns the status line it ends with, or the dialog it opens.
func planCopyOf(t *testing.T, source, target *api.Client, src restoreplan.Source) (common.StatusMsg, common.Dialog) {
	t.Helper()
	ctx := common.NewContext(source, "http://dap.test", "admin", "", false)
	ctx.Profiles = profilesTo{client: target}
	p := New(ctx)
	msgs := uitest.Run[common.Pane](p, p.planCopy(copyRequest{source: src, label: "/Data", profile: "other", into: "/Copied"}), func(m tea.Msg) bool {
		switch m.(type) {
		case common.OpenDialogMsg, common.StatusMsg, copySendMsg:
			return true
		}
		return false
	})
	status, _ := uitest.First[common.StatusMsg](msgs)
	open, _ := uitest.First[common.OpenDialogMsg](msgs)
	if _, sent := uitest.First[copySendMsg](msgs); sent {
		t.Fatal("planning sent the copy")
	}
	return status, open.Dialog
}

// Unhappy copies: a profile that cannot connect, and marked files copied
// from a platform before 7.2.6 (no POST backup), which says that only the
// whole folder can be chosen there; neither opens a plan.
func TestCopyFailures(t *testing.T) {
	older := api.New(uitest.DemoServer(t, servertest.LackingPostBackup).URL, "admin", "admin")
	other := uitest.DemoClient(t)
	for _, tc := range []struct {
		name           string
		source, target *api.Client
		src            restoreplan.Source
		want           string
	}{
		{"the profile does not connect", older, nil, restoreplan.Source{Folder: api.Path("/Data")}, "no password for other"},
		{"chosen files on an older platform", older, other, restoreplan.Source{Folder: api.Path("/Data"),
			Files: []api.Ref{api.Path("/Data/ImportJobs/Orders.imp")}}, "take the whole folder instead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, d := planCopyOf(t, tc.source, tc.target, tc.src)
			if d != nil || status.Level != common.LevelError || !strings.Contains(status.Text, tc.want) {
				t.Errorf("status %+v, dialog %v; want an error saying %q", status, d != nil, tc.want)
			}
		})
	}
	// The whole folder copies from the older platform as from any other;
	// chosen files from a newer one.
	if status, d := planCopyOf(t, older, other, restoreplan.Source{Folder: api.Path("/Data")}); d == nil {
		t.Errorf("the whole folder from an older platform: %+v", status)
	}
	status, d := planCopyOf(t, other, older, restoreplan.Source{Folder: api.Path("/Data"), Files: []api.Ref{api.Path("/Data/ImportJobs")}})
	if d == nil {
		t.Fatalf("chosen files from a newer platform: %+v", status)
	}
	d.SetSize(100, 40)
	if v := viewOf(d); !strings.Contains(v, "/Copied/ImportJobs/Orders.imp") || strings.Contains(v, "Connections/") {
		t.Errorf("the plan of the chosen folder:\n%s", v)
	}
}

// The copy dialog's keys: y asks for the secrets while only they lack, n
// and esc cancel with nothing sent; y sends nothing the target would
// refuse for another reason.
func TestCopyDialogKeys(t *testing.T) {
	ctx := common.NewContext(nil, "http://dap.test", "admin", "", false)
	needs := planOf(restoreplan.File{Path: "/Copied/a.dst", Action: restoreplan.NeedsSecret, Reason: "[password] sealed"},
		restoreplan.File{Path: "/Copied/b.imp", Action: restoreplan.Create})
	refused := planOf(restoreplan.File{Path: "/Copied/a.dst", Action: restoreplan.NeedsSecret},
		restoreplan.File{Path: "/Copied/b.imp", Action: restoreplan.Refuse, Reason: "unknown owner bob (restore with substitute-missing-user to own it yourself)"})
	open := func(plan restoreplan.Plan) *copyDialog {
		d := newCopyDialog(ctx, copyPlanned{req: copyRequest{label: "/Data", profile: "other", into: "/Copied"},
			copy: &restoreplan.Copy{Plan: plan, Needed: map[string][]string{"/Data/a.dst": {"password"}}}})
		d.SetSize(100, 30)
		return d
	}
	_, cmd := open(needs).Update(uitest.Key("y"))
	form := uitest.Only[common.OpenDialogMsg](t, uitest.Messages(cmd)).Dialog
	form.SetSize(100, 30)
	if v := viewOf(form); !strings.Contains(v, "/Data/a.dst password") || !strings.Contains(v, "SECURE:") {
		t.Errorf("the secrets form:\n%s", v)
	}
	form = uitest.Type(form, "s3cret")
	if strings.Contains(viewOf(form), "s3cret") {
		t.Error("a secret shows as typed")
	}
	_, msgs := uitest.Submit(form)
	if req := uitest.Only[copyRequest](t, msgs); req.secrets["/Data/a.dst"]["password"] != "s3cret" {
		t.Errorf("secrets given %v", req.secrets)
	}

	d := open(refused)
	if v := viewOf(d); !strings.Contains(v, "substitute-missing-user") {
		t.Errorf("an unknown owner is not named with the flag that resolves it:\n%s", v)
	}
	_, cmd = d.Update(uitest.Key("y"))
	if !uitest.OnlyRefusal(uitest.Messages(cmd), "would refuse this copy") {
		t.Errorf("y on a refused copy: %#v", uitest.Messages(cmd))
	}
	for _, k := range []string{"n", "esc"} {
		next, cmd := open(needs).Update(uitest.Key(k))
		status := uitest.Only[common.StatusMsg](t, uitest.Messages(cmd))
		if next != nil || !strings.Contains(status.Text, "nothing was sent") {
			t.Errorf("%s: open %v, status %q", k, next != nil, status.Text)
		}
	}
}

// C says why it does nothing in a console without saved profiles (served
// over SSH).
func TestCopyNeedsProfiles(t *testing.T) {
	p := paneWithFiles(t, false)
	if msgs := uitest.Messages(uitest.Press(p, "C")); !uitest.OnlyRefusal(msgs, "no saved profiles") {
		t.Errorf("C without profiles: %#v", msgs)
	}
}
