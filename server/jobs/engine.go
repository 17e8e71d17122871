package jobs

import (
	"cmp"
	"container/list"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// File is a file of the tree as the engine needs it: what it is and its
// configuration. Catalog implementations fill it from the server's store.
type File struct {
	ID              int64
	ConfigurationID int64
	UUID            string
	Path            string
	Name            string
	Kind            model.Kind
	Config          model.Configuration
}

// Catalog is the engine's read access to the file tree.
type Catalog interface {
	// File returns the file with the given file id, or an error wrapping ErrNotFound.
	File(ctx context.Context, id int64) (File, error)
	// Source resolves one of a configuration's links.
	Source(ctx context.Context, ref model.SourceRef) (File, error)
	// Dependents returns the files whose sources name the given file directly.
	Dependents(ctx context.Context, id int64) ([]File, error)
	// MayRead reports whether the named user may see and read a file.
	MayRead(ctx context.Context, user string, f File) (bool, error)
}

// Errors callers tell apart.
var (
	ErrNotFound   = errors.New("not found")
	ErrNotRunning = errors.New("no queued or running execution")
	ErrNotJob     = errors.New("not a job")
	ErrClosed     = errors.New("job engine closed")
)

// Reasons an execution was canceled, kept as its reason.
var (
	errStopped  = errors.New("stopped by request")
	errShutdown = errors.New("canceled: the server shut down")
)

// Config sets up an engine.
type Config struct {
	Catalog Catalog
	// FileRoots are the directories file-system and SQLite connections may
	// reach; a URL outside all of them is refused.
	FileRoots []string
	// MaxConcurrent bounds the executions running at once; 0 means runtime.NumCPU().
	MaxConcurrent int
	// MaxRunningPerUser bounds the executions of one user (schedules
	// aside) that run at once, so that one user's long runs leave slots to
	// the others: past it an execution waits QUEUED while later ones of
	// other users start. 0 means half of MaxConcurrent, at least 1.
	MaxRunningPerUser int
	// MaxRunsPerUser bounds the executions one user has queued or running
	// at once (schedules aside); past it an execution ends ERROR at once,
	// saying so. 0 means DefaultMaxRunsPerUser.
	MaxRunsPerUser int
	// MaxWorkbookBytes bounds what one workbook run's result may hold;
	// past it the run ends ERROR, saying so. 0 means DefaultMaxWorkbookBytes.
	MaxWorkbookBytes int64
	// MaxQueryTime bounds how long the SQL of one workbook run, or of an
	// import from a SQLite file, may run; past it the run ends ERROR,
	// saying so. 0 means DefaultMaxQueryTime.
	MaxQueryTime time.Duration
}

// Defaults of the caps in Config.
const (
	DefaultMaxRunsPerUser   = 16
	DefaultMaxWorkbookBytes = 64 << 20
	DefaultMaxQueryTime     = 10 * time.Minute
)

// Engine queues and runs executions and answers about them.
type Engine struct {
	db    *sql.DB
	file  dataFile // db's file, for the writers of staged rows
	cat   Catalog
	roots []string
	limit int // executions that may run at once
	// share is Config.MaxRunningPerUser: the slots one user may hold.
	share int
	// perUser, workbookBytes and queryTime are Config.MaxRunsPerUser,
	// MaxWorkbookBytes and MaxQueryTime.
	perUser       int
	workbookBytes int64
	queryTime     time.Duration

	// writes lets the engine's writers take SQLite's one write lock in turn.
	// Left to SQLite's busy handler, which polls with growing sleeps, one
	// writer can lose to the others again and again until its busy timeout
	// ends (a trigger failed with "database is locked" under load); Go's
	// mutex hands the lock to the writer that has waited longest.
	writes sync.Mutex

	mu      sync.Mutex
	active  map[int64]*run
	holding int            // executions holding one of the limit's slots
	held    map[string]int // slots held per user, schedules aside
	waiting *list.List     // of *run ready to run, in the order they became ready
	closed  bool
	wg      sync.WaitGroup
	stop    chan struct{} // closed by Close, ends schedules
}

// run is an execution that has not ended yet.
type run struct {
	id      int64
	file    File
	user    string
	trigger string
	vars    map[string]string
	created time.Time
	after   []*run // upstream executions of a sequence that must end well first
	// refused, when set, ends the execution ERROR without running it (a cap).
	refused error

	ctx    context.Context
	cancel context.CancelCauseFunc
	done   chan struct{}
	turn   chan struct{} // closed when the run is given a slot
	queued *list.Element // its place in Engine.waiting while it waits there

	mu       sync.Mutex
	state    model.JobState
	started  time.Time
	progress float64 // fraction of the work done, 0..1

	log runLog
}

// Open migrates the engine's tables, settles executions a previous process
// left unfinished (see recoverInterrupted), removes the temporary files of
// exports it cut off (removeExportLeftovers) and returns a ready engine.
func Open(ctx context.Context, db *sql.DB, cfg Config) (*Engine, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("jobs: no catalog")
	}
	roots, err := cleanRoots(cfg.FileRoots)
	if err != nil {
		return nil, err
	}
	limit := cfg.MaxConcurrent
	if limit <= 0 {
		limit = runtime.NumCPU()
	}
	if err := migrate(ctx, db); err != nil {
		return nil, err
	}
	file, err := readDataFile(ctx, db)
	if err != nil {
		return nil, err
	}
	e := &Engine{
		db: db, file: file, cat: cfg.Catalog, roots: roots, limit: limit, share: cmp.Or(cfg.MaxRunningPerUser, max(1, limit/2)),
		held:    make(map[string]int),
		perUser: cmp.Or(cfg.MaxRunsPerUser, DefaultMaxRunsPerUser), workbookBytes: cmp.Or(cfg.MaxWorkbookBytes, DefaultMaxWorkbookBytes),
		queryTime: cmp.Or(cfg.MaxQueryTime, DefaultMaxQueryTime),
		active:    make(map[int64]*run),
		waiting:   list.New(),
		stop:      make(chan struct{}),
	}
	if err := e.recoverInterrupted(ctx); err != nil {
		return nil, err
	}
	if err := e.removeExportLeftovers(); err != nil {
		return nil, err
	}
	return e, nil
}

// recoverInterrupted settles executions that were queued or running when a
// previous process ended without Close (a crash or a kill): a running one is
// marked ERROR, because its work was cut off and nobody asked for that; a
// queued one is marked CANCELED, because it never started. Staging tables of
// the cut-off runs are dropped, so no partial data survives.
func (e *Engine) recoverInterrupted(ctx context.Context) error {
	now := time.Now().UnixMilli()
	if _, err := e.db.ExecContext(ctx, `UPDATE job_executions SET state = ?, stopped_ms = ?,
		reason = 'interrupted: the server stopped while the job ran' WHERE state = ?`,
		model.StateError, now, model.StateRunning); err != nil {
		return fmt.Errorf("settle interrupted executions: %w", err)
	}
	if _, err := e.db.ExecContext(ctx, `UPDATE job_executions SET state = ?, stopped_ms = ?,
		reason = 'canceled: the server stopped before the job started' WHERE state = ?`,
		model.StateCanceled, now, model.StateQueued); err != nil {
		return fmt.Errorf("settle queued executions: %w", err)
	}
	return dropStagingTables(ctx, e.db)
}

// Close cancels every queued and running execution (they end CANCELED),
// ends schedules and waits for all of the engine's goroutines.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	close(e.stop)
	for _, r := range e.active {
		r.cancel(errShutdown)
	}
	e.mu.Unlock()
	e.wg.Wait()
	return nil
}

// Execution is what a trigger answers.
type Execution struct {
	ID      int64
	User    string
	Trigger string
}

// Trigger queues an execution of a job file.
func (e *Engine) Trigger(ctx context.Context, f File, user, trigger string, vars map[string]string) (Execution, error) {
	r, err := e.enqueue(ctx, f, user, trigger, vars, nil)
	if err != nil {
		return Execution{}, err
	}
	e.launch(r)
	return Execution{ID: r.id, User: user, Trigger: trigger}, nil
}

// enqueue records a QUEUED execution and registers it as active; launch starts it.
func (e *Engine) enqueue(ctx context.Context, f File, user, trigger string, vars map[string]string, after []*run) (*run, error) {
	if !f.Kind.Runnable() {
		return nil, fmt.Errorf("%s: %w", f.Path, ErrNotJob)
	}
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	created := time.Now()
	e.writes.Lock()
	res, err := e.db.ExecContext(ctx, `INSERT INTO job_executions
		(file_id, file_uuid, file_path, file_name, configuration_id, user_name, trigger_kind, state, created_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.UUID, f.Path, f.Name, f.ConfigurationID, user, trigger, model.StateQueued, created.UnixMilli())
	e.writes.Unlock()
	if err != nil {
		return nil, fmt.Errorf("queue %s: %w", f.Path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, fmt.Errorf("queue %s: %w", f.Path, err)
	}
	runCtx, cancel := context.WithCancelCause(context.Background())
	r := &run{
		id: id, file: f, user: user, trigger: trigger, vars: vars, created: created, after: after,
		ctx: runCtx, cancel: cancel, done: make(chan struct{}), turn: make(chan struct{}), state: model.StateQueued,
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		// Close ran between the insert and now; the row must not stay QUEUED.
		cancel(errShutdown)
		e.settle(r, model.StateCanceled, errShutdown.Error())
		return nil, ErrClosed
	}
	if trigger != TriggerScheduler && e.runsOf(user) >= e.perUser {
		r.refused = fmt.Errorf("refused: %s has %d executions queued or running, at most %d at once per user; wait for one to end", user, e.perUser, e.perUser)
	}
	e.active[id] = r
	e.wg.Add(1)
	e.mu.Unlock()
	r.logf("queued %s by %s (%s)", f.Path, user, trigger)
	if len(vars) > 0 {
		names := make([]string, 0, len(vars))
		for name := range vars {
			names = append(names, name)
		}
		slices.Sort(names)
		r.logf("variables: %s", strings.Join(names, ", "))
	}
	return r, nil
}

// launch starts an execution's goroutine. One without upstream steps takes
// its place in the queue first, so that executions start in the order they
// were triggered, whichever goroutine the scheduler happens to run first.
func (e *Engine) launch(r *run) {
	if len(r.after) == 0 && r.refused == nil {
		e.admit(r)
	}
	go e.execute(r)
}

// runsOf counts the user's executions queued or running; e.mu is held.
func (e *Engine) runsOf(user string) int {
	n := 0
	for _, r := range e.active {
		if r.user == user && r.trigger != TriggerScheduler && r.refused == nil {
			n++
		}
	}
	return n
}

// admit puts a ready run at the end of the queue and hands out the free slots.
func (e *Engine) admit(r *run) {
	e.mu.Lock()
	defer e.mu.Unlock()
	r.queued = e.waiting.PushBack(r)
	e.dispatch()
}

// release hands a finished run's slot on.
func (e *Engine) release(r *run) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.holding--
	if r.trigger != TriggerScheduler {
		if e.held[r.user]--; e.held[r.user] == 0 {
			delete(e.held, r.user)
		}
	}
	e.dispatch()
}

// dispatch gives the free slots to the runs that have waited longest, passing
// over those of a user who holds his share of slots already; e.mu is held.
func (e *Engine) dispatch() {
	for el := e.waiting.Front(); el != nil && e.holding < e.limit; {
		next := el.Next()
		r := el.Value.(*run)
		counted := r.trigger != TriggerScheduler
		if !counted || e.held[r.user] < e.share {
			e.waiting.Remove(el)
			r.queued = nil
			e.holding++
			if counted {
				e.held[r.user]++
			}
			close(r.turn)
		}
		el = next
	}
}

// waitSlot waits until the admitted run holds a slot, or until it is
// canceled; a canceled run leaves the queue, or passes on a slot it was
// given at the same moment.
func (e *Engine) waitSlot(r *run) error {
	select {
	case <-r.turn:
		return nil
	case <-r.ctx.Done():
	}
	e.mu.Lock()
	waited := r.queued != nil
	if waited {
		e.waiting.Remove(r.queued)
		r.queued = nil
	}
	e.mu.Unlock()
	if !waited {
		e.release(r)
	}
	return context.Cause(r.ctx)
}

// execute waits for its turn, does the work and records how it ended. The
// slot is held until the outcome (and the data) is recorded, so that at most
// the limit's number of executions run or publish at once.
func (e *Engine) execute(r *run) {
	defer e.wg.Done()
	if r.refused != nil {
		e.finish(r, result{}, r.refused)
	} else if err := e.waitToStart(r); err != nil {
		e.finish(r, result{}, err)
	} else {
		res, err := e.start(r)
		e.finish(r, res, err)
		e.release(r)
	}
	e.mu.Lock()
	delete(e.active, r.id)
	e.mu.Unlock()
	close(r.done)
}

// errUpstream marks a sequence step skipped because an upstream step did not end well.
type errUpstream struct{ id int64 }

func (u errUpstream) Error() string {
	return fmt.Sprintf("canceled: upstream execution %d did not complete", u.id)
}

// waitToStart waits for the run's upstream steps to end well and then for a
// slot; on success the run holds a slot, which the caller releases.
func (e *Engine) waitToStart(r *run) error {
	for _, up := range r.after {
		r.logf("waiting for upstream execution %d (%s)", up.id, up.file.Path)
		select {
		case <-up.done:
		case <-r.ctx.Done():
			return context.Cause(r.ctx)
		}
		if s := up.currentState(); s != model.StateCompleted && s != model.StateCompletedWithWarnings {
			return errUpstream{up.id}
		}
	}
	if len(r.after) > 0 {
		e.admit(r) // a sequence step queues once its upstream steps ended well
	}
	return e.waitSlot(r)
}

// start marks the run RUNNING and does its work.
func (e *Engine) start(r *run) (result, error) {
	if r.ctx.Err() != nil {
		return result{}, context.Cause(r.ctx)
	}
	started := time.Now()
	e.writes.Lock()
	_, err := e.db.ExecContext(r.ctx, `UPDATE job_executions SET state = ?, started_ms = ? WHERE id = ?`,
		model.StateRunning, started.UnixMilli(), r.id)
	e.writes.Unlock()
	if err != nil {
		return result{}, fmt.Errorf("start execution %d: %w", r.id, err)
	}
	r.mu.Lock()
	r.state, r.started = model.StateRunning, started
	r.mu.Unlock()
	r.logf("started %s", r.file.Path)
	return e.work(r)
}

func (r *run) currentState() model.JobState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

func (r *run) setProgress(fraction float64) {
	fraction = min(max(fraction, 0), 1)
	r.mu.Lock()
	if fraction > r.progress {
		r.progress = fraction
	}
	r.mu.Unlock()
}

// result is what a finished piece of work reports.
type result struct {
	counters map[string]int64
	success  int64
	failure  int64
	warnings bool
	staged   *stagedTable // data to publish, nil for work that stores none
}

// finish records the end of an execution: its data is published in the same
// transaction that records the final state, so a run is either COMPLETED with
// all its data or ends without any.
func (e *Engine) finish(r *run, res result, err error) {
	if err == nil && r.ctx.Err() == nil {
		state := model.StateCompleted
		if res.warnings {
			state = model.StateCompletedWithWarnings
		}
		if err = e.publish(r, state, res); err == nil {
			return
		}
	}
	if err != nil && r.ctx.Err() == nil {
		r.logf("ERROR %s", err)
	}
	if res.staged != nil {
		res.staged.drop()
	}
	var up errUpstream
	switch {
	case r.ctx.Err() != nil:
		e.settle(r, model.StateCanceled, context.Cause(r.ctx).Error())
	case errors.As(err, &up):
		e.settle(r, model.StateCanceled, err.Error())
	default:
		e.settle(r, model.StateError, err.Error())
	}
}

func (e *Engine) publish(r *run, state model.JobState, res result) error {
	counters, err := json.Marshal(res.counters)
	if err != nil {
		return fmt.Errorf("counters of execution %d: %w", r.id, err)
	}
	if res.staged != nil {
		if err := res.staged.flush(r.ctx); err != nil {
			return err
		}
	}
	e.writes.Lock()
	defer e.writes.Unlock()
	stopped := time.Now()
	r.logf("%s", endLine(state, res, ""))
	tx, err := e.db.BeginTx(r.ctx, nil)
	if err != nil {
		return fmt.Errorf("publish execution %d: %w", r.id, err)
	}
	defer tx.Rollback()
	if res.staged != nil {
		if err := res.staged.publish(r.ctx, tx, r.file.ID, stopped); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(r.ctx, `UPDATE job_executions SET state = ?, stopped_ms = ?, progress = 1,
		success_count = ?, failure_count = ?, counters = ?, log = ? WHERE id = ?`,
		state, stopped.UnixMilli(), res.success, res.failure, string(counters), r.log.text(), r.id); err != nil {
		return fmt.Errorf("publish execution %d: %w", r.id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("publish execution %d: %w", r.id, err)
	}
	r.mu.Lock()
	r.state, r.progress = state, 1
	r.mu.Unlock()
	return nil
}

// settle records an execution that ended without data. Its context may be
// canceled already, so it writes under a fresh one. A write that loses the
// race for the lock to a long writer (a large restore) is tried again until
// it lands, so a stopped execution does not show RUNNING until the next
// start; only a closing engine gives up, and the next Open settles the row.
func (e *Engine) settle(r *run, state model.JobState, reason string) {
	stopped := time.Now().UnixMilli()
	r.logf("%s", endLine(state, result{}, reason))
	logText := r.log.text()
	for wait := settleRetry; ; wait = min(2*wait, 2*time.Second) {
		err := e.settleOnce(r.id, state, stopped, reason, logText)
		if err == nil {
			break
		}
		log.Printf("record execution %d as %s: %v; trying again", r.id, state, err)
		select {
		case <-e.stop:
			return
		case <-time.After(wait):
		}
	}
	r.mu.Lock()
	r.state = state
	r.mu.Unlock()
}

// settleRetry is the first pause before settle tries a failed write again.
const settleRetry = 50 * time.Millisecond

func (e *Engine) settleOnce(id int64, state model.JobState, stopped int64, reason, logText string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e.writes.Lock()
	defer e.writes.Unlock()
	_, err := e.db.ExecContext(ctx, `UPDATE job_executions SET state = ?, stopped_ms = ?, reason = ?, log = ? WHERE id = ?`,
		state, stopped, reason, logText, id)
	return err
}

// Stop cancels every queued or running execution of a file and waits until
// they have ended. It answers ErrNotRunning when there was none.
func (e *Engine) Stop(ctx context.Context, fileID int64) error {
	return e.cancelWhere(ctx, fmt.Sprintf("file %d", fileID), func(r *run) bool { return r.file.ID == fileID })
}

// Kill cancels one queued or running execution and waits until it has
// ended (the job-kill of older platforms). It answers ErrNotRunning when
// the execution is not active.
func (e *Engine) Kill(ctx context.Context, executionID int64) error {
	return e.cancelWhere(ctx, fmt.Sprintf("execution %d", executionID), func(r *run) bool { return r.id == executionID })
}

// cancelWhere cancels the active runs that match and waits for them.
func (e *Engine) cancelWhere(ctx context.Context, what string, match func(*run) bool) error {
	e.mu.Lock()
	var stopping []*run
	for _, r := range e.active {
		if match(r) {
			r.cancel(errStopped)
			stopping = append(stopping, r)
		}
	}
	e.mu.Unlock()
	if len(stopping) == 0 {
		return ErrNotRunning
	}
	for _, r := range stopping {
		select {
		case <-r.done:
		case <-ctx.Done():
			return fmt.Errorf("stop %s: %w", what, ctx.Err())
		}
	}
	return nil
}

// TriggerScheduler is the trigger value of executions a schedule starts.
const TriggerScheduler = "SCHEDULER"

// Schedule triggers each file now and then every interval, as user, unless
// an execution of the file still waits in the queue (so a slow queue does not
// pile up). A run lasting longer than the interval overlaps the next one,
// which keeps list-running busy in a demo. It ends with Close.
func (e *Engine) Schedule(files []File, every time.Duration, user string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			for _, f := range files {
				if !e.hasQueued(f.ID) {
					// A failed trigger (the engine closing) is retried next tick or ends below.
					_, _ = e.Trigger(context.Background(), f, user, TriggerScheduler, nil)
				}
			}
			select {
			case <-tick.C:
			case <-e.stop:
				return
			}
		}
	}()
}

func (e *Engine) hasQueued(fileID int64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range e.active {
		if r.file.ID == fileID && r.currentState() == model.StateQueued {
			return true
		}
	}
	return false
}
