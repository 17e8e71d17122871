package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// quit tells tea.QuitMsg, which tests look for instead of giving it to
// the root.
func quit(msg tea.Msg) bool {
	_, ok := msg.(tea.QuitMsg)
	return ok
}

// quits tells whether cmd quits the console.
func quits(cmd tea.Cmd) bool { return slices.ContainsFunc(uitest.Messages(cmd), quit) }

func newTestModel(t *testing.T, readOnly bool, w, h int) *Model {
	t.Helper()
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", readOnly)
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx,
		folderPlaceholder{uitest.NewStub(ctx, "Folders", "coming")},
		uitest.NewStub(ctx, "Connections", "coming"),
		uitest.NewStub(ctx, "Jobs", "coming"),
	)})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

func typeKeys(t *testing.T, m *Model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		_, cmd := m.Update(uitest.Key(k))
		uitest.RunAsRoot(m, cmd, quit)
	}
}

func TestPaneSwitching(t *testing.T) {
	tests := []struct {
		keys []string
		want common.PaneID
	}{
		{[]string{"tab"}, common.ConnectionsPane},
		{[]string{"tab", "tab", "tab"}, common.FoldersPane},
		{[]string{"shift+tab"}, common.JobsPane},
		{[]string{"3"}, common.JobsPane},
		{[]string{"2", "1"}, common.FoldersPane},
		{append([]string{":"}, append(strings.Split("jobs", ""), "enter")...), common.JobsPane},
		{append([]string{":"}, append(strings.Split("conn", ""), "enter")...), common.ConnectionsPane},
		{append([]string{"3", ":"}, append(strings.Split("folders", ""), "enter")...), common.FoldersPane},
		{[]string{":", "j", "esc", "tab"}, common.ConnectionsPane},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, ""), func(t *testing.T) {
			m := newTestModel(t, false, 80, 24)
			typeKeys(t, m, tt.keys...)
			if got := m.ActivePane(); got != tt.want {
				t.Fatalf("active pane %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		line       string
		wantStatus string
		wantPane   common.PaneID
	}{
		{"nosuch", "unknown command :nosuch", common.FoldersPane},
		{"cd", ":cd needs a folder path", common.FoldersPane},
		{"cd /Data", "", common.FoldersPane},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			m := newTestModel(t, false, 80, 24)
			typeKeys(t, m, "2", ":")
			typeKeys(t, m, strings.Split(tt.line, "")...)
			typeKeys(t, m, "enter")
			if !strings.Contains(m.Status(), tt.wantStatus) {
				t.Errorf("status %q, want it to contain %q", m.Status(), tt.wantStatus)
			}
			if tt.wantStatus == "" && m.ActivePane() != tt.wantPane {
				t.Errorf("active pane %s, want %s", m.ActivePane(), tt.wantPane)
			}
		})
	}
}

func TestCommandLineCompletesAndHints(t *testing.T) {
	m := newTestModel(t, false, 120, 24)
	typeKeys(t, m, ":", "j")
	if hint := ansi.Strip(m.Render()); !strings.Contains(hint, ":jobs show the job dashboard") {
		t.Fatalf("hint missing in\n%s", hint)
	}
	typeKeys(t, m, "tab", "enter")
	if m.ActivePane() != common.JobsPane {
		t.Fatalf("tab completion did not run :jobs, pane %s", m.ActivePane())
	}
}

func TestQuit(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	if _, cmd := m.Update(uitest.Key("q")); !quits(cmd) {
		t.Fatal("q did not quit")
	}
	m = newTestModel(t, false, 80, 24)
	typeKeys(t, m, ":", "q")
	if _, cmd := m.Update(uitest.Key("enter")); len(uitest.RunAsRoot(m, cmd, quit)) == 0 {
		t.Fatal(":q did not quit")
	}
}

func TestQuitAsksWhileTransferRuns(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	transfer, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.Update(common.TaskStartedMsg{ID: 1, Label: "backup of /Data", Transfer: true, Cancel: cancel})

	_, cmd := m.Update(uitest.Key("q"))
	if quits(cmd) {
		t.Fatal("q quit while a transfer runs")
	}
	if _, ok := m.Dialog().(*dialog.Confirm); !ok {
		t.Fatalf("no confirmation open, dialog %T", m.Dialog())
	}
	if screen := ansi.Strip(m.Render()); !strings.Contains(screen, "backup of /Data is still running") {
		t.Fatalf("confirmation does not name the transfer:\n%s", screen)
	}
	typeKeys(t, m, "enter") // focus starts on "no"
	if m.Dialog() != nil {
		t.Fatal("enter on the default answer did not close the question")
	}
	m.Update(uitest.Key("q"))
	// y cancels the transfer, and the console ends once its task did: a
	// cancelled backup removes its incomplete file before that.
	if _, cmd := m.Update(uitest.Key("y")); len(uitest.RunAsRoot(m, cmd, quit)) > 0 {
		t.Fatal("y quit before the cancelled transfer ended")
	}
	if transfer.Err() == nil {
		t.Fatal("y did not cancel the transfer")
	}
	if _, cmd := m.Update(common.TaskDoneMsg{ID: 1}); !quits(cmd) {
		t.Fatal("the end of the cancelled transfer did not quit")
	}

	m = newTestModel(t, false, 80, 24)
	m.Update(common.TaskStartedMsg{ID: 2, Label: "restore", Transfer: true, Cancel: cancel})
	m.Update(uitest.Key("ctrl+c"))
	if _, cmd := m.Update(uitest.Key("ctrl+c")); quits(cmd) {
		t.Fatal("a second ctrl+c quit before the cancelled transfer ended")
	}
	if _, cmd := m.Update(common.TaskDoneMsg{ID: 2}); !quits(cmd) {
		t.Fatal("a second ctrl+c did not quit once the transfer ended")
	}
}

// TestStopMsgQuitsAsTheQuitDialog: StopMsg (dapconsole ssh stopping a
// session) asks nothing: it cancels the tasks and ends the console once the
// transfers have.
func TestStopMsgQuitsAsTheQuitDialog(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	if _, cmd := m.Update(StopMsg{}); !quits(cmd) {
		t.Fatal("StopMsg did not quit an idle console")
	}
	m = newTestModel(t, false, 80, 24)
	transfer, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.Update(common.TaskStartedMsg{ID: 1, Label: "backup of /Data", Transfer: true, Cancel: cancel})
	if _, cmd := m.Update(StopMsg{}); quits(cmd) || transfer.Err() == nil || m.Dialog() != nil {
		t.Fatalf("StopMsg with a transfer: quit at once %v, cancelled %v, dialog %T", quits(cmd), transfer.Err() != nil, m.Dialog())
	}
	if _, cmd := m.Update(common.TaskDoneMsg{ID: 1}); !quits(cmd) {
		t.Fatal("the end of the cancelled transfer did not quit")
	}
	// A transfer that never ends after its cancel does not hold it open.
	m = newTestModel(t, false, 80, 24)
	m.Update(common.TaskStartedMsg{ID: 2, Label: "backup of /Data", Transfer: true, Cancel: cancel})
	m.Update(StopMsg{})
	if _, cmd := m.Update(quitAnywayMsg{}); !quits(cmd) {
		t.Fatal("the quit grace ran out and the console went on")
	}
}

func TestHelpToggles(t *testing.T) {
	m := newTestModel(t, false, 100, 30)
	typeKeys(t, m, "?")
	if screen := ansi.Strip(m.Render()); !strings.Contains(screen, "Keys — Folders") {
		t.Fatalf("full help not shown:\n%s", screen)
	}
	typeKeys(t, m, "esc")
	if screen := ansi.Strip(m.Render()); strings.Contains(screen, "Keys — Folders") {
		t.Fatal("esc did not close the help")
	}
}

// writer is a pane with a write key (R) and a key that writes nothing (y),
// its keys handled by its bindings as every pane's are.
type writer struct {
	*uitest.Stub
	keys *common.KeyMap
	ctx  *common.Context
}

func (p writer) Bindings() common.Bindings {
	ran := func() tea.Cmd { return common.Info("ran") }
	return common.Bindings{
		{Key: p.keys.CopyPath, Run: ran},
		{Key: p.keys.Restore, Run: ran, Write: true},
		{Key: p.keys.Delete, Run: ran, Write: true},
	}
}

func (p writer) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	if press, ok := msg.(tea.KeyPressMsg); ok {
		cmd, _ := p.Bindings().Handle(p.ctx, press)
		return p, cmd
	}
	return p, nil
}

func TestReadOnlyDisablesWriteKeys(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", true)
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, writer{uitest.NewStub(ctx, "Folders", ""), ctx.Keys, ctx})})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	typeKeys(t, m, "R")
	if want := "restore: read-only session"; !strings.Contains(m.Status(), want) {
		t.Fatalf("status %q, want %q", m.Status(), want)
	}
	typeKeys(t, m, "esc", "?")
	screen := ansi.Strip(m.Render())
	for _, want := range []string{"restore ✗", "delete ✗", "keys marked ✗ are disabled"} {
		if !strings.Contains(screen, want) {
			t.Errorf("help does not mark %q:\n%s", want, screen)
		}
	}
}

// Every message fades from the status line, an error too (k9s's flash;
// issue 30: errors never faded, so the first esc only cleared a stale
// line); each stays whole in the message log, and esc dismisses an error
// sooner.
func TestStatusMessagesFade(t *testing.T) {
	for _, level := range []common.Level{common.LevelInfo, common.LevelNotice, common.LevelError} {
		m := newTestModel(t, false, 80, 24)
		_, cmd := m.Update(common.StatusMsg{Level: level, Text: "403 Forbidden"})
		if cmd == nil {
			t.Fatalf("level %v: no timer to fade", level)
		}
		m.Update(statusExpiredMsg{seq: m.status.seq})
		if m.Status() != "" {
			t.Errorf("level %v stayed: %q", level, m.Status())
		}
		if len(m.messages.entries) != 1 {
			t.Errorf("level %v: the log holds %d messages", level, len(m.messages.entries))
		}
	}
	m := newTestModel(t, false, 80, 24)
	m.Update(common.StatusMsg{Level: common.LevelError, Text: "403 Forbidden"})
	typeKeys(t, m, "esc")
	if m.Status() != "" {
		t.Fatalf("esc left %q", m.Status())
	}
}

// keyCounter is a pane that counts the keys it is given.
type keyCounter struct {
	*uitest.Stub
	keys []string
}

func (p *keyCounter) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		p.keys = append(p.keys, k.String())
	}
	return p, nil
}

// TestEscDismissesOnlyTheError: the status line says "esc dismiss", so the
// first esc clears the error and the pane keeps its state (an open
// permissions editor stays open); the next esc is the pane's.
func TestEscDismissesOnlyTheError(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	pane := &keyCounter{Stub: uitest.NewStub(ctx, "Folders", "")}
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, pane)})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(common.StatusMsg{Level: common.LevelError, Text: "403 Forbidden"})
	typeKeys(t, m, "esc")
	if m.Status() != "" || len(pane.keys) != 0 {
		t.Fatalf("after one esc: status %q, pane got %v", m.Status(), pane.keys)
	}
	typeKeys(t, m, "esc")
	if len(pane.keys) != 1 {
		t.Fatalf("the second esc did not reach the pane: %v", pane.keys)
	}
}

func TestUnauthorizedWithoutLoginScreen(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	m.Update(common.UnauthorizedMsg{Err: context.DeadlineExceeded})
	if !strings.Contains(m.Status(), "refused the credentials of admin") {
		t.Fatalf("status %q", m.Status())
	}
}

// TestEverySizeRenders resizes through every size from 0×0 to 130×45: no
// panic, never more lines or columns than the terminal has, and the
// minimum size fully laid out.
func TestEverySizeRenders(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	typeKeys(t, m, "?")
	for w := 0; w <= 130; w++ {
		for h := 0; h <= 45; h += 1 + w%3 {
			m.Update(tea.WindowSizeMsg{Width: w, Height: h})
			screen := m.Render()
			lines := strings.Split(screen, "\n")
			if screen != "" && len(lines) > max(h, 1) {
				t.Fatalf("%d×%d: %d lines", w, h, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%d×%d: line %q is %d wide", w, h, ansi.Strip(l), ansi.StringWidth(l))
				}
			}
			small := w < MinWidth || h < MinHeight
			if small != strings.Contains(screen, "terminal too small") && w >= 25 && h > 0 {
				t.Fatalf("%d×%d: too-small line shown=%v", w, h, !small)
			}
		}
	}
}

func TestQuietTasksLeaveTheStatusLineAlone(t *testing.T) {
	m := newTestModel(t, false, 80, 24)
	m.Update(common.TaskStartedMsg{ID: 7, Label: "polling", Quiet: true, Cancel: func() {}})
	if screen := ansi.Strip(m.Render()); strings.Contains(screen, "polling") {
		t.Fatalf("a quiet task shows:\n%s", screen)
	}
	m.Update(common.TaskStartedMsg{ID: 8, Label: "reading /Data", Cancel: func() {}})
	if screen := ansi.Strip(m.Render()); !strings.Contains(screen, "reading /Data…") || strings.Contains(screen, "+1 more") {
		t.Fatalf("the shown task is not alone in the status line:\n%s", screen)
	}
}

// backLister is a pane whose own keys include esc.
type backLister struct {
	*uitest.Stub
	keys *common.KeyMap
}

func (p backLister) Bindings() common.Bindings {
	return common.Bindings{{Key: p.keys.Back, Run: func() tea.Cmd { return nil }}}
}

func TestFullHelpNamesEachKeyOnce(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, backLister{uitest.NewStub(ctx, "Folders", ""), ctx.Keys})})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	typeKeys(t, m, "?")
	if n := strings.Count(ansi.Strip(m.Render()), "esc back"); n != 1 {
		t.Fatalf("help names esc %d times:\n%s", n, ansi.Strip(m.Render()))
	}
}

func TestMouse(t *testing.T) {
	ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
	folders := &keyCounter{Stub: uitest.NewStub(ctx, "Folders", "")}
	conns := &keyCounter{Stub: uitest.NewStub(ctx, "Connections", "")}
	m := New(Options{Context: ctx, HeartbeatOff: true, Mouse: true, Panes: ownPanes(ctx, folders, conns)})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("mouse asked for but not turned on")
	}

	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if strings.Join(folders.keys, " ") != "down up" {
		t.Errorf("the wheel gave the pane %v, want down up", folders.keys)
	}

	header := ansi.Strip(m.headerView())
	tab := strings.Index(header, "2 Connections")
	for _, tt := range []struct {
		x, y int
		want common.PaneID
	}{
		{tab + 3, 0, common.ConnectionsPane}, // on the Connections tab
		{tab + 3, 5, common.ConnectionsPane}, // below the header: nothing changes
		{2, 0, common.ConnectionsPane},       // on the app name: nothing changes
		{strings.Index(header, "1 Folders"), 0, common.FoldersPane},
	} {
		m.Update(tea.MouseClickMsg{X: tt.x, Y: tt.y, Button: tea.MouseLeft})
		if m.ActivePane() != tt.want {
			t.Errorf("click at %d,%d: pane %s, want %s (header %q)", tt.x, tt.y, m.ActivePane(), tt.want, header)
		}
	}

	off := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, folders)})
	off.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if off.View().MouseMode != tea.MouseModeNone {
		t.Error("the mouse is taken without being asked for")
	}
}

// TestFullHelpShowsEveryKey opens help on each pane at the widths admins
// use: every enabled key of the pane and of the console is on screen, none
// cut to "…" (at 120 columns the Jobs pane once lost trigger, stop and quit).
func TestFullHelpShowsEveryKey(t *testing.T) {
	for _, width := range []int{80, 120} {
		for pane := range 3 {
			t.Run(fmt.Sprintf("%d columns, pane %d", width, pane+1), func(t *testing.T) {
				ctx := common.NewContext(nil, "http://127.0.0.1:8080", "admin", "", false)
				m := New(Options{Context: ctx, HeartbeatOff: true})
				m.Update(tea.WindowSizeMsg{Width: width, Height: 50})
				typeKeys(t, m, strconv.Itoa(pane+1), "?")
				screen := ansi.Strip(m.Render())
				for _, group := range m.FullHelp() {
					for _, b := range group {
						if b.Enabled() && !strings.Contains(screen, b.Help().Desc) {
							t.Errorf("help does not show %q (%s):\n%s", b.Help().Desc, b.Help().Key, screen)
						}
					}
				}
			})
		}
	}
}
