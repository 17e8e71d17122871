package jobs

import (
	"net/http"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// clockAt is the fixed time of golden tests.
var clockAt = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

// platform is the embedded server with demo data behind httptest, and a
// client whose idle connections the test can close.
type platform struct {
	url       string
	transport *http.Transport
	client    *api.Client
	close     func()
}

func startPlatform(t testing.TB, wrap func(http.Handler) http.Handler) *platform {
	t.Helper()
	running := servertest.Start(t, server.Config{DemoData: true, MaxConcurrentJobs: 4}, wrap)
	tr := &http.Transport{}
	return &platform{url: running.URL, transport: tr,
		client: api.New(running.URL, "admin", "admin", api.WithHTTPClient(&http.Client{Transport: tr})),
		close: func() {
			tr.CloseIdleConnections()
			running.Close()
		}}
}

// newTestPane returns a pane of the given size whose clock is now() and
// whose client talks to nothing unless one is given.
func newTestPane(client *api.Client, width, height int, now func() time.Time) *Pane {
	if client == nil {
		client = api.New("http://127.0.0.1:1", "admin", "admin")
	}
	ctx := common.NewContext(client, "http://dap.test", "admin", "", false)
	ctx.Now = now
	p := New(ctx)
	p.SetSize(width, height)
	return p
}

// pump runs a pane the way Bubble Tea does: commands on their own
// goroutines, Update on one. Messages the pane does not own (status lines,
// dialogs) are kept for the test to read.
type pump struct {
	t        testing.TB
	p        *Pane
	msgs     chan tea.Msg
	wg       sync.WaitGroup
	mu       sync.Mutex
	other    []tea.Msg
	stop     chan struct{}
	stopOnce sync.Once
}

// newPump takes over the pane's timers (see after); a test on a clock of
// its own sets p.after after this.
func newPump(t testing.TB, p *Pane) *pump {
	u := &pump{t: t, p: p, msgs: make(chan tea.Msg, 256), stop: make(chan struct{})}
	p.after = u.after
	return u
}

// after is tea.Tick that drain ends: a test does not wait for the next
// poll or log tick once it has what it looked for.
func (u *pump) after(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		timer := time.NewTimer(d)
		defer timer.Stop()
		select {
		case <-timer.C:
			return msg
		case <-u.stop:
			return nil
		}
	}
}

// run starts a command; its messages arrive on the channel. Timers other
// than the pane's own (after) are left out, as uitest does.
func (u *pump) run(cmd tea.Cmd) {
	if cmd == nil || uitest.IsTimer(cmd) {
		return
	}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		msg := cmd()
		if cmds, ok := uitest.Commands(msg); ok {
			for _, c := range cmds {
				u.run(c) // each on its own goroutine, as the program runs a batch
			}
			return
		}
		if msg, ok := uitest.ForPane(msg); ok && msg != nil {
			u.msgs <- msg
		}
	}()
}

// step delivers one message to the pane, or keeps it; false when none came
// within the wait.
func (u *pump) step(wait time.Duration) bool {
	select {
	case msg := <-u.msgs:
		u.deliver(msg)
		return true
	case <-time.After(wait):
		return false
	}
}

func (u *pump) deliver(msg tea.Msg) {
	switch msg.(type) {
	case common.StatusMsg, common.OpenDialogMsg, common.UnauthorizedMsg:
		u.mu.Lock()
		u.other = append(u.other, msg)
		u.mu.Unlock()
		return
	}
	_, cmd := u.p.Update(msg)
	u.run(cmd)
}

// until steps until cond holds or the deadline passes.
func (u *pump) until(what string, limit time.Duration, cond func() bool) {
	u.t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			u.t.Fatalf("%s did not happen within %s; screen:\n%s", what, limit, uitest.Screen(u.p.View()))
		}
		u.step(50 * time.Millisecond)
	}
}

// drain waits for every command started so far and delivers nothing more.
func (u *pump) drain() {
	u.stopOnce.Do(func() { close(u.stop) })
	done := make(chan struct{})
	go func() { u.wg.Wait(); close(done) }()
	for {
		select {
		case <-done:
			return
		case <-u.msgs:
		}
	}
}

func runningJob(id int64, name string, state model.JobState, started time.Time) model.RunningJob {
	return model.RunningJob{JobStatus: state, FileName: name + ".imp", JobName: name, FileID: 100 + id,
		UUID: "uuid-" + name, CreationDate: model.Millis(started), JobExecutionID: id,
		DapJobConfigurationID: 200 + id, StartTime: model.Millis(started)}
}

// polled is the poll's answer of jobs as the poll's task sends it to p.
func polled(p *Pane, jobs []model.RunningJob) pollMsg {
	return indexed(pollMsg{ticket: p.polling.reads.Latest(), jobs: jobs})
}

// indexed is m with its jobs indexed, as the poll's task sends it: Update
// indexes nothing (it would cost O(rows) on every poll).
func indexed(m pollMsg) pollMsg {
	m.index = indexPoll(m.jobs)
	return m
}
