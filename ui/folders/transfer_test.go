package folders

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// statCounter is the host's file system, counting the Stat calls, so a
// test sees whether a form's Update looked at the disk.
type statCounter struct {
	common.HostFiles
	stats int
}

func (c *statCounter) Stat(name string) (os.FileInfo, error) {
	c.stats++
	return c.HostFiles.Stat(name)
}

// The backup and restore forms check the local file in a task, never in
// Update, and keep what the check says: a refusal shown in the open form,
// or the message that does the work: for a restore, its plan first (which
// asks before an overwrite).
func TestTransferFormsCheckTheDiskInATask(t *testing.T) {
	dir := t.TempDir()
	zip := filepath.Join(dir, "data.zip")
	if err := os.WriteFile(zip, []byte("PK"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		key     string // b backs up, R restores
		file    string
		toggle  string // a toggle to turn on, "" for none
		refusal string // shown in the form, "" when it closes
		want    string // the %T of the message it closes with
	}{
		{"backup to a file that exists", "b", zip, "", "exists already", ""},
		{"backup into a folder that does not exist", "b", filepath.Join(dir, "none", "x.zip"), "", "does not exist", ""},
		{"backup to a new file", "b", filepath.Join(dir, "new.zip"), "", "", "folders.backupRequest"},
		{"restore of a missing file", "R", filepath.Join(dir, "missing.zip"), "", "cannot read", ""},
		{"restore of a folder", "R", dir, "", "is not a file", ""},
		{"restore of a file", "R", zip, "", "", "folders.planRestoreMsg"},
		{"restore with overwrite is planned first", "R", zip, api.RestoreOverwrite.String(), "", "folders.planRestoreMsg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := paneWithFiles(t, false)
			disk := &statCounter{}
			p.ctx.Files = disk
			uitest.Press(p, "left")
			d := openForm(t, p, tt.key)
			d.SetSize(100, 30)
			d, _ = d.Update(uitest.Key("ctrl+u"))
			d = uitest.Type(d, tt.file)
			if tt.toggle != "" {
				for range 10 {
					if d.(*dialog.Form).Focused() == tt.toggle {
						break
					}
					d, _ = d.Update(uitest.Key("tab"))
				}
				d, _ = d.Update(uitest.Key("space"))
			}
			d, cmd := d.Update(uitest.Key("enter"))
			if disk.stats != 0 || d == nil {
				t.Fatalf("enter looked at the disk in Update (%d Stat calls) or closed the form before the check", disk.stats)
			}
			d, msgs := uitest.Settle(d, cmd)
			if tt.refusal != "" {
				if !strings.Contains(viewOf(d), tt.refusal) {
					t.Fatalf("want the form open saying %q, got %#v\n%s", tt.refusal, msgs, viewOf(d))
				}
				return
			}
			if d != nil {
				t.Fatalf("the form stayed open:\n%s", ansi.Strip(d.View()))
			}
			last := msgs[len(msgs)-1]
			if got := fmt.Sprintf("%T", last); got != tt.want {
				t.Fatalf("closed with %s, want %s", got, tt.want)
			}
		})
	}
}

// viewOf is the text of an open dialog, its lines and words joined as read,
// so a sentence the box wraps is found whole.
func viewOf(d common.Dialog) string {
	if d == nil {
		return "(closed)"
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(d.View()), "│", " ")), " ")
}
