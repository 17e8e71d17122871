package jobs

import (
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestWidePaneReadsThePaths: on a pane of 160 columns the path column shows,
// read from the embedded platform once per file.
func TestWidePaneReadsThePaths(t *testing.T) {
	pl := startPlatform(t, nil)
	if _, err := pl.client.TriggerJob(t.Context(), api.Path("/Data/ImportJobs/Events.imp")); err != nil {
		t.Fatal(err)
	}
	p := newTestPane(pl.client, wideAt, 20, time.Now)
	startUntilEventsPathShows(t, p)
	if p.layout.path == 0 {
		t.Error("no path column at 160 columns")
	}
	p.SetSize(wideAt-1, 20)
	if uitest.Screen(p.View()); p.layout.path != 0 && !p.needsPath() {
		t.Error("a path column below 160 columns with no two rows of one name")
	}
}

// TestIndexedPathsAreNotReadAgain: a file the folders pane's file index
// holds gets its path from there, with no read of the file.
func TestIndexedPathsAreNotReadAgain(t *testing.T) {
	pl := startPlatform(t, nil)
	if _, err := pl.client.TriggerJob(t.Context(), api.Path("/Data/ImportJobs/Events.imp")); err != nil {
		t.Fatal(err)
	}
	index, err := common.ReadFileIndex(t.Context(), pl.client)
	if err != nil {
		t.Fatal(err)
	}
	p := newTestPane(pl.client, wideAt, 20, time.Now)
	p.ctx.FileIndex = index
	startUntilEventsPathShows(t, p)
	if len(p.paths) != 0 {
		t.Errorf("paths read though the index holds them: %v", p.paths)
	}
}

// startUntilEventsPathShows starts p with one poll and no more, and waits
// until its table shows the path of Events.imp.
func startUntilEventsPathShows(t *testing.T, p *Pane) {
	t.Helper()
	p.polling.every = 0
	u := newPump(t, p)
	t.Cleanup(u.drain)
	u.run(p.Init())
	u.until("the path of Events.imp", 20*time.Second, func() bool {
		return strings.Contains(uitest.Screen(p.View()), "/Data/ImportJobs/Events.imp")
	})
}
