package jobs

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// lingerFor is how long an execution that left list-running stays on the
// dashboard, dimmed, with its final state, so that a quick look misses nothing.
const lingerFor = 30 * time.Second

// row is one execution on the dashboard.
type row struct {
	// job, state, left and seen first: a poll reads them on every row.
	job   model.RunningJob
	state model.JobState
	// left is when the execution was last missing from list-running; zero
	// while it is listed. final says its end state has been read.
	left  time.Time
	seen  int // the poll generation that last listed it, as a merge by id counts
	final bool

	ref  api.Ref // what status reads address: the file id, or the triggered path
	user string
	// reason is why an execution that ended in error or was canceled did,
	// as its status said.
	reason string

	progress    float64
	hasProgress bool
	estimate    time.Duration
	hasEstimate bool // the estimate came from the status, not from list-running
	// superseded says the file's status speaks of a newer execution, so
	// this one's progress can no longer be read.
	superseded bool

	haystack string   // lower-case text the filter searches
	indexed  indexKey // what haystack was built from
	version  int      // bumped on every change, keys the rendering cache

	line    string
	lineKey lineKey
}

type lineKey struct {
	path           int // the width of the path column, 0 when it is hidden
	version, width int
	elapsed        int64
	marked         bool
	styles         uint64 // the Generation of the styles it was drawn with
}

// indexKey is the text of a row the filter searches.
type indexKey struct {
	job, file, user string
	state           model.JobState
}

// touch marks the row changed; the filter text is rebuilt only when the
// text it searches changed, since a poll changes most rows' estimates only.
// It reports whether that text changed.
func (r *row) touch() bool {
	r.version++
	k := indexKey{job: r.job.JobName, file: r.job.FileName, user: r.user, state: r.state}
	if k == r.indexed && r.haystack != "" {
		return false
	}
	r.indexed = k
	r.haystack = strings.ToLower(strings.Join([]string{k.job, k.file, string(k.state), k.user,
		strconv.FormatInt(r.job.JobExecutionID, 10)}, "\x00"))
	return true
}

func (r *row) gone() bool { return !r.left.IsZero() }

// elapsed is how long the execution has run, 0 when it has not started.
func (r *row) elapsed(now time.Time) time.Duration {
	start := r.job.StartTime.Time()
	if start.IsZero() || now.Before(start) {
		return 0
	}
	return now.Sub(start)
}

// column is a sortable column of the dashboard.
type column int

const (
	colExec column = iota
	colJob
	colFile
	colState
	colProgress
	colElapsed
	colEstimate
	colUser
	columnCount
)

var columnNames = [columnCount]string{"exec", "job", "file", "state", "progress", "elapsed", "estimate", "user"}

// table holds every execution by id and the filtered, sorted view of them.
type table struct {
	rows map[int64]*row
	view []*row
	// answer is the last list-running answer merged. A poll hands it to
	// its task, which compares the next answer with it off the UI
	// goroutine: nothing changes this slice or its elements once taken.
	answer []model.RunningJob
	// listed is the rows in the order of the last list-running answer, and
	// unlisted the other rows (lingering, or started here and not listed
	// yet): a poll that lists the same executions in the same order, as
	// most do, is merged by position, without a lookup or a walk of rows.
	listed, unlisted []*row
	// changed is the rows the last merge changed: only they can have
	// moved in the view.
	changed []*row
	// startedBy names who started the executions this console started
	// (list-running names no user): the trigger answer says, and a
	// sequential trigger runs as the user who asked.
	startedBy map[int64]string

	sortBy  column
	reverse bool
	filter  string
	// regroup says the view must be collected again from rows: an
	// execution came or went, the filter changed, or the text it searches
	// changed outside a poll.
	regroup  bool
	pollGen  int
	running  int
	queued   int
	lingered int
}

func newTable() *table { return &table{rows: map[int64]*row{}, startedBy: map[int64]string{}} }

func execID(j *model.RunningJob) int64 { return j.JobExecutionID }

// take brings the table and its view up to date with a list-running
// answer and how it differs from t.answer (common.Changes, found by the
// poll's task). When the answer keeps the order of the one before but for
// a few executions that came or left, as a poll mostly does, only those,
// the changed rows and the rows that start or end their linger are
// touched, each placed by binary search: O(changes × log rows) compares.
// Taking a row out of listed or putting one in moves the pointers after
// it, O(rows) in the worst case, but a memmove (some 50 µs for 100,000
// rows). Otherwise the answer is merged by id and the view refreshed.
func (t *table) take(jobs []model.RunningJob, changes common.Changes, now time.Time) {
	defer func() { t.answer = jobs }()
	if !changes.Ordered || t.regroup || len(t.listed)+len(changes.Inserted)-len(changes.Removed) != len(jobs) ||
		len(changes.Changed)+len(changes.Inserted)+len(changes.Removed) > replaceLimit {
		t.merge(jobs, now)
		t.refresh()
		return
	}
	needle := common.ParseNeedle(t.filter)
	move := func(r *row, change func()) { t.move(r, needle, change) }
	for _, i := range slices.Backward(changes.Removed) {
		// It left the list: linger, below, starts its linger.
		r := t.listed[i]
		t.listed = slices.Delete(t.listed, i, i+1)
		t.count(r, -1)
		t.unlisted = append(t.unlisted, r)
	}
	for _, i := range changes.Inserted {
		j := &jobs[i]
		r := t.rows[j.JobExecutionID]
		if r == nil {
			r = &row{ref: api.FileID(j.FileID), user: t.startedBy[j.JobExecutionID], seen: t.pollGen}
			t.rows[j.JobExecutionID] = r
		} else if k := slices.Index(t.unlisted, r); k >= 0 {
			t.unlisted = slices.Delete(t.unlisted, k, k+1) // lingering, or started here
		}
		t.listed = slices.Insert(t.listed, i, r)
		if r.job != *j || r.state != j.JobStatus || r.gone() || r.version == 0 {
			move(r, func() { r.takeListing(j) })
		}
		t.count(r, 1)
	}
	for _, i := range changes.Changed {
		r := t.listed[i]
		move(r, func() {
			t.count(r, -1)
			r.takeListing(&jobs[i])
			t.count(r, 1)
		})
	}
	t.linger(now, move, func(r *row) {
		if at := common.FindSorted(t.view, r, t.compare); at >= 0 {
			t.view = slices.Delete(t.view, at, at+1)
		}
	})
}

// move applies a change to a row and moves the row in the view to where
// it now belongs, or out of it when the filter (needle) no longer matches:
// found by binary search before the change, placed by one after it.
func (t *table) move(r *row, needle common.Needle, change func()) {
	from := common.FindSorted(t.view, r, t.compare)
	change()
	t.view = common.PlaceSorted(t.view, r, from, needle.Match(r.haystack), t.compare)
}

// count adds a listed row to the running or queued count, or takes it off.
func (t *table) count(r *row, delta int) {
	if isQueued(r.state) {
		t.queued += delta
	} else {
		t.running += delta
	}
}

// takeListing takes what list-running says of the row's execution.
func (r *row) takeListing(j *model.RunningJob) {
	if r.ref.IsZero() || r.ref.IsPath() {
		r.ref = api.FileID(j.FileID)
	}
	r.job, r.state, r.left, r.final = *j, j.JobStatus, time.Time{}, false
	if !r.hasEstimate && j.EstimatedTime > 0 {
		r.estimate = time.Duration(j.EstimatedTime) * time.Millisecond
	}
	r.touch()
}

// merge takes one list-running answer: listed executions are added or
// updated, ones that left start to linger, and lingering ones older than
// lingerFor go.
func (t *table) merge(jobs []model.RunningJob, now time.Time) {
	t.pollGen++
	t.running, t.queued = 0, 0
	t.changed = t.changed[:0]
	inPlace := len(jobs) == len(t.listed)
	var listed []*row
	for i := range jobs {
		j := &jobs[i]
		var r *row
		if inPlace && t.listed[i].job.JobExecutionID == j.JobExecutionID {
			r = t.listed[i]
		} else {
			if inPlace {
				inPlace = false
				listed = append(make([]*row, 0, len(jobs)), t.listed[:i]...)
			}
			r = t.rows[j.JobExecutionID]
			if r == nil {
				r = &row{ref: api.FileID(j.FileID), user: t.startedBy[j.JobExecutionID]}
				t.rows[j.JobExecutionID] = r
				t.regroup = true
			}
			listed = append(listed, r)
		}
		r.seen = t.pollGen
		if r.job != *j || r.state != j.JobStatus || r.gone() || r.version == 0 {
			r.takeListing(j)
			t.changed = append(t.changed, r)
		}
		t.count(r, 1)
	}
	if !inPlace {
		t.listed = listed
		t.unlisted = t.unlisted[:0]
		for _, r := range t.rows {
			if r.seen != t.pollGen {
				t.unlisted = append(t.unlisted, r)
			}
		}
	}
	t.linger(now, func(r *row, change func()) {
		change()
		t.changed = append(t.changed, r)
	}, func(*row) { t.regroup = true })
}

// linger starts the linger of the unlisted rows that were listed until
// now, and drops the rows that lingered lingerFor. move applies a change
// to a row and keeps the view in step; drop takes a dropped row off it.
func (t *table) linger(now time.Time, move func(r *row, change func()), drop func(*row)) {
	t.lingered = 0
	kept := t.unlisted[:0]
	for _, r := range t.unlisted {
		if !r.gone() {
			move(r, func() {
				r.left = now
				r.progress, r.hasProgress, r.estimate, r.hasEstimate = 0, false, 0, false
				r.touch()
			})
		}
		if now.Sub(r.left) > lingerFor {
			delete(t.rows, r.job.JobExecutionID)
			delete(t.startedBy, r.job.JobExecutionID)
			drop(r)
			continue
		}
		kept = append(kept, r)
		t.lingered++
	}
	clear(t.unlisted[len(kept):])
	t.unlisted = kept
}

// isQueued is Canonical() == StateQueued without upper-casing the two
// states list-running sends for nearly every execution.
func isQueued(s model.JobState) bool {
	switch s {
	case model.StateQueued:
		return true
	case model.StateRunning:
		return false
	}
	return s.Canonical() == model.StateQueued
}

// add puts an execution the console itself started on the table before a
// poll lists it, so that it shows (and is watched) at once.
func (t *table) add(r *row) {
	t.noteStarter(r.job.JobExecutionID, r.user)
	if _, ok := t.rows[r.job.JobExecutionID]; ok {
		return
	}
	r.seen = t.pollGen
	r.touch()
	t.rows[r.job.JobExecutionID] = r
	t.unlisted = append(t.unlisted, r)
	t.regroup = true
}

// noteStarter records who started an execution this console started, on
// its row too when a poll listed it first.
func (t *table) noteStarter(execID int64, user string) {
	t.startedBy[execID] = user
	if r := t.rows[execID]; r != nil && r.user == "" {
		r.user = user
		t.touchedOutsidePoll(r)
	}
}

// touchedOutsidePoll marks a row changed by other than a poll (its
// starter or status read): when the text the filter searches or the
// user it sorts by changed, the next poll collects the view again, where
// a poll's changes alone would move only the rows it changed.
func (t *table) touchedOutsidePoll(r *row) {
	if r.touch() {
		t.regroup = true
	}
}

// replaceLimit is how many changed, come or left rows a poll moves one by
// one; past it, sorting the whole view again is cheaper.
const replaceLimit = 64

// refresh brings the view up to date after a merge. When the same
// executions are listed and no filter applies, only the rows the merge
// changed can have moved: each is checked against its neighbours and, when
// out of place, moved by binary search.
func (t *table) refresh() {
	if t.regroup || t.filter != "" || len(t.changed) > replaceLimit {
		t.rebuild()
		return
	}
	for _, r := range t.changed {
		i := slices.Index(t.view, r)
		if i < 0 || t.inPlace(i) {
			continue
		}
		t.view = slices.Delete(t.view, i, i+1)
		at, _ := slices.BinarySearchFunc(t.view, r, t.compare)
		t.view = slices.Insert(t.view, at, r)
	}
}

// inPlace says whether the view's row i is in order with its neighbours.
func (t *table) inPlace(i int) bool {
	return (i == 0 || t.compare(t.view[i-1], t.view[i]) < 0) &&
		(i == len(t.view)-1 || t.compare(t.view[i], t.view[i+1]) < 0)
}

// compare orders rows by the sort column, then by execution id, so that
// no two rows are equal.
func (t *table) compare(a, b *row) int {
	c := compareRows(a, b, t.sortBy)
	if c == 0 {
		c = cmp.Compare(a.job.JobExecutionID, b.job.JobExecutionID)
	}
	if t.reverse {
		return -c
	}
	return c
}

// rebuild recomputes the view: filter, then sort. Without a filter and
// with the same executions, the view is only sorted again, which is cheap
// on the nearly sorted order the last poll left.
func (t *table) rebuild() {
	if t.regroup || t.filter != "" {
		t.regroup = false
		t.view = t.view[:0]
		needle := common.ParseNeedle(t.filter)
		for _, r := range t.rows {
			if needle.Match(r.haystack) {
				t.view = append(t.view, r)
			}
		}
	}
	slices.SortFunc(t.view, t.compare)
}

func compareRows(a, b *row, by column) int {
	switch by {
	case colJob:
		return strings.Compare(a.job.JobName, b.job.JobName)
	case colFile:
		return strings.Compare(a.job.FileName, b.job.FileName)
	case colState:
		return strings.Compare(string(a.state), string(b.state))
	case colProgress:
		return cmp.Compare(a.progress, b.progress)
	case colElapsed:
		// An earlier start is a longer elapsed time.
		return cmp.Compare(b.job.StartTime, a.job.StartTime)
	case colEstimate:
		return cmp.Compare(a.estimate, b.estimate)
	case colUser:
		return strings.Compare(a.user, b.user)
	}
	return cmp.Compare(a.job.JobExecutionID, b.job.JobExecutionID)
}

// indexOf returns the view index of an execution, -1 when it is not
// shown; hint is where it was, where a poll leaves it or a few rows away.
func (t *table) indexOf(execID int64, hint int) int {
	return common.IndexNear(len(t.view), hint, func(i int) bool { return t.view[i].job.JobExecutionID == execID })
}
