package jobs

import (
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
)

// TestWidePaneReadsThePaths: on a pane of 160 columns the path column shows,
// read from the embedded platform once per file.
func TestWidePaneReadsThePaths(t *testing.T) {
	pl := startPlatform(t, nil)
	if _, err := pl.client.TriggerJob(t.Context(), api.Path("/Data/ImportJobs/Events.imp")); err != nil {
		t.Fatal(err)
	}
	p := newTestPane(pl.client, wideAt, 20, time.Now)
	p.polling.every = 0
	u := newPump(t, p)
	defer u.drain()
	u.run(p.Init())
	u.until("the path of Events.imp", 20*time.Second, func() bool {
		return strings.Contains(screen(p.View()), "/Data/ImportJobs/Events.imp")
	})
	if p.layout.path == 0 {
		t.Error("no path column at 160 columns")
	}
	p.SetSize(wideAt-1, 20)
	if screen(p.View()); p.layout.path != 0 && !p.needsPath() {
		t.Error("a path column below 160 columns with no two rows of one name")
	}
}
