package jobs

import (
	"net/http"
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
)

// The whole story against the real server: trigger from the pane, watch
// progress rise, stop through the confirmation, see CANCELED.
func TestTriggerProgressStopCanceled(t *testing.T) {
	pl := startPlatform(t, nil)
	p := newTestPane(pl.client, 120, 20, time.Now)
	p.polling.every = 200 * time.Millisecond
	u := newPump(t, p)
	defer u.drain()
	u.run(p.Init())

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
	if !strings.Contains(screen(p.View()), "> RUNNING") {
		t.Fatalf("running row not shown:\n%s", screen(p.View()))
	}
	_, cmd = p.Update(keyPress("s"))
	d := dialogOf(cmd)
	if d == nil {
		t.Fatal("stop opened no confirmation")
	}
	_, cmd = d.Update(keyPress("y"))
	for _, msg := range expand(cmd) {
		u.deliver(msg)
	}
	u.until("CANCELED", 20*time.Second, func() bool {
		return r() != nil && r().final && r().state.Canonical() == model.StateCanceled
	})
	view := screen(p.View())
	if !strings.Contains(view, "CANCELED") || !strings.Contains(view, "just ended") {
		t.Errorf("canceled execution not shown as just ended:\n%s", view)
	}
	u.until("the notice that the watched job ended", 5*time.Second, func() bool {
		u.mu.Lock()
		defer u.mu.Unlock()
		return containsStatus(u.other, "Events.imp #"+strconv.FormatInt(exec, 10)+" ended: CANCELED")
	})
}

func containsStatus(msgs []tea.Msg, text string) bool {
	for _, s := range statusesOf(msgs) {
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
	p.after = clock.after
	u := newPump(t, p)
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
				_, cmd := p.Update(keyPress(k))
				u.run(cmd)
			}
		}
	}
	polls := counter.total.Load()
	_, cmd := p.Update(keyPress("0")) // polling off: the pending tick is dropped
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
	p.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		delays = append(delays, d)
		return clock.after(d, msg)
	}
	u := newPump(t, p)
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
	view := screen(p.View())
	if !strings.Contains(view, "stale: 7 polls failed, retry in 1m") || !strings.Contains(view, "does not answer") {
		t.Errorf("stale data not shown:\n%s", view)
	}

}
