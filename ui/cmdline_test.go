package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestCompletionHintIsClean: the folders a tab at :cd leaves to choose from
// are paths the server named, so the hint cleans them before the terminal.
func TestCompletionHintIsClean(t *testing.T) {
	c := commandLine{candidates: uitest.Hostile}
	if found := uitest.Controls(c.hint(400)); len(found) > 0 {
		t.Errorf("the hint holds %d control(s), first %s", len(found), found[0])
	}
}

// The `:` hint is never cut mid-command (bug 7 of issue 30: it was, even at
// 400 columns): it says what each matching command does when that fits,
// else names them all, or as many as fit and how many more; tab completes
// any command's name, as far as the matching names agree.
func TestCommandHintFitsAndTabCompletes(t *testing.T) {
	for _, width := range []int{80, 120, 400} {
		m := newTestModel(t, false, width, 24)
		typeKeys(t, m, ":")
		hint := ansi.Strip(m.helpLineView())
		if strings.HasSuffix(hint, "…") {
			t.Errorf("at %d columns the hint is cut: %q", width, hint)
		}
		if width == 400 {
			for _, cmd := range m.cmdline.commands {
				if !strings.Contains(hint, ":"+cmd.Name) {
					t.Errorf("at 400 columns the hint lacks :%s: %q", cmd.Name, hint)
				}
			}
		}
	}
	m := newTestModel(t, false, 120, 24)
	typeKeys(t, m, ":", "w", "a", "tab")
	if got := m.cmdline.input.Value(); got != "watch " {
		t.Errorf(":wa, tab gave %q, want \"watch \"", got)
	}
}
