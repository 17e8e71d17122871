package folders

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// These tests drive the pane with the messages the server's answers become,
// built from wire values; the tests against the real server are in ui/.

var nextTestID int64 = 100

func entries(names ...string) []model.FolderEntry {
	out := make([]model.FolderEntry, len(names))
	for i, n := range names {
		nextTestID++
		out[i] = model.FolderEntry{Name: n, Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", nextTestID)}}}
	}
	return out
}

func rootFolder(children ...string) model.Folder {
	return model.Folder{Name: "/", Links: model.Links{
		"self":       {Href: "/api/filesystem/root-folder"},
		"permission": {Href: "/api/filesystem/folders/1/permission"},
	}, Embedded: model.FolderChildren{Folders: entries(children...)}}
}

func newTestPane(t *testing.T, width, height int) *Pane {
	t.Helper()
	p := New(common.NewContext(nil, "http://dap.test", "admin", "", false))
	p.SetSize(width, height)
	p.Update(childrenMsg{ticket: p.nextRead(0), folder: rootFolder("Users", "Data", "Analytics")})
	return p
}

// latestRead is the ticket of the latest read of folder id, 0 when none
// is in flight.
func latestRead(p *Pane, id int64) common.Ticket {
	if r := p.reads[id]; r != nil {
		return r.Latest()
	}
	return 0
}

// answer delivers the server's answer to the latest read of folder n.
func answer(p *Pane, n *node, children ...string) {
	p.Update(childrenMsg{ticket: latestRead(p, n.id), nodeID: n.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: entries(children...)}}})
}

func (p *Pane) selectedPath() string { return p.selected().path() }

func TestCursorMoves(t *testing.T) {
	tests := []struct {
		keys []string
		want string
	}{
		{nil, "/"},
		{[]string{"j"}, "/Users"},
		{[]string{"down", "down"}, "/Data"},
		{[]string{"j", "j", "j", "j", "j"}, "/Analytics"},
		{[]string{"G"}, "/Analytics"},
		{[]string{"G", "g"}, "/"},
		{[]string{"k", "k"}, "/"},
		{[]string{"pgdown"}, "/Analytics"},
		{[]string{"j", "j", "left"}, "/"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, " "), func(t *testing.T) {
			p := newTestPane(t, 60, 20)
			uitest.Press(p, tt.keys...)
			if got := p.selectedPath(); got != tt.want {
				t.Fatalf("cursor on %s, want %s", got, tt.want)
			}
		})
	}
}

func TestOpenReadsOnceThenSteps(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "j")
	data := p.selected()
	if cmd := uitest.Press(p, "enter"); cmd == nil || data.state != common.Loading {
		t.Fatalf("opening an unread folder did not read it (state %v)", data.state)
	}
	if screen := ansi.Strip(p.View()); !strings.Contains(screen, "Data/") {
		t.Fatalf("loading folder not drawn:\n%s", screen)
	}
	answer(p, data, "Connections", "ImportJobs")
	if got := len(p.tree.rows); got != 6 {
		t.Fatalf("%d rows after opening, want 6", got)
	}
	uitest.Press(p, "right")
	if got := p.selectedPath(); got != "/Data/Connections" {
		t.Fatalf("→ on an open folder went to %s", got)
	}
	uitest.Press(p, "left")
	if got := p.selectedPath(); got != "/Data" {
		t.Fatalf("← on a closed child went to %s", got)
	}
	uitest.Press(p, "left")
	if data.expanded || len(p.tree.rows) != 4 {
		t.Fatalf("← did not close /Data: expanded=%v rows=%d", data.expanded, len(p.tree.rows))
	}
	if cmd := uitest.Press(p, "enter"); data.state != common.Loaded || len(p.tree.rows) != 6 {
		t.Fatalf("reopening read again or lost children: cmd=%v state=%v rows=%d", cmd != nil, data.state, len(p.tree.rows))
	}
}

func TestStaleAnswersAreDropped(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "j", "enter")
	data := p.selected()
	stale := latestRead(p, data.id)
	uitest.Press(p, "r") // a refresh replaces the first read
	if latestRead(p, data.id) == stale {
		t.Fatal("refresh did not start a new read")
	}
	p.Update(childrenMsg{ticket: stale, nodeID: data.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: entries("Old")}}})
	if data.child("Old") != nil {
		t.Fatal("a stale answer was applied")
	}
	answer(p, data, "New")
	if data.child("New") == nil {
		t.Fatal("the current answer was dropped")
	}
}

func TestRefreshKeepsOpenFoldersAndMarks(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "j", "enter")
	data := p.selected()
	answer(p, data, "Connections", "ImportJobs")
	conn := data.child("Connections")
	uitest.Press(p, "j", "space")
	if p.tree.markedCount != 1 {
		t.Fatalf("marked %d, want 1", p.tree.markedCount)
	}
	// The server now lists Connections under the same id, ImportJobs gone.
	p.Update(childrenMsg{ticket: p.nextRead(data.id), nodeID: data.id, folder: model.Folder{Embedded: model.FolderChildren{Folders: []model.FolderEntry{
		{Name: "Connections", Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", conn.id)}}},
	}}}})
	if data.child("Connections") != conn || !conn.marked || data.child("ImportJobs") != nil {
		t.Fatal("refresh did not keep the surviving child's state or drop the gone one")
	}
	if p.tree.markedCount != 1 {
		t.Fatalf("marked count %d after refresh, want 1", p.tree.markedCount)
	}
	uitest.Press(p, "esc")
	if p.tree.markedCount != 0 || conn.marked {
		t.Fatal("esc did not clear the marks")
	}
}

func TestFilter(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "j", "enter")
	answer(p, p.selected(), "Connections", "ImportJobs")
	uitest.Press(p, "/", "i", "m", "p")
	if !p.CapturingInput() {
		t.Fatal("the filter does not capture typing")
	}
	var names []string
	for _, r := range p.tree.rows {
		names = append(names, r.name)
	}
	if got := strings.Join(names, ","); got != "/,Data,ImportJobs" {
		t.Fatalf("filtered rows %s", got)
	}
	uitest.Press(p, "enter")
	if p.CapturingInput() || p.tree.filter != "imp" {
		t.Fatal("enter did not keep the filter and leave the field")
	}
	uitest.Press(p, "esc")
	if p.tree.filter != "" || len(p.tree.rows) != 6 {
		t.Fatalf("esc did not clear the filter: %q, %d rows", p.tree.filter, len(p.tree.rows))
	}
}

func TestGotoPath(t *testing.T) {
	p := newTestPane(t, 60, 20)
	cmd := p.startGoto("/Data/Connections")
	data := p.tree.root.child("Data")
	if cmd == nil || data.state != common.Loading {
		t.Fatal(":cd did not read /Data on the way")
	}
	answer(p, data, "Connections", "ImportJobs")
	if got := p.selectedPath(); got != "/Data/Connections" {
		t.Fatalf("cursor on %s", got)
	}
	// A segment not found reads its folder again once (it may be new),
	// and only then is said to be missing.
	cmd = p.startGoto("/Data/Nope")
	if cmd == nil || !p.reading(data.id) {
		t.Fatal(":cd did not read /Data again for a folder it does not know")
	}
	_, cmd = p.Update(childrenMsg{ticket: latestRead(p, data.id), nodeID: data.id,
		folder: model.Folder{Embedded: model.FolderChildren{Folders: entries("Connections", "ImportJobs")}}})
	if msg, ok := cmd().(common.StatusMsg); !ok || msg.Level != common.LevelError || !strings.Contains(msg.Text, "/Data/Nope") {
		t.Fatalf("a missing folder gave %#v", cmd())
	}
	if got := p.selectedPath(); got != "/Data" {
		t.Fatalf("cursor on %s after a failed :cd, want the deepest folder found", got)
	}
}

func TestReadFailureMarksTheFolder(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "enter")
	users := p.selected()
	cmd := func() tea.Cmd {
		_, c := p.Update(childrenMsg{ticket: latestRead(p, users.id), nodeID: users.id, err: fmt.Errorf("boom")})
		return c
	}()
	if users.state != common.LoadFailed {
		t.Fatalf("state %v", users.state)
	}
	if msg, ok := cmd().(common.StatusMsg); !ok || !strings.Contains(msg.Text, "reading /Users: boom") {
		t.Fatalf("status %#v", cmd())
	}
	if screen := ansi.Strip(p.View()); !strings.Contains(screen, "✗ Users/") {
		t.Fatalf("failed folder not marked:\n%s", screen)
	}
}

func TestRowsNeverOverflow(t *testing.T) {
	p := newTestPane(t, 60, 20)
	for w := 1; w < 70; w += 3 {
		for h := 1; h < 25; h += 2 {
			p.SetSize(w, h)
			lines := strings.Split(p.View(), "\n")
			if len(lines) > h {
				t.Fatalf("%d×%d: %d lines", w, h, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%d×%d: %q too wide", w, h, ansi.Strip(l))
				}
			}
		}
	}
}

// TestNotLoggedInSaysSo: at a first start the login screen covers a pane
// that has no client; it says so instead of a read that never comes.
func TestNotLoggedInSaysSo(t *testing.T) {
	p := New(common.NewContext(nil, "", "", "", false))
	p.SetSize(40, 5)
	if cmd := p.Init(); cmd != nil {
		t.Error("a pane with no client starts a read")
	}
	if view := ansi.Strip(p.View()); !strings.Contains(view, "not logged in") || strings.Contains(view, "reading") {
		t.Errorf("view with no client:\n%s", view)
	}
}

// TestUnauthorizedReadBringsTheLogin: a 401 on a folder read (the password
// changed meanwhile) is the root's to handle with the login screen, not a
// line in the status.
func TestUnauthorizedReadBringsTheLogin(t *testing.T) {
	p := newTestPane(t, 60, 20)
	uitest.Press(p, "j", "enter")
	users := p.selected()
	refused := &api.Error{Op: "GET /api/filesystem/folders/2", Status: 401}
	_, cmd := p.Update(childrenMsg{ticket: latestRead(p, users.id), nodeID: users.id, err: refused})
	if _, ok := cmd().(common.UnauthorizedMsg); !ok {
		t.Fatalf("a 401 became %#v", cmd())
	}
	_, cmd = p.Update(transferDone{err: refused})
	if _, ok := cmd().(common.UnauthorizedMsg); !ok {
		t.Fatalf("a 401 on a backup became %#v", cmd())
	}
}

func TestRefreshWithARenameUnderAFilter(t *testing.T) {
	tr := newTree()
	entry := func(id int64, name string) model.FolderEntry {
		return model.FolderEntry{Name: name, Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", id)}}}
	}
	tr.setRoot(model.Folder{Links: model.Links{"permission": {Href: "/api/filesystem/folders/1/permission"}},
		Embedded: model.FolderChildren{Folders: []model.FolderEntry{entry(2, "Data"), entry(3, "Reports")}}})
	tr.filter = "sales"
	tr.rebuild()
	if len(tr.rows) != 1 {
		t.Fatalf("%d rows match sales before the rename, want the root only", len(tr.rows))
	}
	tr.setChildren(tr.root, []model.FolderEntry{entry(2, "Data"), entry(3, "Sales reports")})
	if len(tr.rows) != 2 || tr.rows[1].name != "Sales reports" {
		t.Errorf("after the rename the filter shows %d rows", len(tr.rows))
	}
	tr.filter = ""
	tr.rebuild()
	tr.setChildren(tr.root, []model.FolderEntry{entry(3, "Sales reports"), entry(2, "Data")})
	if names := []string{tr.rows[1].name, tr.rows[2].name}; names[0] != "Sales reports" {
		t.Errorf("after a read in another order the rows are %v", names)
	}
}

func TestRestoredGist(t *testing.T) {
	tests := []struct {
		name   string
		result model.RestoreResult
		want   string
	}{
		{"listed", model.RestoreResult{Restored: []string{"/A.dst"}, Skipped: []model.SkippedFile{}}, "restored 1 file, skipped 0"},
		{"listed empty", model.RestoreResult{Restored: []string{}}, "restored 0 files, skipped 0"},
		{"not listed by the server", model.RestoreResult{Status: model.StatusSuccess}, "restored (the server did not list the files)"},
	}
	for _, tt := range tests {
		if got := restoredGist(tt.result); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRestoreSummaryCleansWhatTheServerNamed: the paths and reasons a
// restore's answer lists, skipped or kept hidden, reach the terminal
// cleaned; the kept ones once went through raw.
func TestRestoreSummaryCleansWhatTheServerNamed(t *testing.T) {
	const hostile = "/Data/\u202eevil\x1b]8;;http://x\x07.dst"
	ctx := common.NewContext(nil, "http://dap.test", "admin", "", false)
	d := newTransferDialog(ctx, 1, "Restore into /Data", "Data.zip", nil, func() {})
	d.restore = true
	d.SetSize(100, 30)
	d.Update(transferDone{id: 1, restore: true, result: model.RestoreResult{
		Restored:   []string{},
		Skipped:    []model.SkippedFile{{Path: hostile, Reason: "missing \u202edependency"}},
		KeptHidden: []model.SkippedFile{{Path: hostile, Reason: "hidden \u202eproperties"}},
	}})
	view := d.View()
	for _, raw := range []string{"\u202e", "\x1b]8", "\x07"} {
		if strings.Contains(view, raw) {
			t.Errorf("the summary holds %q raw:\n%q", raw, view)
		}
	}
	if got := strings.Count(view, "kept "); got != 1 {
		t.Errorf("%d kept lines:\n%s", got, view)
	}
}
