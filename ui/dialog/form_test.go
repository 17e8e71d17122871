package dialog

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestFormTitleIsClean: a form's title names a folder the server named
// ("Rename …", "New folder in …"), so the form cleans it as a confirmation
// does.
func TestFormTitleIsClean(t *testing.T) {
	for _, hostile := range uitest.Hostile {
		f := NewForm(common.NewContext(nil, "", "", "", false), "Rename /Data/"+hostile, "", "rename",
			[]Field{{Name: "name", Label: "new name", Text: true}}, nil)
		f.SetSize(100, 20)
		if found := uitest.Controls(f.View()); len(found) > 0 {
			t.Errorf("title %q: the form holds %d control(s), first %s", hostile, len(found), found[0])
		}
	}
}

// TestFormCheck: a submit that needs the disk returns a Check; the form
// stays open while it runs as a task and takes its answer as the submit's,
// unless a key changed the values since.
func TestFormCheck(t *testing.T) {
	type done struct{ name string }
	tests := []struct {
		name     string
		answer   error
		between  string // a key pressed before the answer arrives, "" for none
		wantOpen bool
		wantText string
	}{
		{"an answer closes the form with the message", nil, "", false, ""},
		{"a refusal keeps the form open saying why", errors.New("x.zip exists already"), "", true, "x.zip exists already"},
		{"an answer for values since edited is dropped", errors.New("x.zip exists already"), "y", true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks := 0
			f := NewForm(common.NewContext(nil, "", "", "", false), "Backup", "", "start", []Field{{Name: "file", Label: "save to", Text: true, Value: "x.zip"}},
				func(v Values) (tea.Msg, error) {
					name := v.Text("file")
					return Check(func() (tea.Msg, error) {
						checks++
						return done{name}, tt.answer
					}), nil
				})
			f.SetSize(100, 20)
			d, cmd := f.Update(uitest.Key("enter"))
			if d == nil || checks != 0 {
				t.Fatalf("the form closed or checked in Update (%d checks)", checks)
			}
			if tt.between != "" {
				d, _ = d.Update(uitest.Key(tt.between))
			}
			d, msgs := uitest.Settle(d, cmd)
			if (d != nil) != tt.wantOpen {
				t.Fatalf("open %v, want %v; messages %#v", d != nil, tt.wantOpen, msgs)
			}
			if d == nil {
				if last := msgs[len(msgs)-1]; last != (done{"x.zip"}) {
					t.Errorf("closed with %#v", last)
				}
				return
			}
			view := ansi.Strip(d.View())
			if tt.wantText != "" && !strings.Contains(view, tt.wantText) {
				t.Errorf("the form does not say %q:\n%s", tt.wantText, view)
			}
			if tt.wantText == "" && strings.Contains(view, "exists already") {
				t.Errorf("a stale answer reached the form:\n%s", view)
			}
		})
	}
}
