package folders

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// A refusal keeps the server's why: bug 1 of issue 30 cut "entry /a.dbc:
// an encoded secret this server's key does not open …" at the path, which
// left "restore refused (400): entry". A list of paths still reads one a
// line, and no answer at all is not a refusal (status 0).
func TestTransferFailureKeepsTheReason(t *testing.T) {
	sealed := "entry /Data/Warehouse.dbc: create \"/Data/Warehouse.dbc\": invalid input: an encoded secret that this server's key does not open (read from another server?); restore it on the server with the same secret.key"
	tests := []struct {
		name  string
		err   error
		first string
		rest  []string
		not   string
	}{
		{"a reason that goes on after the path stays whole",
			&api.Error{Status: 400, Reason: sealed, Paths: []string{"/Data/Warehouse.dbc"}},
			"restore refused (400): " + sealed, nil, ""},
		{"a reason ending in its paths lists them one a line",
			&api.Error{Status: 409, Reason: "these exist already: /Data/a.dbc, /Data/b.dbc and 1 more", Paths: []string{"/Data/a.dbc", "/Data/b.dbc"}},
			"restore refused (409): these exist already", []string{"  /Data/a.dbc", "  /Data/b.dbc"}, ""},
		{"no answer is not a refusal",
			&api.Error{Status: 0, Reason: "dial tcp 127.0.0.1:1: connect: connection refused", Err: errors.New("dial")},
			"", nil, "refused (0)"},
	}
	var sink bytes.Buffer
	older := api.New(uitest.DemoServer(t, servertest.LackingPostBackup).URL, "admin", "admin")
	_, unsupported := older.BackupFiles(t.Context(), api.Path("/Data"), []api.Ref{api.Path("/Data/ImportJobs/Orders.imp")}, 0, &sink, nil)
	tests = append(tests, struct {
		name  string
		err   error
		first string
		rest  []string
		not   string
	}{"chosen files on a platform before 7.2.6 say to take the whole folder", unsupported, "", nil, "refused (405)"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := transferDone{restore: true, err: tt.err}.failureLines()
			if errors.Is(tt.err, api.ErrUnsupported) && !strings.Contains(lines[0], "take the whole folder instead") {
				t.Errorf("%q does not say what to do instead", lines[0])
			}
			if tt.first != "" && lines[0] != tt.first {
				t.Errorf("first line %q, want %q", lines[0], tt.first)
			}
			if tt.first != "" && !slices.Equal(lines[1:], tt.rest) {
				t.Errorf("then %q, want %q", lines[1:], tt.rest)
			}
			if tt.not != "" && strings.Contains(strings.Join(lines, "\n"), tt.not) {
				t.Errorf("%q says %q", lines, tt.not)
			}
		})
	}
}

// The backup form offers the flags of the latest backup again, as the
// restore form does; the restore form's title names no folder that "into
// folder" may change (bug 10 of issue 30).
func TestTransferFormsRememberAndSayOneFolder(t *testing.T) {
	p := paneWithFiles(t, false)
	flag := api.AllBackupFlags()[0]
	p.Update(backupRequest{flags: flag, file: "x.zip"})
	d := uitest.Only[common.OpenDialogMsg](t, uitest.Expand(uitest.Press(p, "b"))).Dialog
	d.SetSize(100, 30)
	if view := ansi.Strip(d.View()); !strings.Contains(view, "[x] "+flag.String()) {
		t.Errorf("the backup form forgot %s:\n%s", flag, view)
	}
	d = openForm(t, p, "R")
	d.SetSize(100, 30)
	if view := ansi.Strip(d.View()); strings.Contains(view, "Restore into") {
		t.Errorf("the restore form's title names a folder:\n%s", view)
	}
}

// openForm presses key and returns the dialog it opens: the restore form
// after its task has listed the ZIP files for the picker.
func openForm(t *testing.T, p *Pane, key string) common.Dialog {
	t.Helper()
	msgs := uitest.Expand(uitest.Press(p, key))
	if len(msgs) == 1 {
		if z, ok := msgs[0].(zipsMsg); ok {
			_, cmd := p.Update(z)
			msgs = uitest.Expand(cmd)
		}
	}
	return uitest.Only[common.OpenDialogMsg](t, msgs).Dialog
}

// The restore form offers the ZIP files of the directory backups go to by
// default (over SSH, the session's own files directory) as a pick list, and
// takes any other path typed too (issue 30: the restore form had no file
// picker).
func TestRestoreFormPicksAZip(t *testing.T) {
	p := paneWithFiles(t, false)
	dir := t.TempDir()
	for _, name := range []string{"Data.zip", "notes.txt", "Exports-2026.zip"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	p.ctx.Files = root // as a console served over SSH has it
	d := openForm(t, p, "R")
	d.SetSize(100, 30)
	d, _ = d.Update(uitest.Key("ctrl+u"))
	d = uitest.Type(d, "./E")
	if view := ansi.Strip(d.View()); !strings.Contains(view, "./Exports-2026.zip") || strings.Contains(view, "notes.txt") {
		t.Errorf("the picker does not offer the ZIP files:\n%s", view)
	}
}
