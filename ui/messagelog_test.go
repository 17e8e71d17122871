package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

func TestMessageLog(t *testing.T) {
	tests := []struct {
		name string
		open []string
	}{
		{"L", []string{"L"}},
		{":log", []string{":", "l", "o", "g", "enter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, false, 60, 20)
			m.Update(common.StatusMsg{Level: common.LevelNotice, Text: "first notice"})
			m.Update(common.StatusMsg{Level: common.LevelError, Text: longError})
			if line := ansi.Strip(m.statusView()); !strings.HasSuffix(line, cutHint) {
				t.Fatalf("a cut status line ends %q, want %q", line, cutHint)
			}
			typeKeys(t, m, tt.open...)
			if _, ok := m.Dialog().(*logDialog); !ok {
				t.Fatalf("%v opened %T, want the message log", tt.open, m.Dialog())
			}
			screen := strings.Join(strings.Fields(ansi.Strip(m.Render())), " ")
			newest, oldest := strings.Index(screen, "restore /Data"), strings.Index(screen, "first notice")
			if newest < 0 || oldest < newest {
				t.Fatalf("the log shows the newest first, whole; screen:\n%s", m.Render())
			}
			if !strings.Contains(screen, "/Data/ImportJobs/Customers.imp") {
				t.Errorf("the log cut the message; screen:\n%s", m.Render())
			}
			typeKeys(t, m, "esc")
			if m.Dialog() != nil {
				t.Errorf("esc left %T open", m.Dialog())
			}
		})
	}
}

func TestMessageLogIsBounded(t *testing.T) {
	var l messageLog
	for i := range keptMessages + 5 {
		l.add(fixedNow, common.StatusMsg{Text: strings.Repeat("x", i%7+1)})
	}
	l.add(fixedNow, common.StatusMsg{Text: "  "})
	if len(l.entries) != keptMessages {
		t.Errorf("%d entries kept, want %d (blank ones dropped)", len(l.entries), keptMessages)
	}
}

func TestShortStatusIsNotMarkedCut(t *testing.T) {
	m := newTestModel(t, false, 80, 20)
	m.Update(common.StatusMsg{Level: common.LevelError, Text: "short"})
	if line := ansi.Strip(m.statusView()); strings.Contains(line, cutHint) || !strings.Contains(line, "esc dismiss") {
		t.Errorf("status line %q", line)
	}
}

// The open log follows new styles, as every rendering does: drawn after
// the root swapped them, it reads as one opened under the new ones.
func TestMessageLogFollowsNewStyles(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	open := func(st *theme.Styles) (*logDialog, *common.Context) {
		ctx := common.NewContext(nil, "", "", "", false)
		ctx.Styles = st
		var log messageLog
		log.add(fixedNow, common.StatusMsg{Level: common.LevelError, Text: "reading /Data: refused"})
		d := newLogDialog(ctx, &log)
		d.SetSize(80, 10)
		return d, ctx
	}
	d, ctx := open(theme.New(true, false))
	dark := d.View()
	light := theme.New(false, false)
	ctx.Styles = light
	fresh, _ := open(light)
	want := fresh.View()
	if want == dark {
		t.Fatal("the light and dark themes draw the same log; the test shows nothing")
	}
	if got := d.View(); got != want {
		t.Errorf("the open log still draws with the old styles:\n got %q\nwant %q", got, want)
	}
}
