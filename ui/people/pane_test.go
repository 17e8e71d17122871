package people

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// foreign tells the messages the pane does not handle itself; uitest.Run
// keeps them for the test.
func foreign(msg tea.Msg) bool {
	switch msg.(type) {
	case listMsg, writeMsg, wroteMsg:
		return false
	}
	return true
}

// demoPane returns a pane of the size against the demo platform as user,
// the lists read.
func demoPane(t *testing.T, url, user string, width, height int, readOnly bool) *Pane {
	t.Helper()
	p := New(common.NewContext(api.New(url, user, user), "http://dap.test", user, "", readOnly))
	p.SetSize(width, height)
	uitest.Run(p, p.Init(), foreign)
	if !p.Loaded() || p.err != nil {
		t.Fatalf("lists not read: %v", p.err)
	}
	return p
}

// submit fills the dialog msgs opened (fields in order, tab between) and
// runs what it decides on the pane; it returns what the pane did not take.
func submit(t *testing.T, p *Pane, msgs []tea.Msg, values ...string) []tea.Msg {
	t.Helper()
	d := uitest.Dialog(msgs)
	if d == nil {
		t.Fatalf("no dialog among %#v", msgs)
	}
	for i, v := range values {
		if i > 0 {
			d, _ = d.Update(uitest.Key("tab"))
		}
		if v != "" {
			d = uitest.Type(d, v)
		}
	}
	d, decided := uitest.Submit(d)
	if d != nil {
		t.Fatalf("the dialog stays open: %s", d.View())
	}
	var out []tea.Msg
	for _, m := range decided {
		out = append(out, uitest.Run(p, common.Send(m), foreign)...)
	}
	return out
}

func confirm(t *testing.T, p *Pane, msgs []tea.Msg) []tea.Msg {
	t.Helper()
	d := uitest.Dialog(msgs)
	if d == nil {
		t.Fatalf("no confirmation among %#v", msgs)
	}
	_, cmd := d.Update(uitest.Key("y"))
	return uitest.Run(p, cmd, foreign)
}

// viewOf draws a dialog at a size where its text fits on few lines.
func viewOf(d common.Dialog) string {
	d.SetSize(200, 40)
	return d.View()
}

func userOf(p *Pane, name string) (model.User, bool) {
	i := slices.IndexFunc(p.users, func(u model.User) bool { return u.Username == name })
	if i < 0 {
		return model.User{}, false
	}
	return p.users[i], true
}

func selectRow(t *testing.T, p *Pane, name string) {
	t.Helper()
	i := slices.IndexFunc(p.rows, func(r row) bool { return r.name == name })
	if i < 0 {
		t.Fatalf("no row %s", name)
	}
	p.cursor[p.section] = i
}

func TestAdminManagesAUser(t *testing.T) {
	url := uitest.DemoServer(t, nil).URL
	p := demoPane(t, url, "admin", 120, 30, false)
	kept := submit(t, p, uitest.Run(p, uitest.Press(p, "n"), foreign), "ana", "ana@example.com", "pw one", "analysts", "")
	if _, ok := uitest.First[common.StatusMsg](kept); !ok {
		t.Fatalf("no notice: %#v", kept)
	}
	u, ok := userOf(p, "ana")
	if !ok || u.Email != "ana@example.com" || !slices.Equal(u.Groups, []string{"analysts"}) || !u.Enabled {
		t.Fatalf("created %+v", u)
	}
	if _, err := api.New(url, "ana", "pw one").LoggedInUser(t.Context()); err != nil {
		t.Fatalf("the new user logs in with the password typed once: %v", err)
	}
	selectRow(t, p, "ana")
	uitest.Run(p, uitest.Press(p, "x"), foreign)
	if u, _ := userOf(p, "ana"); u.Enabled {
		t.Fatalf("x disables: %+v", u)
	}
	selectRow(t, p, "ana")
	submit(t, p, uitest.Run(p, uitest.Press(p, "c"), foreign), "pw two")
	selectRow(t, p, "ana")
	msgs := uitest.Run(p, uitest.Press(p, "d"), foreign)
	if d := uitest.Dialog(msgs); d == nil || !strings.Contains(viewOf(d), "owns no files") {
		t.Fatalf("the delete confirmation says what the user owns: %#v", msgs)
	}
	confirm(t, p, msgs)
	if _, ok := userOf(p, "ana"); ok {
		t.Fatal("ana is still listed")
	}
	selectRow(t, p, "analyst")
	msgs = uitest.Run(p, uitest.Press(p, "d"), foreign)
	if d := uitest.Dialog(msgs); d == nil || !strings.Contains(viewOf(d), "they pass to the system owner") {
		t.Fatalf("the analyst owns files: %#v", msgs)
	}
}

func TestAdminManagesGroupsAndRoles(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "admin", 120, 30, false)
	uitest.Press(p, "]")
	if p.section != groups || len(p.rows) != 2 || !strings.Contains(p.View(), "viewer") {
		t.Fatalf("groups with members:\n%s", p.View())
	}
	submit(t, p, uitest.Run(p, uitest.Press(p, "n"), foreign), "ops")
	selectRow(t, p, "ops")
	msgs := uitest.Run(p, uitest.Press(p, "e"), foreign)
	uitest.Dialog(msgs).Update(uitest.Key("backspace"))
	for range "ops" {
		uitest.Dialog(msgs).Update(uitest.Key("backspace"))
	}
	submit(t, p, msgs, "operations")
	if !slices.ContainsFunc(p.groups, func(g model.Group) bool { return g.Name == "operations" }) {
		t.Fatalf("groups %+v", p.groups)
	}
	uitest.Press(p, "]")
	submit(t, p, uitest.Run(p, uitest.Press(p, "n"), foreign), "Ops", "WORKBOOK_EDIT")
	if len(p.roles) != 3 {
		t.Fatalf("roles %+v", p.roles)
	}
	uitest.Press(p, "[", "[")
	if p.section != users {
		t.Fatalf("[ goes back: %d", p.section)
	}
}

// Filtering and sorting as in the other panes; the cursor stays on its user.
func TestFilterAndSort(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "admin", 120, 30, false)
	uitest.Press(p, "/", "v", "i", "e", "enter")
	if len(p.rows) != 1 || p.rows[0].name != "viewer" {
		t.Fatalf("filter: %+v", p.rows)
	}
	uitest.Press(p, "esc")
	if len(p.rows) != 3 {
		t.Fatalf("esc clears: %+v", p.rows)
	}
	uitest.Press(p, "O")
	if p.rows[0].name != "viewer" {
		t.Fatalf("reversed: %+v", p.rows)
	}
	uitest.Press(p, "o", "O")
	if p.sortBy[users] != 1 || p.rows[0].name != "admin" {
		t.Fatalf("by enabled: %+v", p.rows)
	}
}

// A non-administrator sees their account and a sentence, not an error,
// and no write key does anything.
func TestNonAdministratorSeesOwnAccount(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "viewer", 80, 24, false)
	view := p.View()
	if !strings.Contains(view, "User management is for administrators") || !strings.Contains(view, "viewers") {
		t.Fatalf("view:\n%s", view)
	}
	for _, k := range []string{"n", "x", "e", "c", "d"} {
		if msgs := uitest.Run(p, uitest.Press(p, k), foreign); uitest.Dialog(msgs) != nil {
			t.Fatalf("%s opened a dialog for a non-administrator", k)
		}
	}
}

// Read-only: every write key is off.
func TestReadOnlyOffersNoWrite(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "admin", 120, 30, true)
	for _, k := range []string{"n", "x", "e", "c", "d"} {
		if msgs := uitest.Run(p, uitest.Press(p, k), foreign); uitest.Dialog(msgs) != nil || len(uitest.All[wroteMsg](msgs)) > 0 {
			t.Fatalf("%s acted in read-only mode: %#v", k, msgs)
		}
	}
}

// A failed write says why and changes nothing shown.
func TestRefusedWriteIsSaid(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "admin", 120, 30, false)
	selectRow(t, p, "admin")
	kept := uitest.Run(p, uitest.Press(p, "x"), foreign)
	st, ok := uitest.First[common.StatusMsg](kept)
	if !ok || !strings.Contains(st.Text, "administrator") {
		t.Fatalf("disabling the last administrator: %#v", kept)
	}
	if u, _ := userOf(p, "admin"); !u.Enabled {
		t.Fatalf("admin shown disabled")
	}
}

func TestNewUserFormKeepsNoPassword(t *testing.T) {
	p := demoPane(t, uitest.DemoServer(t, nil).URL, "admin", 120, 30, false)
	d := uitest.Dialog(uitest.Run(p, uitest.Press(p, "n"), foreign))
	d = uitest.Type(d, "bob")
	d, _ = d.Update(uitest.Key("tab"))
	d, _ = d.Update(uitest.Key("tab"))
	d = uitest.Type(d, "hunter2")
	if strings.Contains(d.View(), "hunter2") {
		t.Fatalf("the password shows:\n%s", d.View())
	}
}

// Golden screens of the pane at 80x24 and 120x40. Regenerate with
// `go test ./ui/people -run TestGolden -update`.
func TestGolden(t *testing.T) {
	url := uitest.DemoServer(t, nil).URL
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, c := range []struct {
			name, user string
			keys       []string
		}{
			{"Users", "admin", nil},
			{"Groups", "admin", []string{"]"}},
			{"Roles", "admin", []string{"]", "]"}},
			{"Viewer", "viewer", nil},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", c.name, size.w, size.h), func(t *testing.T) {
				p := demoPane(t, url, c.user, size.w, size.h, false)
				uitest.Press(p, c.keys...)
				golden.RequireEqual(t, []byte(uitest.Screen(p.View())))
			})
		}
	}
}
