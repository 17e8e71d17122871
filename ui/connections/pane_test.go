package connections

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func TestListKeys(t *testing.T) {
	tests := []struct {
		name       string
		keys       []string
		wantCursor string // name of the connection under the cursor
		wantRows   int
		check      func(t *testing.T, p *Pane)
	}{
		{"down moves", []string{"j", "j"}, "conn-00002", 30, nil},
		{"up stops at the top", []string{"k", "k"}, "conn-00000", 30, nil},
		{"bottom", []string{"G"}, "conn-00029", 30, nil},
		{"page down", []string{"pgdown"}, "conn-00008", 30, nil},
		{"hide system keeps the cursor", []string{"j", "j", "."}, "conn-00002", 27, func(t *testing.T, p *Pane) {
			if !strings.Contains(uitest.Screen(p.View()), "3 system hidden") {
				t.Errorf("the title does not say system connections are hidden:\n%s", uitest.Screen(p.View()))
			}
		}},
		{"hide and show again", []string{".", "."}, "conn-00001", 30, nil},
		{"sort by type then reverse", []string{"o", "O"}, "conn-00000", 30, func(t *testing.T, p *Pane) {
			if p.list.sortBy != colType || !p.list.descending {
				t.Errorf("sort = %v descending %v", p.list.sortBy, p.list.descending)
			}
		}},
		{"sort by path descending puts system last", []string{"o", "o", "O", "G"}, "conn-00000", 30, nil},
		{"sort cycles back to name", []string{"o", "o", "o", "o"}, "conn-00000", 30, func(t *testing.T, p *Pane) {
			if p.list.sortBy != colName {
				t.Errorf("sort = %v", p.list.sortBy)
			}
		}},
		{"filter", []string{"/", "0", "0", "0", "0", "2"}, "conn-00002", 1, func(t *testing.T, p *Pane) {
			if !p.CapturingInput() {
				t.Error("the filter does not capture input")
			}
		}},
		{"filter takes q as text", []string{"/", "q", "!"}, "", 0, nil},
		{"esc clears the filter", []string{"/", "x", "esc"}, "conn-00000", 30, func(t *testing.T, p *Pane) {
			if p.CapturingInput() || p.list.filter != "" {
				t.Error("esc left the filter on")
			}
		}},
		{"enter keeps the filter, esc then clears it", []string{"/", "1", "enter", "esc"}, "conn-00001", 30, nil},
		{"details and back", []string{"j", "i", "esc"}, "conn-00001", 30, func(t *testing.T, p *Pane) {
			if p.mode != modeList {
				t.Errorf("mode %v after esc", p.mode)
			}
		}},
		{"graph and back", []string{"j", "enter", "left"}, "conn-00001", 30, func(t *testing.T, p *Pane) {
			if p.mode != modeList || p.graphs[2] == nil {
				t.Errorf("mode %v, cached graph %v", p.mode, p.graphs[2])
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := withList(newTestPane(nil, 100, 10, false), entries(30))
			uitest.Press(p, tt.keys...)
			got := ""
			if e := p.selected(); e != nil {
				got = e.Name
			}
			if tt.wantRows > 0 && got != tt.wantCursor {
				t.Errorf("cursor on %q, want %q", got, tt.wantCursor)
			}
			if len(p.list.rows) != tt.wantRows {
				t.Errorf("%d rows, want %d", len(p.list.rows), tt.wantRows)
			}
			if lines := strings.Count(p.View(), "\n") + 1; lines > 10 {
				t.Errorf("the view has %d lines in a pane of 10", lines)
			}
			if tt.check != nil {
				tt.check(t, p)
			}
		})
	}
}

func TestReadOnlyDisablesWrites(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, true), entries(3))
	for _, k := range []string{"e", "n", "d"} {
		if got := uitest.Messages(uitest.Press(p, k)); !uitest.OnlyRefusal(got, common.ReadOnlyReason) {
			t.Errorf("%s in a read-only session sent %#v, want only the refusal", k, got)
		}
	}
}

func TestLevelControl(t *testing.T) {
	p := withList(newTestPane(nil, 100, 20, false), entries(3))
	uitest.Press(p, "enter")
	steps := []struct {
		key  string
		want int
	}{{"<", 1}, {">", 2}, {">", 3}, {">", 4}, {">", 5}, {">", 6}, {">", 7}, {">", 8}, {">", 9}, {">", 0}, {">", 0}, {"<", 1}}
	for _, s := range steps {
		uitest.Press(p, s.key)
		if p.level != s.want {
			t.Fatalf("after %s the level is %d, want %d", s.key, p.level, s.want)
		}
	}
}

func TestLevelDownFromAllStepsBelowTheDeepest(t *testing.T) {
	p := withList(newTestPane(nil, 100, 20, false), entries(3))
	uitest.Press(p, "enter")
	g := p.graph
	g.down.state = common.Loaded
	parent := g.down
	for i := range 4 { // a chain four deep
		g.setDependencies(parent, []model.Dependency{dep(int64(100+i), fmt.Sprintf("/Analytics/w%d.wbk", i))})
		parent = parent.children[0]
	}
	p.level = 0
	uitest.Press(p, "<")
	if p.level != 3 {
		t.Fatalf("level %d, want 3", p.level)
	}
}

func dep(id int64, path string) model.Dependency {
	kind, _ := model.KindOfPath(path)
	return model.Dependency{ID: id, File: model.DependencyFile{Path: path, Type: string(kind), UUID: fmt.Sprintf("u-%d", id)}}
}

func TestGraphMarksRepeatsAndNeverLoops(t *testing.T) {
	g := newGraph(1, "/Data/Connections/A.dst")
	imp1, imp2 := dep(10, "/Data/ImportJobs/One.imp"), dep(11, "/Data/ImportJobs/Two.imp")
	wbk := dep(20, "/Analytics/Both.wbk")
	g.setDependencies(g.down, []model.Dependency{imp2, imp1})
	g.setDependencies(g.down.children[0], []model.Dependency{wbk})
	g.setDependencies(g.down.children[1], []model.Dependency{wbk})
	// a cycle back to the first import job and to the connection itself
	both := g.down.children[0].children[0]
	g.setDependencies(both, []model.Dependency{imp1, {ID: 1, File: model.DependencyFile{Path: "/Data/Connections/A.dst", Type: "connection"}}})

	if g.down.children[0].dep.ID != 10 {
		t.Fatalf("siblings not in path order: %+v", g.down.children)
	}
	if both.repeat || !g.down.children[1].children[0].repeat {
		t.Error("the workbook reached twice is not drawn once and marked once")
	}
	if len(both.children) != 1 || !both.children[0].repeat {
		t.Errorf("the cycle back to an import job is not marked: %+v", both.children)
	}
	if got := g.frontier(0); len(got) != 1 || got[0] != g.up {
		t.Errorf("frontier %v: repeats must not be read again", got)
	}
	lines := g.flatten(0, guideSymbols{pipe: "| ", space: "  "})
	if len(lines) != 7 { // two headings, two jobs, the workbook twice, the repeat below it
		t.Errorf("%d lines, want 7", len(lines))
	}
}

func TestOpenWhereItLives(t *testing.T) {
	tests := []struct {
		node *node
		want []any
	}{
		{&node{dep: dep(10, "/Data/ImportJobs/Orders.imp"), kind: model.KindImportJob, depth: 1},
			[]any{common.FocusPaneMsg{Pane: common.JobsPane}, common.OpenJobMsg{ConfigID: 10, UUID: "u-10", Path: "/Data/ImportJobs/Orders.imp"}}},
		{&node{dep: dep(30, "/Visualization/Sales Dashboard.gra"), kind: model.KindInfographic, depth: 2},
			[]any{common.GotoPathMsg{Path: "/Visualization"}}},
		{&node{dep: dep(1, "/Data/Connections/A.dst"), kind: model.KindConnection},
			[]any{common.GotoPathMsg{Path: "/Data/Connections"}}},
	}
	for _, tt := range tests {
		msgs := uitest.Expand(openWhereItLives(tt.node))
		if fmt.Sprint(msgs) != fmt.Sprint(tt.want) {
			t.Errorf("%s: %v, want %v", tt.node.dep.File.Path, msgs, tt.want)
		}
	}
}

func TestTinyPane(t *testing.T) {
	p := withList(newTestPane(nil, 12, 2, false), entries(50))
	for _, k := range []string{"", "enter", "esc", "i"} {
		if k != "" {
			uitest.Press(p, k)
		}
		if lines := strings.Count(p.View(), "\n") + 1; lines > 2 {
			t.Errorf("after %q the view has %d lines in a pane of 2", k, lines)
		}
	}
	p.SetSize(0, 0)
	if p.View() != "" {
		t.Error("a pane of no size draws something")
	}
}

func TestServerDownSaysSo(t *testing.T) {
	p := newTestPane(nil, 100, 10, false)
	other := uitest.Run(p, p.Init(), foreign)
	if len(other) != 1 || !strings.Contains(fmt.Sprint(other[0]), "the server does not answer") {
		t.Fatalf("messages %v, want one saying the server does not answer", other)
	}
	if !strings.Contains(uitest.Screen(p.View()), "could not read the connections") {
		t.Errorf("the pane does not say so:\n%s", uitest.Screen(p.View()))
	}
}

func TestStaleListDropped(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(5))
	stale := p.listReads.Next()
	p.listReads.Next()
	p.Update(listMsg{ticket: stale, entries: entries(1)})
	if len(p.list.all) != 5 {
		t.Fatalf("an answer to an older read replaced the list")
	}
}

func TestDetailsMaskEverySecret(t *testing.T) {
	p := withList(newTestPane(nil, 100, 20, false), entries(3))
	uitest.Press(p, "i")
	conn := model.Connection{File: model.FileInfo{Path: "/Data/Connections/conn-00000.dst"}, TypeID: "das.SftpDataStoreType",
		Properties: map[string][]string{"password": {"enc0ded\r\n"}, "ssh_key": {"KEYDATA"}, "private_key": {""},
			"access_key": {"AKIA"}, "secret_key": {"s/k"}, "user_name": {"bob"},
			// the real platform's names, and any name ending in password, secret or key
			"sshKey": {"SSHKEY"}, "tableau.password": {"TABPW"}, "oauth.clientSecret": {"CLSEC"}}}
	p.Update(detailsMsg{ticket: p.details.reads.Latest(), id: p.details.id, conn: conn})
	view := uitest.Screen(p.View())
	for _, secret := range []string{"enc0ded", "KEYDATA", "AKIA", "s/k", "SSHKEY", "TABPW", "CLSEC"} {
		if strings.Contains(view, secret) {
			t.Errorf("the details show %q:\n%s", secret, view)
		}
	}
	if n := strings.Count(view, "(secret, masked)"); n != 8 {
		t.Errorf("%d masked values, want 8:\n%s", n, view)
	}
}

func TestParseEdit(t *testing.T) {
	const path = "/Data/Connections/A.dst"
	valid := `{"className":"c","typeId":"das.JdbcDataStoreType","file":{"path":"` + path + `","name":"A"},"properties":{"user_name":["u"]}}`
	tests := []struct {
		name, text, wantErr string
	}{
		{"valid", valid, ""},
		{"syntax error with its line", "{\n  \"typeId\": \"x\",\n  oops\n}", "JSON line 3"},
		{"a field the console does not know", `{"typeId":"x","className":"c","file":{"path":"` + path + `"},"pullType":"NONE","colour":"red"}`, ""},
		{"moved", strings.Replace(valid, path, "/Elsewhere/A.dst", 1), "must stay"},
		{"no type", strings.Replace(valid, "das.JdbcDataStoreType", " ", 1), "typeId is empty"},
		{"sources", strings.Replace(valid, `"properties"`, `"sources":[{"path":"/x.imp"}],"properties"`, 1), "reads from no other file"},
		{"dataStore", strings.Replace(valid, `"properties"`, `"dataStore":{"path":"/x.dst"},"properties"`, 1), "reads from no other file"},
		{"empty property", strings.Replace(valid, `["u"]`, `[]`, 1), `property "user_name" has no value`},
		{"two objects", valid + valid, "text after"},
		{"wrong type", strings.Replace(valid, `["u"]`, `"u"`, 1), "properties must hold a list [ … ], not a string"},
		{"not an object", `["a"]`, "JSON line 1, column 2 (not counting the # lines): the file must hold one JSON object { … }, not an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseEdit(tt.text, path)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestStripComments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"# a\n# b\n{\n}\n", "{\n}\n"},
		{"  # indented\n{}", "{}"},
		{"{\n# not at the top\n}", "{\n# not at the top\n}"},
		{"# only comments", ""},
	}
	for _, tt := range tests {
		if got := stripComments(tt.in); got != tt.want {
			t.Errorf("stripComments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInvalidEditReopensWithTheError(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(3))
	shown := `{"typeId":"x"}`
	_, cmd := p.Update(editedMsg{id: 1, path: "/Data/Connections/A.dst", shown: shown, edited: `{"typeId": broken}`})
	if cmd == nil {
		t.Fatal("a broken edit was dropped")
	}
	if _, isStatus := cmd().(common.StatusMsg); isStatus {
		t.Fatal("a broken edit was reported instead of reopened")
	}
	text := editorText(`{"typeId": broken}`, "not a valid connection: line 1\nsecond line")
	if !strings.HasPrefix(text, "# NOT SAVED: not a valid connection: line 1\n# second line\n") ||
		!strings.HasSuffix(text, `{"typeId": broken}`) || stripComments(text) != `{"typeId": broken}` {
		t.Errorf("the reopened file:\n%s", text)
	}
	_, cmd = p.Update(editedMsg{id: 1, path: "/Data/Connections/A.dst", shown: shown, edited: shown + "\n"})
	if got := uitest.Expand(cmd); len(got) != 1 || !strings.Contains(fmt.Sprint(got[0]), "nothing changed") {
		t.Errorf("an unchanged file: %v, want a cancelled edit", got)
	}
}

// TestInvalidEditAgainWaitsForAKey: an editor that returns at once with
// the same broken JSON ($EDITOR a script) is reopened once by itself; the
// next time the console asks first, and only y opens it again.
func TestInvalidEditAgainWaitsForAKey(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(3))
	shown := `{"typeId":"x"}`
	_, cmd := p.Update(editedMsg{id: 1, path: "/Data/Connections/A.dst", shown: shown, edited: `{"typeId": broken}`, retry: true})
	ask, ok := uitest.Dialog(uitest.Expand(cmd)).(*dialog.Confirm)
	if !ok {
		t.Fatalf("a second broken edit did not ask: %v", uitest.Expand(cmd))
	}
	ask.SetSize(100, 20)
	if view := uitest.Screen(ask.View()); !strings.Contains(view, "was not saved") || !strings.Contains(view, "[y] edit again") {
		t.Errorf("the question:\n%s", view)
	}
	_, yes := ask.Update(uitest.Key("y"))
	again, ok := uitest.Expand(yes)[0].(editAgainMsg)
	if !ok || again.body != `{"typeId": broken}` || again.problem == "" {
		t.Fatalf("y sent %v", uitest.Expand(yes))
	}
	if _, cmd := p.Update(again); cmd == nil {
		t.Error("y did not open the editor")
	}
}

func TestBuildConnection(t *testing.T) {
	tests := []struct {
		name    string
		kind    newKind
		values  map[string]string
		wantErr string
		check   func(t *testing.T, c model.Connection)
	}{
		{"jdbc", kindJDBC, map[string]string{"name": "Orders", "folder": "/Data/Connections/", "url": "jdbc:postgresql://h/db", "user": "u", "password": "pw"}, "",
			func(t *testing.T, c model.Connection) {
				if c.File.Path != "/Data/Connections/Orders.dst" || c.DBType == nil || c.DBType.Name != "PostgreSQL" ||
					c.Property(model.PropPassword) != "pw" || c.TypeID != "das.JdbcDataStoreType" {
					t.Errorf("%+v", c)
				}
			}},
		{"file system without user", kindFileSystem, map[string]string{"name": "Files", "folder": "/Data", "url": "file:///srv/"}, "",
			func(t *testing.T, c model.Connection) {
				if _, ok := c.Properties[model.PropUserName]; ok || c.DBType != nil || c.TypeID != "das.FileSystemDataStoreType" {
					t.Errorf("%+v", c)
				}
			}},
		{"no name", kindJDBC, map[string]string{"folder": "/Data", "url": "jdbc:x"}, "name", nil},
		{"slash in name", kindJDBC, map[string]string{"name": "a/b", "folder": "/Data", "url": "jdbc:x"}, "name", nil},
		{"relative folder", kindJDBC, map[string]string{"name": "a", "folder": "Data", "url": "jdbc:x"}, "folder", nil},
		{"jdbc without jdbc:", kindJDBC, map[string]string{"name": "a", "folder": "/Data", "url": "mysql://x"}, "URL", nil},
		{"file system without scheme", kindFileSystem, map[string]string{"name": "a", "folder": "/Data", "url": "/srv"}, "URL", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := buildConnection(tt.kind, formValues(t, tt.values), nil)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one about %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, conn)
		})
	}
}

// TestBuildConnectionSeals: with the server's key at hand the password
// goes out sealed; a SECURE: value typed in goes as it is.
func TestBuildConnectionSeals(t *testing.T) {
	seal := func(plain string) string { return "SECURE:0:sealed(" + plain + ")" }
	tests := []struct{ typed, sent string }{
		{"pw", "SECURE:0:sealed(pw)"},
		{"SECURE:0:abc", "SECURE:0:abc"},
	}
	for _, tt := range tests {
		values := map[string]string{"name": "S", "folder": "/Data", "url": "jdbc:h2:mem", "password": tt.typed}
		conn, err := buildConnection(kindJDBC, formValues(t, values), seal)
		if err != nil {
			t.Fatal(err)
		}
		if got := conn.Property(model.PropPassword); got != tt.sent {
			t.Errorf("typed %q, sent %q, want %q", tt.typed, got, tt.sent)
		}
	}
}

// formValues fills the new-connection form through its keys and returns
// what it submits.
func formValues(t *testing.T, values map[string]string) dialog.Values {
	t.Helper()
	var got dialog.Values
	ctx := common.NewContext(nil, "", "admin", "", false)
	fields := []string{"name", "folder", "url", "user", "password", "description"}
	form := dialog.NewForm(ctx, "t", "", "ok", func() []dialog.Field {
		out := make([]dialog.Field, len(fields))
		for i, f := range fields {
			out[i] = dialog.Field{Name: f, Label: f, Text: true, Value: values[f]}
		}
		return out
	}(), func(v dialog.Values) (tea.Msg, error) { got = v; return nil, nil })
	form.Update(uitest.Key("enter"))
	return got
}

// TestDeleteWithDependentsOffersNoYes: against the embedded platform, a
// connection others read from is not offered for deletion: the box lists
// them and offers only to close, so neither y nor enter sends a delete. A
// delete the server refuses anyway (a dependent made after the check) is
// said in the status line and the connection stays.
func TestDeleteWithDependentsOffersNoYes(t *testing.T) {
	client := uitest.DemoClient(t)
	p := newTestPane(client, 120, 30, false)
	uitest.Run(p, p.Init(), foreign)
	if len(p.list.all) < 6 {
		t.Fatalf("%d connections in the demo", len(p.list.all))
	}
	uitest.Press(p, "j", "j")
	other := uitest.Run(p, uitest.Press(p, "d"), foreign)
	box, ok := uitest.Dialog(other).(*dialog.Confirm)
	if !ok {
		t.Fatalf("no dialog: %v", other)
	}
	box.SetSize(100, 30)
	view := uitest.Screen(box.View())
	if !strings.Contains(view, "/Data/ImportJobs/Orders.imp") || strings.Contains(view, "[y]") || !strings.Contains(view, "[enter] close") {
		t.Errorf("the box should list the dependents and offer only to close:\n%s", view)
	}
	for _, k := range []string{"y", "enter"} {
		next, cmd := box.Update(uitest.Key(k))
		if sent := uitest.Run(p, cmd, foreign); len(sent) > 0 {
			t.Errorf("%s sent %v", k, sent)
		}
		if k == "y" && next == nil {
			t.Error("y closed the box as if it were a yes")
		}
	}
	selected := p.selected()
	other = uitest.Run(p, func() tea.Msg { return deleteMsg{id: selected.ID, path: selected.Path} }, foreign)
	if len(other) == 0 || !strings.Contains(fmt.Sprint(other), "the server refused (409)") {
		t.Errorf("refusal: %v", other)
	}
	if _, err := client.Connection(context.Background(), selected.ID); err != nil {
		t.Errorf("the refused delete deleted: %v", err)
	}
}

func TestDeleteBody(t *testing.T) {
	many := make([]model.Dependency, 12)
	for i := range many {
		many[i] = dep(int64(i+10), fmt.Sprintf("/Data/ImportJobs/j%02d.imp", i))
	}
	many[11] = dep(99, "/Analytics/a.wbk")
	noEndpoint := &api.Error{Status: 404}
	tests := []struct {
		name       string
		msg        deleteCheckMsg
		want, omit []string
	}{
		{"nothing depends", deleteCheckMsg{}, []string{"Nothing depends on it."}, nil},
		{"listed first, jobs before workbooks, cut at eight", deleteCheckMsg{dependents: many},
			[]string{"12 files depend on it", "j00.imp", "j07.imp", "… and 4 more"}, []string{"j08.imp", "a.wbk"}},
		{"no dependency endpoint", deleteCheckMsg{err: noEndpoint}, []string{"cannot list what depends on it"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := deleteBody(tt.msg, theme.UnicodeGraph)
			end := "cannot be undone."
			if len(tt.msg.dependents) > 0 {
				end = "shows its graph)."
			}
			if !strings.HasSuffix(body, end) {
				t.Errorf("the body does not end %q:\n%s", end, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("the body lacks %q:\n%s", w, body)
				}
			}
			for _, o := range tt.omit {
				if strings.Contains(body, o) {
					t.Errorf("the body names %q:\n%s", o, body)
				}
			}
		})
	}
}

func TestDirectSortKeys(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(3))
	uitest.Press(p, "D")
	if p.list.sortBy != colDescription || p.list.descending {
		t.Fatalf("D: sort %d descending %v", p.list.sortBy, p.list.descending)
	}
	uitest.Press(p, "D")
	if !p.list.descending {
		t.Error("D again did not reverse")
	}
	uitest.Press(p, "A")
	if p.list.sortBy != colName || p.list.descending {
		t.Errorf("A: sort %d descending %v", p.list.sortBy, p.list.descending)
	}
}

// TestWatchTickReadsTheListQuietly: the root's watch tick reads the list
// again as a quiet task (no spinner), keeping the filter and the selection.
func TestWatchTickReadsTheListQuietly(t *testing.T) {
	p := withList(newTestPane(uitest.DemoClient(t), 100, 20, false), entries(30))
	uitest.Press(p, "/", "2", "enter", "j")
	selected, filter := p.selected().ID, p.list.filter
	_, cmd := p.Update(common.WatchTickMsg{})
	if cmd == nil {
		t.Fatal("a watch tick read nothing")
	}
	for _, msg := range uitest.Expand(cmd) {
		if l, ok := msg.(listMsg); ok {
			// Another answer, so its task's comparison too.
			l.entries = entries(30)
			l.changes = common.Diff(l.base, l.entries, connectionID, replaceLimit)
			p.Update(l)
		}
	}
	if p.list.filter != filter || p.selected() == nil || p.selected().ID != selected {
		t.Errorf("after a watch tick: filter %q, selection %v; want %q, #%d", p.list.filter, p.selected(), filter, selected)
	}
}
