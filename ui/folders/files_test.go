package folders

import (
	"context"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// demoFiles are files as the per-kind lists name them.
var demoFiles = []common.FileEntry{
	{FileEntry: model.FileEntry{ID: 8, Name: "Orders", Path: "/Data/ImportJobs/Orders.imp", UUID: "11111111-1111-1111-1111-111111111111"}, Kind: model.KindImportJob},
	{FileEntry: model.FileEntry{ID: 9, Name: "Customers", Path: "/Data/ImportJobs/Customers.imp", UUID: "22222222-2222-2222-2222-222222222222"}, Kind: model.KindImportJob},
	{FileEntry: model.FileEntry{ID: 2, Name: "Warehouse", Path: "/Data/Warehouse.dst", UUID: "33333333-3333-3333-3333-333333333333"}, Kind: model.KindConnection},
}

// paneWithFiles opens /Data (sub-folders Connections and ImportJobs) and
// /Data/ImportJobs, with the file lists read, and puts the cursor on the
// first file of ImportJobs (Customers.imp).
func paneWithFiles(t *testing.T, readOnly bool) *Pane {
	t.Helper()
	p := New(common.NewContext(nil, "http://dap.test", "admin", "", readOnly))
	p.SetSize(100, 20)
	p.Update(childrenMsg{ticket: p.nextRead(0), folder: rootFolder("Users", "Data")})
	p.Update(filesMsg{ticket: p.fileReads.Next(), index: common.NewFileIndex(demoFiles)})
	uitest.Press(p, "j", "j", "enter")
	answer(p, p.tree.root.child("Data"), "Connections", "ImportJobs")
	imports := p.tree.root.child("Data").child("ImportJobs")
	p.keepCursorOn(imports)
	uitest.Press(p, "enter")
	answer(p, imports)
	uitest.Press(p, "enter") // steps onto its first row
	if got := p.selectedPath(); got != "/Data/ImportJobs/Customers.imp" {
		t.Fatalf("cursor on %s", got)
	}
	return p
}

func rowNames(p *Pane) []string {
	var names []string
	for _, r := range p.tree.rows {
		names = append(names, r.name)
	}
	return names
}

func TestFilesShowUnderSubFolders(t *testing.T) {
	p := paneWithFiles(t, false)
	if got := strings.Join(rowNames(p), ","); got != "/,Users,Data,Connections,ImportJobs,Customers.imp,Orders.imp,Warehouse.dst" {
		t.Fatalf("rows %s", got)
	}
	p.Update(jobStatesMsg{folderID: p.tree.root.child("Data").child("ImportJobs").id,
		states: map[string]model.JobState{demoFiles[0].UUID: model.StateRunning, demoFiles[1].UUID: model.StateNone}})
	screen := ansi.Strip(p.View())
	for _, want := range []string{"Customers.imp", "⇣ import", "conf 9", "never run", "RUNNING", "⛁ connection"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	// A new index (after r or a write) keeps the rows of files still there.
	orders := p.tree.rows[6]
	p.Update(filesMsg{ticket: p.fileReads.Next(), index: common.NewFileIndex(demoFiles[:1])})
	if got := strings.Join(rowNames(p), ","); got != "/,Users,Data,Connections,ImportJobs,Orders.imp" || p.tree.rows[5] != orders {
		t.Fatalf("rows after the lists changed: %s", got)
	}
	if orders.jobState != model.StateRunning {
		t.Fatalf("Orders.imp lost its state: %q", orders.jobState)
	}
}

func TestMissingListIsSaidOnce(t *testing.T) {
	p := newTestPane(t, 60, 20)
	index := common.NewFileIndex(nil)
	index.Missing = []model.Kind{model.KindImportJob}
	_, cmd := p.Update(filesMsg{ticket: p.fileReads.Next(), index: index})
	msgs := uitest.Expand(cmd)
	if len(msgs) != 1 || !strings.Contains(msgs[0].(common.StatusMsg).Text, "does not list import-job files") {
		t.Fatalf("messages %#v", msgs)
	}
	if _, cmd := p.Update(filesMsg{ticket: p.fileReads.Next(), index: index}); len(uitest.Expand(cmd)) != 0 {
		t.Fatal("said it twice")
	}
}

func TestFileRowKeys(t *testing.T) {
	t.Run("p opens the file's permissions", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "p")
		if p.perms == nil || p.perms.path != "/Data/ImportJobs/Customers.imp" || p.perms.ref.String() != demoFiles[1].UUID {
			t.Fatalf("permissions %+v", p.perms)
		}
	})
	t.Run("space marks files for the backup of chosen files", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "space", "space")
		marked := p.tree.marked()
		if len(marked) != 2 || !marked[0].isFile() {
			t.Fatalf("marked %v", marked)
		}
		d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "b"))).Dialog
		d.SetSize(100, 20)
		if !strings.Contains(ansi.Strip(d.View()), "Backup of 2 marked files of /Data/ImportJobs") {
			t.Fatalf("backup dialog:\n%s", ansi.Strip(d.View()))
		}
	})
	t.Run("t triggers through the jobs pane", func(t *testing.T) {
		p := paneWithFiles(t, false)
		msg := uitest.Only[common.TriggerJobMsg](t, uitest.Expand(uitest.Press(p, "t")))
		if msg.Ref.String() != demoFiles[1].UUID || msg.Label != demoFiles[1].Path {
			t.Fatalf("trigger %+v", msg)
		}
	})
	t.Run("s stops through the jobs pane, which asks", func(t *testing.T) {
		p := paneWithFiles(t, false)
		if msg := uitest.Only[common.StopJobMsg](t, uitest.Expand(uitest.Press(p, "s"))); msg.Ref.String() != demoFiles[1].UUID {
			t.Fatalf("stop %+v", msg)
		}
	})
	t.Run("enter opens the job's history", func(t *testing.T) {
		p := paneWithFiles(t, false)
		cmd := uitest.Press(p, "enter")
		if msg := uitest.Only[common.OpenJobMsg](t, uitest.Expand(cmd)); msg.ConfigID != 9 {
			t.Fatalf("open %+v", msg)
		}
		if msg := uitest.Only[common.FocusPaneMsg](t, uitest.Expand(cmd)); msg.Pane != common.JobsPane {
			t.Fatalf("focus %+v", msg)
		}
	})
	t.Run("enter on a connection jumps to it", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "G")
		cmd := uitest.Press(p, "enter")
		if msg := uitest.Only[common.OpenConnectionMsg](t, uitest.Expand(cmd)); msg.ConfigID != 2 {
			t.Fatalf("open %+v", msg)
		}
		if msg := uitest.Only[common.FocusPaneMsg](t, uitest.Expand(cmd)); msg.Pane != common.ConnectionsPane {
			t.Fatalf("focus %+v", msg)
		}
	})
	t.Run("T opens the sequential trigger with the marked jobs", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "space", "space")
		msgs := uitest.Expand(uitest.Press(p, "k", "T"))
		msg := uitest.Only[common.SequenceFormMsg](t, msgs)
		if strings.Join(msg.Paths, ",") != "/Data/ImportJobs/Customers.imp,/Data/ImportJobs/Orders.imp" {
			t.Fatalf("paths %q", msg.Paths)
		}
		for _, m := range msgs {
			if focus, ok := m.(common.FocusPaneMsg); ok {
				t.Errorf("T also asked for pane %s: the form opens over the tree", focus.Pane)
			}
		}
	})
	t.Run("t on a connection says it does not run", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "G")
		if msg := uitest.Only[common.StatusMsg](t, uitest.Expand(uitest.Press(p, "t"))); !strings.Contains(msg.Text, "only jobs and workbooks run") {
			t.Fatalf("status %+v", msg)
		}
	})
	t.Run("← goes to the folder", func(t *testing.T) {
		p := paneWithFiles(t, false)
		uitest.Press(p, "left")
		if got := p.selectedPath(); got != "/Data/ImportJobs" {
			t.Fatalf("cursor on %s", got)
		}
	})
	t.Run("y and Y copy path and id", func(t *testing.T) {
		p := paneWithFiles(t, false)
		for _, tc := range []struct{ key, want string }{{"y", "copied path /Data/ImportJobs/Customers.imp"}, {"Y", "copied configuration id 9"}} {
			cmd := uitest.Press(p, tc.key)
			if msg := uitest.Only[common.StatusMsg](t, uitest.Expand(cmd)); !strings.HasPrefix(msg.Text, tc.want) {
				t.Fatalf("%s: status %q", tc.key, msg.Text)
			}
			if len(uitest.Expand(cmd)) != 2 {
				t.Fatalf("%s: no clipboard write among %#v", tc.key, uitest.Expand(cmd))
			}
		}
	})
	t.Run("read-only: t and s are refused, p and y still work", func(t *testing.T) {
		p := paneWithFiles(t, true)
		for _, k := range []string{"t", "s"} {
			if msgs := uitest.Expand(uitest.Press(p, k)); !uitest.OnlyRefusal(msgs, common.ReadOnlyReason) {
				t.Fatalf("%s in read-only gave %#v", k, msgs)
			}
		}
		uitest.Press(p, "p")
		if p.perms == nil {
			t.Fatal("p did not open the permissions")
		}
	})
}

func TestFolderManagementKeys(t *testing.T) {
	folderPane := func(t *testing.T, readOnly bool) *Pane {
		p := paneWithFiles(t, readOnly)
		uitest.Press(p, "left") // onto /Data/ImportJobs
		return p
	}
	submit := func(t *testing.T, cmd tea.Cmd, typed string) folderWrite {
		t.Helper()
		d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(cmd)).Dialog
		d = uitest.Type(d, typed)
		_, done := d.Update(uitest.Key("enter"))
		return uitest.Only[folderWrite](t, uitest.Expand(done))
	}
	t.Run("N makes a folder inside", func(t *testing.T) {
		p := folderPane(t, false)
		w := submit(t, uitest.Press(p, "N"), "Q3")
		if w.done != "created /Data/ImportJobs/Q3" || w.reread[0] != "/Data/ImportJobs" {
			t.Fatalf("write %+v", w)
		}
	})
	t.Run("N makes it on a platform whose folder endpoints take no path", func(t *testing.T) {
		client := api.New(uitest.DemoServer(t, servertest.TakingNoPaths).URL, "admin", "admin")
		imports, err := client.FolderByPath(context.Background(), "/Data/ImportJobs")
		if err != nil {
			t.Fatal(err)
		}
		p := folderPane(t, false)
		p.tree.root.child("Data").child("ImportJobs").id = imports.ID() // the tree's ids are that platform's
		w := submit(t, uitest.Press(p, "N"), "Q3")
		if err := w.run(context.Background(), client); err != nil {
			t.Fatalf("create: %v", err)
		}
		if _, err := client.FolderByPath(context.Background(), "/Data/ImportJobs/Q3"); err != nil {
			t.Fatalf("the new folder: %v", err)
		}
	})
	t.Run("F2 renames", func(t *testing.T) {
		p := folderPane(t, false)
		w := submit(t, uitest.Press(p, "f2"), "2")
		if w.done != "renamed /Data/ImportJobs to /Data/ImportJobs2" || !w.moved {
			t.Fatalf("write %+v", w)
		}
	})
	t.Run("F2 on a hostile name shows it cleaned", func(t *testing.T) {
		for _, hostile := range uitest.Hostile {
			p := folderPane(t, false)
			p.tree.rows[p.cursor].name = hostile
			d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "f2"))).Dialog
			d.SetSize(100, 20)
			if found := uitest.Controls(d.View()); len(found) > 0 {
				t.Errorf("name %q: the rename form holds %d control(s), first %s", hostile, len(found), found[0])
			}
		}
	})
	t.Run("a bad name is refused in the form", func(t *testing.T) {
		p := folderPane(t, false)
		d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "N"))).Dialog
		d, _ = d.Update(uitest.Key("/"))
		if _, cmd := d.Update(uitest.Key("enter")); len(uitest.Expand(cmd)) != 0 {
			t.Fatalf("a slash went through: %#v", uitest.Expand(cmd))
		}
	})
	t.Run(":rename and :mv", func(t *testing.T) {
		p := folderPane(t, false)
		p.ctx.Client = api.New("http://127.0.0.1:1", "admin", "admin") // the commands are built, not run
		for _, msg := range []tea.Msg{renameCommand{name: "Imports"}, moveCommand{target: "/Users"}} {
			_, cmd := p.Update(msg)
			if cmd == nil {
				t.Fatalf("%#v did nothing", msg)
			}
		}
		_, cmd := p.Update(moveCommand{target: "Users"})
		if msg := uitest.Only[common.StatusMsg](t, uitest.Expand(cmd)); !strings.Contains(msg.Text, "as a path") {
			t.Fatalf("a relative target: %q", msg.Text)
		}
	})
	t.Run("delete of a folder with contents is refused before asking", func(t *testing.T) {
		p := folderPane(t, false)
		if msg := uitest.Only[common.StatusMsg](t, uitest.Expand(uitest.Press(p, "d"))); !strings.Contains(msg.Text, "not empty") {
			t.Fatalf("status %q", msg.Text)
		}
	})
	t.Run("delete of an empty folder asks", func(t *testing.T) {
		p := folderPane(t, false)
		uitest.Press(p, "k") // /Data/Connections, read empty
		answer(p, p.selected())
		d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "d"))).Dialog
		d.SetSize(100, 20)
		if _, ok := d.(*dialog.Confirm); !ok || !strings.Contains(ansi.Strip(d.View()), "Delete the empty folder /Data/Connections?") {
			t.Fatalf("dialog:\n%s", ansi.Strip(d.View()))
		}
	})
	t.Run("read-only: N, F2, d and the commands are refused", func(t *testing.T) {
		p := folderPane(t, true)
		for _, k := range []string{"N", "f2", "d"} {
			if msgs := uitest.Expand(uitest.Press(p, k)); !uitest.OnlyRefusal(msgs, common.ReadOnlyReason) {
				t.Fatalf("%s in read-only gave %#v", k, msgs)
			}
		}
		_, cmd := p.Update(renameCommand{name: "x"})
		if msg := uitest.Only[common.StatusMsg](t, uitest.Expand(cmd)); !strings.Contains(msg.Text, "read-only") {
			t.Fatalf(":rename in read-only: %q", msg.Text)
		}
	})
}

// permissionsWithPeople opens the permissions of the selected file, read,
// with the platform's users and groups listed.
func permissionsWithPeople(t *testing.T, p *Pane) *permEditor {
	t.Helper()
	uitest.Press(p, "p")
	e := p.perms
	p.Update(permsMsg{ticket: e.reads.Latest(), target: e.path, perm: model.Permission{Owner: "analyst"}})
	p.Update(peopleMsg{users: []string{"admin", "analyst", "viewer"}, groups: []string{"analysts", "viewers"}})
	return e
}

func TestOwnerPickList(t *testing.T) {
	p := paneWithFiles(t, false)
	p.ctx.Client = api.New("http://127.0.0.1:1", "admin", "admin") // the write is built, not run
	e := permissionsWithPeople(t, p)
	uitest.Press(p, "k", "e", "ctrl+u", "v", "i")
	if screen := ansi.Strip(e.view()); !strings.Contains(screen, "viewer") {
		t.Fatalf("no pick list:\n%s", screen)
	}
	uitest.Press(p, "down", "enter")
	if got := e.owner.Value(); got != "viewer" || !e.editingOwner {
		t.Fatalf("picked %q (editing %v), want viewer still being edited", got, e.editingOwner)
	}
	if cmd := uitest.Press(p, "enter"); cmd == nil || e.editingOwner {
		t.Fatal("enter on a known user did not write")
	}
	uitest.Press(p, "e", "ctrl+u", "n", "o", "b", "o", "d", "y")
	msg := uitest.Only[common.StatusMsg](t, uitest.Expand(uitest.Press(p, "enter")))
	if !strings.Contains(msg.Text, `unknown user "nobody"`) || !e.editingOwner {
		t.Fatalf("an unknown user: %q (editing %v)", msg.Text, e.editingOwner)
	}
}

func TestGroupPickList(t *testing.T) {
	p := paneWithFiles(t, false)
	permissionsWithPeople(t, p)
	d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "a"))).Dialog
	d.SetSize(100, 20)
	for _, r := range "nope" {
		d, _ = d.Update(uitest.Key(string(r)))
	}
	d, cmd := d.Update(uitest.Key("enter"))
	if cmd != nil || !strings.Contains(ansi.Strip(d.View()), `unknown group "nope"`) {
		t.Fatalf("an unknown group was not caught:\n%s", ansi.Strip(d.View()))
	}
	for range 4 {
		d, _ = d.Update(uitest.Key("backspace"))
	}
	d, _ = d.Update(uitest.Key("v"))
	d, _ = d.Update(uitest.Key("down"))
	d, _ = d.Update(uitest.Key("enter")) // takes the chosen group
	_, cmd = d.Update(uitest.Key("enter"))
	if msg := uitest.Only[addGroupMsg](t, uitest.Expand(cmd)); msg.name != "viewers" {
		t.Fatalf("added %+v", msg)
	}
}

// R's form restores onto the folder, or into a new path typed in "into
// folder" (the server creates it), refusing a relative or dotted one.
func TestRestoreIntoANewPath(t *testing.T) {
	zip := t.TempDir() + "/data.zip"
	if err := os.WriteFile(zip, []byte("PK"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		into     string
		wantPath string
		wantID   bool // restored by the folder's id, not by path
		refusal  string
	}{
		{"", "/Data/ImportJobs", true, ""},
		{"/Copies/Imports", "/Copies/Imports", false, ""},
		{"Copies", "", false, "absolute folder path"},
		{"/Copies/../Data", "", false, "absolute folder path"},
	} {
		t.Run(tc.into, func(t *testing.T) {
			p := paneWithFiles(t, false)
			uitest.Press(p, "left")
			d := openForm(t, p, "R")
			d.SetSize(100, 30)
			d = uitest.Type(d, zip)
			d, _ = d.Update(uitest.Key("tab"))
			if tc.into != "" {
				d, _ = d.Update(uitest.Key("ctrl+u"))
				d = uitest.Type(d, tc.into)
			}
			d, msgs := uitest.Submit(d)
			if tc.refusal != "" {
				if d == nil || !strings.Contains(ansi.Strip(d.View()), tc.refusal) {
					t.Fatalf("not refused: %#v", msgs)
				}
				return
			}
			req := uitest.Only[planRestoreMsg](t, msgs).req
			if req.path != tc.wantPath || (req.folderID != 0) != tc.wantID {
				t.Fatalf("restore %+v", req)
			}
		})
	}
}

// TestOwnerFieldIsClean: editing the owner starts from the owner the server
// named, shown cleaned in the field as in the row.
func TestOwnerFieldIsClean(t *testing.T) {
	for _, hostile := range uitest.Hostile {
		p := paneWithFiles(t, false)
		uitest.Press(p, "p")
		e := p.perms
		p.Update(permsMsg{ticket: e.reads.Latest(), target: e.path, perm: model.Permission{Owner: hostile}})
		p.Update(peopleMsg{users: []string{"admin", hostile}, groups: []string{"analysts"}})
		uitest.Press(p, "k", "e")
		if found := uitest.Controls(e.view()); len(found) > 0 {
			t.Errorf("owner %q: the editor holds %d control(s), first %s", hostile, len(found), found[0])
		}
	}
}

// TestFolderReadBeforeTheFileListsOpensOnceTheyCome: a folder read with no
// sub-folders before the file lists came shows as empty (·); once they
// come and name files in it, its row says it opens (▸), though the folder
// itself was not read again. Its cached row once kept the · until the
// cursor passed over it.
func TestFolderReadBeforeTheFileListsOpensOnceTheyCome(t *testing.T) {
	p := New(common.NewContext(nil, "http://dap.test", "admin", "", false))
	p.SetSize(100, 20)
	p.Update(childrenMsg{ticket: p.nextRead(0), folder: rootFolder("Users", "Data")})
	uitest.Press(p, "j", "j", "enter")
	answer(p, p.tree.root.child("Data"), "Connections", "ImportJobs")
	imports := p.tree.root.child("Data").child("ImportJobs")
	p.keepCursorOn(imports)
	uitest.Press(p, "enter")
	answer(p, imports)
	uitest.Press(p, "left") // closed again, as the filter's walk leaves what it read
	if screen := uitest.Screen(p.View()); !strings.Contains(screen, "· ImportJobs/") {
		t.Fatalf("before the file lists ImportJobs is not shown empty:\n%s", screen)
	}
	p.Update(filesMsg{ticket: p.fileReads.Next(), index: common.NewFileIndex(demoFiles)})
	if screen := uitest.Screen(p.View()); !strings.Contains(screen, "▸ ImportJobs/") {
		t.Fatalf("with the file lists ImportJobs does not show it opens:\n%s", screen)
	}
}
