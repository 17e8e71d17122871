package dialog

import (
	"testing"

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
