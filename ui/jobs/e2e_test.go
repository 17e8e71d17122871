package jobs

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The whole story against the real server: trigger from the pane, watch
// progress rise, stop through the confirmation, see CANCELED.
func TestTriggerProgressStopCanceled(t *testing.T) {
	p, u := pollingPane(t, startPlatform(t, nil), 120)

	_, cmd := p.Update(triggerRequest{ref: api.Path("/Data/ImportJobs/Events.imp")})
	u.run(cmd)
	var exec int64
	u.until("the trigger answer", 10*time.Second, func() bool {
		for id := range p.watched {
			exec = id
		}
		return exec != 0
	})
	r := func() *row { return p.table.rows[exec] }
	u.until("first progress", 20*time.Second, func() bool { return r() != nil && r().hasProgress && r().progress > 0 })
	first := r().progress
	u.until("progress rising", 20*time.Second, func() bool { return r().progress > first })
	if r().user != "admin" {
		t.Errorf("user column = %q, want admin (from the trigger answer)", r().user)
	}

	p.keepSelection(exec)
	if !strings.Contains(uitest.Screen(p.View()), "> RUNNING") {
		t.Fatalf("running row not shown:\n%s", uitest.Screen(p.View()))
	}
	_, cmd = p.Update(uitest.Key("s"))
	d := uitest.Dialog(uitest.Expand(cmd))
	if d == nil {
		t.Fatal("stop opened no confirmation")
	}
	_, cmd = d.Update(uitest.Key("y"))
	for _, msg := range uitest.Expand(cmd) {
		u.deliver(msg)
	}
	u.until("CANCELED", 20*time.Second, func() bool {
		return r() != nil && r().final && r().state.Canonical() == model.StateCanceled
	})
	view := uitest.Screen(p.View())
	if !strings.Contains(view, "CANCELED") || !strings.Contains(view, "just ended") {
		t.Errorf("canceled execution not shown as just ended:\n%s", view)
	}
	u.until("the notice that the watched job ended", 5*time.Second, func() bool {
		u.mu.Lock()
		defer u.mu.Unlock()
		return containsStatus(u.other, "Events.imp #"+strconv.FormatInt(exec, 10)+" ended: CANCELED, stopped as asked")
	})
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, s := range uitest.All[common.StatusMsg](u.other) {
		if strings.Contains(s.Text, "stopped as asked") && s.Level != common.LevelNotice {
			t.Errorf("a stop that was asked for is reported at level %v: %q", s.Level, s.Text)
		}
	}
}

// pollingPane is a pane width columns wide on pl, polling every 200 ms,
// started; its pump is drained when the test ends.
func pollingPane(t *testing.T, pl *platform, width int) (*Pane, *pump) {
	p := newTestPane(pl.client, width, 20, time.Now)
	p.polling.every = 200 * time.Millisecond
	u := newPump(t, p)
	t.Cleanup(u.drain)
	u.run(p.Init())
	return p, u
}

func containsStatus(msgs []tea.Msg, text string) bool {
	for _, s := range uitest.All[common.StatusMsg](msgs) {
		if strings.Contains(s.Text, text) {
			return true
		}
	}
	return false
}

// fakeClock is the time of a test that runs ten minutes of polling in a
// moment: every scheduled tick moves it on by its delay.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) after(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		c.mu.Lock()
		c.now = c.now.Add(d)
		c.mu.Unlock()
		return msg
	}
}

// overlapCounter sits in front of the real handler and records how many
// list-running calls were in flight at once.
type overlapCounter struct {
	current, most, total atomic.Int64
}

func (o *overlapCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/list-running") {
			n := o.current.Add(1)
			defer o.current.Add(-1)
			o.total.Add(1)
			for {
				m := o.most.Load()
				if n <= m || o.most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond) // widen the window an overlap would need
		}
		h.ServeHTTP(w, r)
	})
}

// Ten minutes of polling on a fake clock, with refreshes and interval
// changes thrown in: never two list-running calls at once, and nothing
// left running afterwards.
func TestTenMinutesOfPollingNeverOverlapsAndLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	var counter overlapCounter
	pl := startPlatform(t, counter.wrap)
	clock := &fakeClock{now: clockAt}
	p := newTestPane(pl.client, 120, 20, clock.Now)
	u := newPump(t, p)
	p.after = clock.after
	u.run(p.Init())

	// Keys an impatient admin presses now and then, which all ask for a
	// poll (a pause is resumed at once, so that ticks keep coming).
	disturb := [][]string{{"r"}, {"+"}, {"r"}, {"-"}, {"P", "P"}, {"r"}, {"-"}, {"+"}}
	end := clockAt.Add(10 * time.Minute)
	for i := 0; clock.Now().Before(end); i++ {
		if !u.step(5 * time.Second) {
			t.Fatalf("polling stopped at %s of fake time", clock.Now().Sub(clockAt))
		}
		if i%25 == 0 {
			for _, k := range disturb[i/25%len(disturb)] {
				_, cmd := p.Update(uitest.Key(k))
				u.run(cmd)
			}
		}
	}
	polls := counter.total.Load()
	_, cmd := p.Update(uitest.Key("0")) // polling off: the pending tick is dropped
	u.run(cmd)
	u.drain()
	pl.close()

	if most := counter.most.Load(); most != 1 {
		t.Errorf("list-running calls in flight at once: %d, want 1", most)
	}
	// Intervals between 1 s and 5 s: anything much below 120 polls means
	// the schedule stalled somewhere.
	if polls < 120 {
		t.Errorf("%d polls in ten minutes, want at least 120", polls)
	}
	t.Logf("%d polls in ten minutes of fake time", polls)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A server that stops answering marks the data stale and backs off
// exponentially, up to a minute, while the pane keeps answering.
func TestFailingServerBacksOffAndShowsStale(t *testing.T) {
	pl := startPlatform(t, nil)
	clock := &fakeClock{now: clockAt}
	p := newTestPane(pl.client, 120, 12, clock.Now)
	var delays []time.Duration
	u := newPump(t, p)
	p.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		delays = append(delays, d)
		return clock.after(d, msg)
	}
	defer u.drain()
	u.run(p.Init())
	u.until("first poll", 10*time.Second, func() bool { return p.polling.polls == 1 })
	pl.close()
	u.until("seven failed polls", 30*time.Second, func() bool { return p.polling.failures == 7 })

	want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second,
		32 * time.Second, time.Minute, time.Minute, time.Minute}
	if len(delays) < len(want) {
		t.Fatalf("delays %v, want %v", delays, want)
	}
	for i, d := range want {
		if delays[i] != d {
			t.Errorf("delay %d = %s, want %s (all: %v)", i, delays[i], d, delays)
		}
	}
	view := uitest.Screen(p.View())
	if !strings.Contains(view, "stale: 7 polls failed, retry in 1m") || !strings.Contains(view, "does not answer") {
		t.Errorf("stale data not shown:\n%s", view)
	}

}

// A server that is slow, not down: while list-running keeps the pane
// waiting longer than a poll should take, the data on screen is called
// stale with how long it has waited; the answer clears it.
func TestSlowServerMarksDataStale(t *testing.T) {
	release := make(chan struct{})
	pl := startPlatform(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/list-running") {
				<-release
			}
			h.ServeHTTP(w, r)
		})
	})
	clock := &fakeClock{now: clockAt}
	p := newTestPane(pl.client, 120, 12, clock.Now)
	u := newPump(t, p)
	p.after = clock.after
	defer u.drain()
	u.run(p.Init())

	clock.mu.Lock()
	clock.now = clock.now.Add(staleAfter)
	clock.mu.Unlock()
	if view := uitest.Screen(p.View()); strings.Contains(view, "stale") {
		t.Errorf("stale already after %s, a poll's normal time:\n%s", staleAfter, view)
	}
	clock.mu.Lock()
	clock.now = clock.now.Add(5 * time.Second)
	clock.mu.Unlock()
	if view := uitest.Screen(p.View()); !strings.Contains(view, "stale: list-running has not answered for 7s") {
		t.Errorf("a slow poll not shown as stale:\n%s", view)
	}
	close(release)
	u.until("the slow answer", 10*time.Second, func() bool { return p.polling.polls == 1 })
	if view := uitest.Screen(p.View()); strings.Contains(view, "stale") {
		t.Errorf("still stale after the answer:\n%s", view)
	}
}

// A release whose job details carry neither jobConfigurationId nor file
// still opens a job's history: its configuration id comes from the lists.
func TestHistoryFromDetailsWithoutConfiguration(t *testing.T) {
	pl := startPlatform(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.Contains(r.URL.Path, "/job-details/") {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var details map[string]json.RawMessage
			if err := json.Unmarshal(rec.Body.Bytes(), &details); err != nil {
				t.Errorf("details %s: %v", rec.Body, err)
			}
			delete(details, "jobConfigurationId")
			delete(details, "file")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			json.NewEncoder(w).Encode(details)
		})
	})
	customers := api.Path("/Data/ImportJobs/Customers.imp")
	run, err := pl.client.TriggerJob(t.Context(), customers)
	if err != nil {
		t.Fatal(err)
	}
	waitEnded(t, pl.client, run.JobExecutionID)
	imports, err := pl.client.FilesOfKind(t.Context(), model.KindImportJob)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, e := range imports {
		if e.Path == customers.String() {
			want = e.ID
		}
	}
	p := newTestPane(pl.client, 100, 20, time.Now)
	p.polling.every = 0
	u := newPump(t, p)
	defer u.drain()
	_, cmd := p.Update(historyLookup{ref: customers})
	u.run(cmd)
	u.until("the history", 10*time.Second, func() bool { return p.history != nil && len(p.history.entries) > 0 })
	if p.history.configID != want || p.history.entries[0].ID != run.JobExecutionID {
		t.Fatalf("history of configuration %d from #%d, want %d from #%d", p.history.configID, p.history.entries[0].ID, want, run.JobExecutionID)
	}
	// Its details name the configuration the history was found by, and no file.
	u.run(uitest.Press(p, "enter"))
	u.until("the details", 10*time.Second, func() bool { return p.details != nil && p.details.loaded })
	view := uitest.Screen(p.View())
	if !strings.Contains(view, fmt.Sprintf("configuration   %d", want)) || !strings.Contains(view, "file            —") {
		t.Errorf("details without configuration and file:\n%s", view)
	}
}

// History against the real server: opened by path, one page of ten
// (start and length on the wire), the next page on pgdn, the end said
// plainly, and the details of a row with its counters.
func TestHistoryPagesAndDetails(t *testing.T) {
	var mu sync.Mutex
	var windows []string
	pl := startPlatform(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path, "/job-history/") {
				mu.Lock()
				windows = append(windows, r.URL.RawQuery)
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	})
	const runs = 12
	customers := api.Path("/Data/ImportJobs/Customers.imp")
	for range runs {
		if _, err := pl.client.TriggerJob(t.Context(), customers); err != nil {
			t.Fatal(err)
		}
	}
	p := newTestPane(pl.client, 100, 10, time.Now) // pages of 7
	p.polling.every = 0
	u := newPump(t, p)
	defer u.drain()
	_, cmd := p.Update(historyLookup{ref: customers})
	u.run(cmd)
	u.until("the first page", 10*time.Second, func() bool { return p.history != nil && len(p.history.entries) > 0 })
	if len(p.history.entries) != p.historyPage() {
		t.Fatalf("first page holds %d executions, want %d", len(p.history.entries), p.historyPage())
	}
	newest := p.history.entries[0].ID

	u.run(uitest.Press(p, "pgdown"))
	u.until("the second page", 10*time.Second, func() bool { return p.history.start == p.historyPage() && !p.history.loading })
	if n := len(p.history.entries); n < runs-p.historyPage() || p.history.entries[0].ID >= newest {
		t.Fatalf("second page %+v after newest #%d", p.history.entries, newest)
	}
	if view := uitest.Screen(p.View()); !strings.Contains(view, "executions 8–") || !strings.Contains(view, fmt.Sprintf(" of %d", p.history.total)) {
		t.Errorf("page not numbered from 8 of the total:\n%s", view)
	}
	for len(p.history.entries) == p.historyPage() { // page to the end, however long the demo's history
		start := p.history.start
		u.run(uitest.Press(p, "pgdown"))
		u.until("the next page", 10*time.Second, func() bool { return p.history.start > start || !p.history.loading })
	}
	if st := uitest.All[common.StatusMsg](uitest.Expand(uitest.Press(p, "pgdown"))); len(st) != 1 || st[0].Text != "no older executions" {
		t.Errorf("pgdn on the last page said %+v", st)
	}
	mu.Lock()
	if len(windows) < 2 || windows[0] != "start=0&length=7" || windows[1] != "start=7&length=7" {
		t.Errorf("history windows asked %v", windows)
	}
	mu.Unlock()

	waitEnded(t, pl.client, p.history.entries[len(p.history.entries)-1].ID)
	p.SetSize(100, 30) // room for the counters
	u.run(uitest.Press(p, "G", "enter"))
	u.until("the details", 20*time.Second, func() bool { return p.details != nil && (p.details.loaded || p.details.err != "") })
	view := uitest.Screen(p.View())
	for _, want := range []string{"Execution #", "state", "duration", "IMPORT_RECORDS"} {
		if !strings.Contains(view, want) {
			t.Errorf("details lack %q:\n%s", want, view)
		}
	}
}

// Delete job data against the real server: each of the three answers
// (marked now, already marked, no such data) is said plainly.
func TestDeleteDataAnswersFromTheServer(t *testing.T) {
	pl := startPlatform(t, nil)
	run, err := pl.client.TriggerJob(t.Context(), api.Path("/Data/ImportJobs/Customers.imp"))
	if err != nil {
		t.Fatal(err)
	}
	waitEnded(t, pl.client, run.JobExecutionID) // data exists once the run has written it
	p := newTestPane(pl.client, 100, 12, time.Now)
	tests := []struct {
		execID int64
		level  common.Level
		says   string
	}{
		{run.JobExecutionID, common.LevelNotice, "is now marked for deletion"},
		{run.JobExecutionID, common.LevelInfo, "was already deleted or marked for deletion: nothing changed"},
		{999_999, common.LevelError, "data of execution #999999 not deleted: the server refused: "},
	}
	for _, tt := range tests {
		var said []common.StatusMsg
		_, asked := p.Update(deleteRequest{execID: tt.execID})
		for _, msg := range uitest.Expand(asked) {
			_, cmd := p.Update(msg)
			said = append(said, uitest.All[common.StatusMsg](uitest.Expand(cmd))...)
		}
		if len(said) != 1 || said[0].Level != tt.level || !strings.Contains(said[0].Text, tt.says) {
			t.Errorf("delete data of #%d said %+v, want level %d saying %q", tt.execID, said, tt.level, tt.says)
		}
	}
}

// waitEnded waits until an execution has reached its final state.
func waitEnded(t *testing.T, client *api.Client, execID int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		d, err := client.JobDetails(t.Context(), execID)
		if err != nil {
			t.Fatal(err)
		}
		if d.JobStatus.Final() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("execution #%d still %s after 20s", execID, d.JobStatus)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Sequential trigger against the real server: a path with a variable
// becomes a plan shown at once, whose execution's state follows the run
// (here it is stopped, and the plan says CANCELED); a chain holding a
// workbook that is not data-driven is refused in the server's words.
func TestSequentialTriggerPlanFollowsTheRun(t *testing.T) {
	pl := startPlatform(t, nil)
	events := api.Path("/Data/ImportJobs/Events.imp")
	if _, err := pl.client.TriggerJob(t.Context(), events); err != nil { // so that its path resolves to a file id
		t.Fatal(err)
	}
	p := newTestPane(pl.client, 100, 12, time.Now)
	p.polling.every = 0
	u := newPump(t, p)
	defer u.drain()
	// The plan reads its executions' states again at once, not planEvery later.
	p.after = func(_ time.Duration, msg tea.Msg) tea.Cmd { return u.after(10*time.Millisecond, msg) }

	req, err := parseSequence("/Data/ImportJobs/Events.imp minAmount=5")
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := p.Update(req)
	u.run(cmd)
	u.until("the plan", 10*time.Second, func() bool { return p.plan != nil })
	if p.mode != modePlan || len(p.plan.entries) == 0 || !p.plan.entries[0].Trigger {
		t.Fatalf("plan %+v in mode %d", p.plan, p.mode)
	}
	exec := p.plan.entries[0].JobExecutionID
	u.until("the plan's execution running", 20*time.Second, func() bool {
		return p.plan.states[exec].Canonical() == model.StateRunning
	})
	if err := pl.client.StopJob(t.Context(), events); err != nil {
		t.Fatal(err)
	}
	u.until("CANCELED in the plan", 20*time.Second, func() bool { return p.plan.states[exec].Final() })
	if view := uitest.Screen(p.View()); !strings.Contains(view, "CANCELED") || !strings.Contains(view, "1 of 1 triggered executions ended") {
		t.Errorf("plan after the stop:\n%s", view)
	}

	req, _ = parseSequence("/Data/ImportJobs/Customers.imp")
	_, cmd = p.Update(req)
	u.run(cmd)
	u.until("the refusal", 10*time.Second, func() bool {
		u.mu.Lock()
		defer u.mu.Unlock()
		return containsStatus(u.other, "is not data-driven")
	})
}

// TestOlderPlatformJobs: on a platform without the REST-v2 job endpoints
// (they answer 404), the pane lists, triggers and follows jobs through the
// older ones and says so in its summary line.
func TestOlderPlatformJobs(t *testing.T) {
	p, u := pollingPane(t, startPlatform(t, servertest.Lacking("/api/job-execution/")), 160)
	_, cmd := p.Update(triggerRequest{ref: api.Path("/Data/ImportJobs/Events.imp")})
	u.run(cmd)
	// The summary names the endpoints once a poll has answered; the
	// trigger's own answer may list the job before that.
	u.until("the triggered job listed by a poll", 20*time.Second, func() bool {
		if p.polling.polls == 0 {
			return false
		}
		for id := range p.watched {
			if r := p.table.rows[id]; r != nil && r.state.Active() {
				return true
			}
		}
		return false
	})
	if view := uitest.Screen(p.View()); !strings.Contains(view, "older /rest jobs") {
		t.Fatalf("the summary does not say which job endpoints it uses:\n%s", view)
	}
}

// TestNewerPlatformJobsSaySo: against REST-v2 job endpoints the summary
// line names them once a poll has answered.
func TestNewerPlatformJobsSaySo(t *testing.T) {
	pl := startPlatform(t, nil)
	p := newTestPane(pl.client, 160, 20, time.Now)
	u := newPump(t, p)
	defer u.drain()
	u.run(p.Init())
	u.until("a poll answered", 20*time.Second, func() bool { return p.polling.polls > 0 })
	if view := uitest.Screen(p.View()); !strings.Contains(view, "REST-v2 jobs") {
		t.Fatalf("the summary does not say which job endpoints it uses:\n%s", view)
	}
}
