package login

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestScreenServedKeepsThePasswordInMemory: served over SSH, the screen asks
// only for the password of the session's user on the session's server (tab
// and typing cannot reach the other fields), a wrong one is refused, and a
// right one logs in read-only when the key is, with nothing written: no
// profiles file, no keyring entry.
func TestScreenServedKeepsThePasswordInMemory(t *testing.T) {
	keyring.MockInit()
	cfg := testConfig(t)
	cfg.Served, cfg.ForceReadOnly = true, true
	ctx := newContext(nil, platformURL, "admin", "ssh")
	s := New(ctx, cfg, "")
	s.SetSize(80, 20)
	if view := ansi.Strip(s.View()); !strings.Contains(view, "stays in this session's memory") {
		t.Errorf("the screen does not say where the password goes:\n%s", view)
	}
	var d common.Dialog = s
	for _, k := range []string{"tab", "shift+tab", "tab"} {
		d, _ = d.Update(uitest.Key(k))
		if got := d.(*Screen).Focused(); got != "Password" {
			t.Fatalf("%s moved the focus to %s: the account is the session's", k, got)
		}
	}

	d = uitest.Type(d, "wrong")
	d, _ = uitest.Submit(d)
	if d == nil || !strings.Contains(ansi.Strip(d.View()), "wrong user or password") {
		t.Fatalf("a wrong password was not refused on the screen")
	}

	d = uitest.Type(d, testPassword)
	d, msgs := uitest.Submit(d)
	if d != nil {
		t.Fatalf("the screen stays open after an accepted login:\n%s", ansi.Strip(d.View()))
	}
	loggedIn := uitest.Only[common.LoggedInMsg](t, msgs)
	if loggedIn.User != "admin" || loggedIn.Server != platformURL || !loggedIn.ReadOnly || loggedIn.Client == nil {
		t.Fatalf("logged in %+v, want admin on the session's server, read-only", loggedIn)
	}
	if _, err := os.Stat(cfg.ProfilesPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a served login wrote the profiles file (%v)", err)
	}
	if _, err := credentials.LookupPassword(platformURL, "admin"); !errors.Is(err, credentials.ErrNoPassword) {
		t.Errorf("a served login stored the password in the keyring (%v)", err)
	}
}
