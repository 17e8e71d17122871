package jobs

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

const (
	defaultEvery = 2 * time.Second
	// maxBackoff caps the wait after failed polls.
	maxBackoff = time.Minute
	// pollTimeout bounds one list-running call, so a hung server counts as
	// failing instead of stopping the dashboard.
	pollTimeout = 10 * time.Second
	// staleAfter is how long a poll may take, at the least, before the data
	// on screen is called stale; a longer interval allows as long.
	staleAfter = 2 * time.Second
	// statusWorkers bounds the status reads running at once; maxStatusReads
	// bounds them per round (the visible rows are fewer anyway).
	statusWorkers  = 4
	maxStatusReads = 64
)

// intervals are the steps the faster and slower keys walk; the first is
// the shortest interval polling takes, whichever way it is set.
var intervals = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second,
	5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute}

// poller keeps list-running polls apart: at most one in flight, the next
// tick scheduled only when the answer arrived.
type poller struct {
	every    time.Duration // 0 is off
	before   time.Duration // the interval polling had before 0 turned it off
	paused   bool
	inFlight bool
	sentAt   time.Time       // when the poll in flight was sent
	reads    common.Requests // tags the latest poll
	ticks    common.Requests // the schedule a tick must belong to
	failures int
	lastErr  error
	polls    int // answered polls, for tests
	// jobAPI is the generation of job endpoints the server answered with.
	jobAPI api.JobAPI
}

// afterFunc schedules msg after d; tea.Tick in the console, a fake clock in tests.
type afterFunc func(d time.Duration, msg tea.Msg) tea.Cmd

func realAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// delay is the wait before the next poll: the interval, doubled per
// failure in a row, at most maxBackoff.
func (pl *poller) delay() time.Duration {
	d := pl.every
	for i := 0; i < pl.failures && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// waiting is how long the poll in flight has waited for its answer once
// that is longer than a poll should take; 0 otherwise.
func (pl *poller) waiting(now time.Time) time.Duration {
	if !pl.inFlight {
		return 0
	}
	if d := now.Sub(pl.sentAt); d > max(pl.every, staleAfter) {
		return d
	}
	return 0
}

func (pl *poller) modeText() string {
	switch {
	case pl.every <= 0:
		return "polling off"
	case pl.paused:
		return "paused"
	}
	return "every " + shortDuration(pl.every)
}

// poll starts a list-running call unless one is in flight.
func (p *Pane) poll() tea.Cmd {
	client := p.ctx.Client
	if p.polling.inFlight || client == nil {
		return nil
	}
	p.polling.inFlight, p.polling.sentAt = true, p.ctx.Now()
	ticket, base := p.polling.reads.Next(), p.table.answer
	return common.StartTask("polling running jobs", common.Quiet, func(ctx context.Context) tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, pollTimeout)
		defer cancel()
		jobs, err := client.RunningJobs(ctx)
		msg := pollMsg{ticket: ticket, jobs: jobs, err: err, jobAPI: client.JobAPI(), base: base}
		if err == nil {
			msg.changes = common.Diff(base, jobs, execID, replaceLimit) // O(rows), here rather than in Update
			msg.index = indexPoll(jobs)
		}
		return msg
	})
}

// schedule starts a new schedule (dropping any pending tick) and returns
// its first tick, nil when paused or off.
func (p *Pane) schedule() tea.Cmd {
	if p.polling.paused || p.polling.every <= 0 {
		p.polling.ticks.Reset()
		return nil
	}
	return p.after(p.polling.delay(), pollTickMsg{ticket: p.polling.ticks.Next()})
}

// pollNow polls at once (refresh, new interval, resume); a poll in flight
// makes it wait for that answer, which schedules the next.
func (p *Pane) pollNow() tea.Cmd {
	p.polling.ticks.Reset()
	return p.poll()
}

func (p *Pane) gotTick(msg pollTickMsg) tea.Cmd {
	if !p.polling.ticks.Current(msg.ticket) {
		return nil
	}
	return p.poll()
}

func (p *Pane) gotPoll(msg pollMsg) tea.Cmd {
	p.polling.inFlight = false
	if !p.polling.reads.Current(msg.ticket) {
		return p.poll() // asked before a new login: ask again as the new user
	}
	p.polling.polls++
	p.polling.jobAPI = msg.jobAPI
	if msg.err != nil {
		p.polling.failures++
		p.polling.lastErr = msg.err
		var cmds []tea.Cmd
		if common.IsUnauthorized(msg.err) {
			cmds = append(cmds, common.Fail("list-running", msg.err))
		}
		return tea.Batch(append(cmds, p.schedule())...)
	}
	p.polling.failures, p.polling.lastErr = 0, nil
	selected := p.selectedExec()
	changes := msg.changes
	if !common.SameAnswer(msg.base, p.table.answer) {
		changes = common.Changes{} // found against another answer: merged by id
	}
	p.table.take(msg.jobs, changes, p.ctx.Now())
	p.keepSelection(selected)
	return tea.Batch(p.readStatuses(), p.readPaths(), p.followPoll(msg.index), p.schedule(),
		common.Send(common.JobsPolledMsg{Running: msg.index.byUUID}))
}

// pollIndex is a poll's answer by execution id and by job (an open history
// or run follows them) and each file's state by UUID (the tree shows it):
// O(rows), so the poll's task builds it, not Update.
type pollIndex struct {
	byExec map[int64]model.RunningJob
	byJob  map[int64][]model.RunningJob // by DapJobConfigurationID
	byUUID map[string]model.JobState
}

func indexPoll(jobs []model.RunningJob) *pollIndex {
	index := &pollIndex{byExec: make(map[int64]model.RunningJob, len(jobs)), byJob: map[int64][]model.RunningJob{},
		byUUID: make(map[string]model.JobState, len(jobs))}
	for _, j := range jobs {
		index.byExec[j.JobExecutionID] = j
		index.byJob[j.DapJobConfigurationID] = append(index.byJob[j.DapJobConfigurationID], j)
		if j.UUID != "" {
			index.byUUID[j.UUID] = j.JobStatus
		}
	}
	return index
}

// statusReader keeps status rounds apart: one in flight at most.
type statusReader struct {
	inFlight bool
	reads    common.Requests
}

type statusTarget struct {
	execID int64
	ref    api.Ref
	gone   bool
}

// readStatuses reads progress and estimate of the visible running rows, and
// the final state of executions that left the list (visible or watched).
func (p *Pane) readStatuses() tea.Cmd {
	client := p.ctx.Client
	if p.status.inFlight || client == nil {
		return nil
	}
	targets := p.statusTargets()
	if len(targets) == 0 {
		return nil
	}
	p.status.inFlight = true
	ticket := p.status.reads.Next()
	return common.StartTask("reading job progress", common.Quiet, func(ctx context.Context) tea.Msg {
		return jobStatusMsg{ticket: ticket, results: runStatusReads(ctx, client, targets)}
	})
}

// statusTargets are the executions whose status a round reads: the
// visible running rows, and those that left the list, visible or watched,
// maxStatusReads at most.
func (p *Pane) statusTargets() []statusTarget {
	var targets []statusTarget
	want := func(r *row) {
		if len(targets) >= maxStatusReads || r.ref.IsZero() {
			return
		}
		switch {
		case r.gone() && !r.final:
			targets = append(targets, statusTarget{execID: r.job.JobExecutionID, ref: r.ref, gone: true})
		case !r.gone() && !r.superseded && r.state.Canonical() == model.StateRunning:
			targets = append(targets, statusTarget{execID: r.job.JobExecutionID, ref: r.ref})
		}
	}
	first, last := p.visibleRange()
	for _, r := range p.table.view[first:last] {
		want(r)
	}
	for id := range p.watched {
		if r := p.table.rows[id]; r != nil && r.gone() && !p.isVisible(id) {
			want(r)
		}
	}
	return targets
}

// runStatusReads runs the reads, statusWorkers at a time. For an execution
// that left the list and is no longer its file's newest, the status speaks
// of another execution: its own details say how it ended.
func runStatusReads(ctx context.Context, client *api.Client, targets []statusTarget) []statusResult {
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	results := make([]statusResult, len(targets))
	fanOut(len(targets), func(i int) {
		t := targets[i]
		res := statusResult{execID: t.execID}
		res.status, res.err = client.JobStatus(ctx, t.ref)
		if res.err == nil && t.gone && (res.status.JobExecutionID == nil || *res.status.JobExecutionID != t.execID) {
			d, err := client.JobDetails(ctx, t.execID)
			res.ended, res.err = d.JobStatus, err
		}
		results[i] = res
	})
	return results
}

// fanOut calls read for each index below n, statusWorkers at a time, and
// returns when all have returned: the status round and the plan round read
// this way.
func fanOut(n int, read func(i int)) {
	sem := make(chan struct{}, statusWorkers)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			read(i)
		})
	}
	wg.Wait()
}

func (p *Pane) gotStatuses(msg jobStatusMsg) tea.Cmd {
	p.status.inFlight = false // one round at a time: any answer ends it
	if !p.status.reads.Current(msg.ticket) {
		return nil // asked before a new login
	}
	// Sorted by a column a status changes, each changed row moves to its
	// place; a regroup pending (or one a changed filter text asks for)
	// collects and sorts the view once at the end instead.
	resort := p.table.sortBy == colState || p.table.sortBy == colProgress || p.table.sortBy == colEstimate
	needle := common.ParseNeedle(p.table.filter)
	selected := p.selectedExec()
	var cmds []tea.Cmd
	changed := false
	for _, res := range msg.results {
		r := p.table.rows[res.execID]
		if r == nil || res.err != nil {
			continue
		}
		took := false
		take := func() {
			if took = takeStatus(r, res); took {
				p.table.touchedOutsidePoll(r)
			}
		}
		if resort && !p.table.regroup {
			p.table.move(r, needle, take)
		} else {
			take()
		}
		if !took {
			continue
		}
		changed = true
		if r.final {
			cmds = append(cmds, p.endedNotice(r))
		}
	}
	if changed && resort {
		if p.table.regroup {
			p.table.rebuild()
		}
		p.keepSelection(selected)
	}
	return tea.Batch(cmds...)
}

// takeStatus takes what a status read says of a row's execution; it
// reports whether the row changed.
func takeStatus(r *row, res statusResult) bool {
	st := res.status
	own := st.JobExecutionID != nil && *st.JobExecutionID == res.execID
	switch {
	case r.gone() && res.ended != "":
		r.state, r.final = res.ended, res.ended.Final()
	case r.gone() && own:
		r.state, r.final, r.reason = st.JobStatus, st.JobStatus.Final(), st.Reason
	case r.gone():
		return false
	case own:
		r.superseded = false
		if st.JobProgress != nil {
			r.progress, r.hasProgress = float64(*st.JobProgress), true
		}
		if st.EstimateTime != nil {
			r.estimate, r.hasEstimate = time.Duration(*st.EstimateTime), true
		}
	case !r.superseded:
		// A newer execution of the same file took the status: the last
		// progress read stays, shown as "at least" (progress only rises),
		// and list-running's estimate takes over.
		r.superseded, r.hasEstimate = true, false
		r.estimate = time.Duration(r.job.EstimatedTime) * time.Millisecond
	default:
		return false
	}
	return true
}

// endedNotice tells, in the status line, that a watched execution ended.
func (p *Pane) endedNotice(r *row) tea.Cmd {
	label, watched := p.watched[r.job.JobExecutionID]
	if !watched {
		return nil
	}
	if r.job.FileName != "" {
		// What the platform calls the file, once a poll listed it: the
		// label may be the id it was triggered by.
		label = r.label()
	}
	asked := p.stopped[r.job.JobExecutionID]
	delete(p.watched, r.job.JobExecutionID)
	delete(p.stopped, r.job.JobExecutionID)
	text := label + " ended: " + string(r.state)
	level := common.LevelNotice
	switch c := r.state.Canonical(); {
	case c == model.StateCanceled && asked:
		text += ", stopped as asked"
	case c == model.StateError || c == model.StateCanceled:
		level = common.LevelError
		if r.reason != "" {
			text += " — " + r.reason
		}
	}
	return func() tea.Msg { return common.StatusMsg{Level: level, Text: text} }
}

// togglePolling is 0: polling off, or back on at the interval it had.
func (p *Pane) togglePolling() tea.Cmd {
	if p.polling.every > 0 {
		p.polling.before = p.polling.every
		return p.setEvery(0)
	}
	if p.polling.before > 0 {
		return p.setEvery(p.polling.before)
	}
	return p.setEvery(defaultEvery)
}

// setEvery changes the interval and polls at once with it; 0 is off.
func (p *Pane) setEvery(every time.Duration) tea.Cmd {
	if every > 0 && every < intervals[0] {
		// The floor of every way to set it: :interval 1ms made the console
		// (one per SSH user) hammer the platform.
		every = intervals[0]
	}
	p.polling.every = max(0, every)
	p.polling.paused = false
	if every <= 0 {
		p.polling.ticks.Reset()
		return common.Info("job polling off (0 turns it back on)")
	}
	return tea.Batch(common.Info("polling jobs every "+shortDuration(every)), p.pollNow())
}

// stepEvery walks the interval ladder: faster (-1) or slower (+1).
func (p *Pane) stepEvery(dir int) tea.Cmd {
	if p.polling.every <= 0 {
		return p.setEvery(defaultEvery)
	}
	i := 0
	for i < len(intervals)-1 && intervals[i] < p.polling.every {
		i++
	}
	i = max(0, min(len(intervals)-1, i+dir))
	return p.setEvery(intervals[i])
}

func (p *Pane) togglePause() tea.Cmd {
	if p.polling.every <= 0 {
		return p.setEvery(defaultEvery)
	}
	p.polling.paused = !p.polling.paused
	if p.polling.paused {
		p.polling.ticks.Reset()
		return common.Info("job polling paused (P resumes)")
	}
	return tea.Batch(common.Info("job polling resumed"), p.pollNow())
}
