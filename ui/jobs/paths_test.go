package jobs

import (
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
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

// A narrow dashboard shows paths only when two files on screen share a
// name: two runs of one file are told apart by their executions (they
// turned the file column into a path column).
func TestPathColumnOnlyForNamesOfTwoFiles(t *testing.T) {
	events := func(id, fileID int64) model.RunningJob {
		j := runningJob(id, "Events", model.StateRunning, clockAt)
		j.FileID = fileID
		return j
	}
	tests := []struct {
		name string
		jobs []model.RunningJob
		want bool
	}{
		{"two runs of one file", []model.RunningJob{events(1, 11), events(5, 11)}, false},
		{"two files of one name", []model.RunningJob{events(1, 11), events(5, 42)}, true},
		{"two of one name, files not listed", []model.RunningJob{events(1, 0), events(5, 0)}, true},
		{"names apart", []model.RunningJob{events(1, 11), runningJob(2, "Orders", model.StateRunning, clockAt)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestPane(nil, 120, 20, func() time.Time { return clockAt })
			p.Init()
			p.Update(polled(p, tt.jobs))
			if got := p.needsPath(); got != tt.want {
				t.Errorf("path column %v, want %v", got, tt.want)
			}
		})
	}
}
