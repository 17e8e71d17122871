package connections

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// y and Y copy the selected connection's path and configuration id, and an
// OpenConnectionMsg (a connection's row in the folder tree) selects it.
func TestCopyAndOpenConnection(t *testing.T) {
	p := withList(newTestPane(nil, 100, 10, false), entries(30))
	uitest.Press(p, "j")
	for _, tc := range []struct{ key, want string }{
		{"y", "copied path /Data/Connections/conn-00001.dst"},
		{"Y", "copied configuration id 2"},
	} {
		_, cmd := p.Update(uitest.Key(tc.key))
		msgs := uitest.Expand(cmd)
		if len(msgs) != 2 {
			t.Fatalf("%s: %#v, want a clipboard write and a notice", tc.key, msgs)
		}
		if s, ok := msgs[1].(common.StatusMsg); !ok || !strings.HasPrefix(s.Text, tc.want) {
			t.Fatalf("%s: %#v", tc.key, msgs[1])
		}
	}
	p.Update(common.OpenConnectionMsg{ConfigID: 12, Path: "/Data/Connections/conn-00011.dst"})
	if e := p.selected(); e == nil || e.ID != 12 {
		t.Fatalf("selected %+v after the open", e)
	}
	_, cmd := p.Update(common.OpenConnectionMsg{ConfigID: 999, Path: "/Nowhere.dst"})
	if s, ok := cmd().(common.StatusMsg); !ok || !strings.Contains(s.Text, "not in the list") {
		t.Fatalf("an unknown connection: %#v", cmd())
	}
}
