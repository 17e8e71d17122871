package ui

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// fixedNow is the clock of every console under test, so dates in default
// file names hold still in golden files.
var fixedNow = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// console is a console under test: a real program fed by teatest, whose
// screen the test reads through snapshot messages handled on the program's
// own goroutine (no data race with Update).
type console struct {
	t      *testing.T
	tm     *teatest.TestModel
	client *api.Client // the console's, for a test to check the server
}

type consoleOpts struct {
	user, password string
	readOnly       bool
	width, height  int
	wrap           func(http.Handler) http.Handler
	// sealed gives the console the server's key, as --demo does.
	sealed bool
	// panes, when set, replaces the default panes of the test console (the
	// jobs pane's own goldens plug it in).
	panes func(ctx *common.Context) []common.Pane
	// seed, when set, adds to the demo data before the console starts.
	seed func(srv *server.Server, url string)
	// now, when set, is the console's clock in place of fixedNow.
	now func() time.Time
	// started, when set, sees the console's context before its model is
	// made, as the console's start does (the early reads).
	started func(ctx *common.Context)
}

// snapshotTimeout is generous: the machine running the tests may be busy.
// The responsiveness test measures the answer time itself.
const snapshotTimeout = 5 * time.Second

// snapshotMsg asks the program for the screen as an ASCII terminal shows
// it, or with raw the frame as the program would write it.
type snapshotMsg struct {
	screen chan string
	raw    bool
}

// probe wraps the root model to answer snapshotMsg.
type probe struct{ *Model }

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(snapshotMsg); ok {
		if s.raw {
			s.screen <- p.Render()
		} else {
			s.screen <- asciiScreen(p.Render())
		}
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

// asciiScreen is the frame as text: escape sequences and trailing blanks
// dropped, spinner frames replaced by one fixed character so that golden
// files do not depend on when the snapshot was taken.
func asciiScreen(frame string) string { return spinnerFrames.Replace(uitest.Screen(frame)) }

var spinnerFrames = strings.NewReplacer("⠋", "*", "⠙", "*", "⠹", "*", "⠸", "*", "⠼", "*", "⠴", "*", "⠦", "*", "⠧", "*", "⠇", "*", "⠏", "*")

func startConsole(t *testing.T, o consoleOpts) *console {
	t.Helper()
	if o.user == "" {
		o.user, o.password = "admin", "admin"
	}
	if o.width == 0 {
		o.width, o.height = 100, 30
	}
	dir := t.TempDir()
	pl := servertest.Start(t, server.Config{DataDir: dir, DemoData: true}, o.wrap)
	if o.seed != nil {
		o.seed(pl.Server, pl.URL)
	}
	client := api.New(pl.URL, o.user, o.password)
	// The header shows a fixed name: the test server's port changes each run.
	ctx := common.NewContext(client, "http://dap.test", o.user, "", o.readOnly)
	if o.sealed {
		secrets, err := store.OpenSecrets(dir)
		if err != nil {
			t.Fatal(err)
		}
		ctx.Seal = secrets.Seal
	}
	ctx.Now = func() time.Time { return fixedNow }
	if o.now != nil {
		ctx.Now = o.now
	}
	// The other panes poll the server on their own; their golden tests are
	// theirs, and here they would only make the status line flicker.
	panes := []common.Pane{
		folders.New(ctx),
		uitest.NewStub(ctx, "Connections", "tested in ui/connections"),
		uitest.NewStub(ctx, "Jobs", "tested in ui/jobs"),
	}
	if o.panes != nil {
		panes = o.panes(ctx)
	}
	if o.started != nil {
		o.started(ctx)
	}
	m := New(Options{Context: ctx, HeartbeatOff: true, Panes: ownPanes(ctx, panes...)})
	tm := teatest.NewTestModel(t, probe{m},
		teatest.WithInitialTermSize(o.width, o.height),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	c := &console{t: t, tm: tm, client: client}
	t.Cleanup(func() {
		tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	})
	return c
}

// screen returns the current screen; it fails the test when the program
// does not answer within snapshotTimeout (an Update that blocks).
func (c *console) screen() string {
	c.t.Helper()
	return c.snapshot(false)
}

// frame returns the current frame as the program would write it, escape
// sequences and all.
func (c *console) frame() string {
	c.t.Helper()
	return c.snapshot(true)
}

func (c *console) snapshot(raw bool) string {
	c.t.Helper()
	ch := make(chan string, 1)
	c.tm.Send(snapshotMsg{screen: ch, raw: raw})
	select {
	case s := <-ch:
		return s
	case <-time.After(snapshotTimeout):
		c.t.Fatalf("the console did not answer within %s", snapshotTimeout)
		return ""
	}
}

// waitFor waits until the screen contains want and returns it.
func (c *console) waitFor(want string) string {
	c.t.Helper()
	return c.waitForCount(want, 1)
}

// waitForCount waits until the screen shows want at least n times (a
// dialog and the status line saying the same) and returns it.
func (c *console) waitForCount(want string, n int) string {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := c.screen()
		if strings.Count(s, want) >= n {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("screen never showed %q; last screen:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// keys sends key presses, one by one, as a terminal would.
func (c *console) keys(names ...string) {
	for _, n := range names {
		c.tm.Send(uitest.Key(n))
	}
}

// typeText types text into whatever has the focus.
func (c *console) typeText(s string) { c.tm.Type(s) }

// packageDir is where the test binary started: golden files are under its
// testdata, also for a test that has moved into a directory of its own.
var packageDir, _ = os.Getwd()

// golden compares the screen with testdata/<test name>.golden. A test that
// works in a directory of its own (t.Chdir) is back in the package's for
// the comparison; the console does no file I/O while it shows a result.
func (c *console) golden(screen string) {
	c.t.Helper()
	if wd, err := os.Getwd(); err == nil && wd != packageDir {
		if err := os.Chdir(packageDir); err != nil {
			c.t.Fatal(err)
		}
		defer os.Chdir(wd)
	}
	golden.RequireEqual(c.t, screen)
}

// taskStarted is the message of a transfer that runs until the test ends.
func taskStarted(label string) common.TaskStartedMsg {
	return common.TaskStartedMsg{ID: 1 << 40, Label: label, Transfer: true, Cancel: func() {}}
}

// openImportJobs goes to /Data/ImportJobs and opens it, its files listed.
func (c *console) openImportJobs() {
	c.waitFor("Exports/")
	c.keys(":")
	c.typeText("cd /Data/ImportJobs")
	c.keys("enter")
	c.waitFor("at /Data/ImportJobs")
	c.keys("enter")
}

// statesPending answers every job status read (and the older job-status
// the client falls back to) as a server without them would, so a golden of the tree shows its job states as not read
// ("…") whatever the demo's scheduled jobs are doing at that moment.
func statesPending(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/status") || strings.Contains(r.URL.Path, "/job-status/") {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
