package ui

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// TestFirstFrameTakesTheEarlyRootRead: the root folder read before the
// program started is the tree's first answer (a folder made after that
// read does not show), and a refresh reads anew.
func TestFirstFrameTakesTheEarlyRootRead(t *testing.T) {
	c := startConsole(t, consoleOpts{started: func(ctx *common.Context) {
		read := make(chan struct{})
		ctx.FirstRoot = common.StartEarly(context.Background(), func(rctx context.Context) (model.Folder, error) {
			defer close(read)
			return ctx.Client.RootFolder(rctx)
		})
		<-read
		if _, err := ctx.Client.CreateFolder(context.Background(), api.Path("/"), "MadeLater"); err != nil {
			t.Fatal(err)
		}
	}})
	if screen := c.waitFor("Exports/"); strings.Contains(screen, "MadeLater") {
		t.Fatalf("the first tree shows a folder made after the early read:\n%s", screen)
	}
	c.keys("r")
	c.waitFor("MadeLater/")
}

// TestFailedEarlyRootReadIsToldAndRetried: a root folder read that failed
// before the program started is told in the status line as the tree's
// first read failing; the other panes' reads, held for the first frame,
// leave all the same; and a refresh reads the tree anew.
func TestFailedEarlyRootReadIsToldAndRetried(t *testing.T) {
	gate := newRootGate()
	close(gate.open)
	c := startConsole(t, consoleOpts{wrap: gate.wrap, panes: ownModels, started: func(ctx *common.Context) {
		ctx.FirstRoot = common.StartEarly(context.Background(), func(context.Context) (model.Folder, error) {
			return model.Folder{}, errors.New("connection refused")
		})
	}})
	c.waitFor("reading the root folder: connection refused")
	gate.waitForRead(t, "/rest/connections")
	gate.waitForRead(t, "/api/job-execution/list-running")
	c.keys("r")
	c.waitFor("Exports/")
}

// rootGate holds the answer to the root folder's read until open is
// closed, and that to the connections list until list is, and notes every
// read of another pane's data (the connections, the per-kind file lists,
// the running jobs) that reached the server before the root folder was
// answered.
type rootGate struct {
	open, list chan struct{}
	answered   atomic.Bool
	mu         sync.Mutex
	early      []string // reads that came before the root folder's answer
	seen       []string // every other pane's read, in order
}

// newRootGate holds the root folder's answer; the list's goes at once.
func newRootGate() *rootGate {
	list := make(chan struct{})
	close(list)
	return &rootGate{open: make(chan struct{}), list: list}
}

// openAll lets every answer held go (a read left waiting would hold the
// server's shutdown).
func (g *rootGate) openAll() {
	for _, ch := range []chan struct{}{g.open, g.list} {
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
}

func (g *rootGate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/filesystem/root-folder" {
			<-g.open
			next.ServeHTTP(w, r)
			g.answered.Store(true)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/rest/") || r.URL.Path == "/api/job-execution/list-running" {
			g.mu.Lock()
			g.seen = append(g.seen, r.URL.Path)
			if !g.answered.Load() {
				g.early = append(g.early, r.URL.Path)
			}
			g.mu.Unlock()
		}
		if r.URL.Path == "/rest/connections" {
			<-g.list
		}
		next.ServeHTTP(w, r)
	})
}

// waitForRead waits until the server has seen a read of path.
func (g *rootGate) waitForRead(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		g.mu.Lock()
		seen := slices.Contains(g.seen, path)
		g.mu.Unlock()
		if seen {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never saw a read of %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPanesNotShownReadAfterTheFirstFrame: the connections and jobs panes,
// not on screen at the start, and the folders pane's file lists (the first
// frame shows the root folder's folders only) read nothing until the root
// folder has come, so that nothing competes with the first frame; then
// they do, and their data is there.
func TestPanesNotShownReadAfterTheFirstFrame(t *testing.T) {
	gate := newRootGate()
	c := startConsole(t, consoleOpts{wrap: gate.wrap, panes: ownModels})
	t.Cleanup(gate.openAll) // before the server's shutdown, which waits for held reads
	c.waitFor("reading the root folder")
	close(gate.open)
	c.waitFor("Exports/")
	gate.waitForRead(t, "/rest/connections")
	gate.waitForRead(t, "/rest/import-job")
	gate.waitForRead(t, "/api/job-execution/list-running")
	if len(gate.early) > 0 {
		t.Errorf("read before the root folder was answered: %v", gate.early)
	}
	c.keys("2")
	c.waitQuiet("Jdbc SQLite", "reading")
}

// TestPaneShownBeforeTheFirstFrameReadsAtOnce: a pane the user goes to
// while the root folder is still on its way does not wait for it: it shows
// that it is reading, then its data, and its keys act on that data; the
// tree and its files come when the root folder does.
func TestPaneShownBeforeTheFirstFrameReadsAtOnce(t *testing.T) {
	gate := newRootGate()
	gate.list = make(chan struct{})
	c := startConsole(t, consoleOpts{wrap: gate.wrap, panes: ownModels, width: 120, height: 32})
	t.Cleanup(gate.openAll) // before the server's shutdown, which waits for held reads
	c.waitFor("reading the root folder")
	c.keys("2")
	c.waitFor("reading the connections…")
	close(gate.list)
	c.waitQuiet("Jdbc SQLite", "reading the connections")
	c.keys("j", "j", "j", "i") // the details of the fourth connection
	c.waitFor("Jdbc MySQL (das.JdbcDataStoreType)")
	c.keys("esc", "1")
	c.waitFor("reading the root folder")
	close(gate.open)
	c.waitFor("Exports/")
	c.keys(":")
	c.typeText("cd /Data/Connections")
	c.keys("enter")
	c.waitFor("at /Data/Connections")
	c.keys("enter")
	c.waitFor("Warehouse.dst")
}
