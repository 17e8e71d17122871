package jobs

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// TestPollMergesAsAFreshTableWould: a poll merged into the table the last
// poll left shows the same rows, in the same order, as a table that
// gathers and sorts everything again, whatever changed and however sorted.
func TestPollMergesAsAFreshTableWould(t *testing.T) {
	changes := []struct {
		name   string
		change func([]model.RunningJob) []model.RunningJob
	}{
		{"nothing", func(j []model.RunningJob) []model.RunningJob { return j }},
		{"an estimate", func(j []model.RunningJob) []model.RunningJob {
			j[7].EstimatedTime = 1
			return j
		}},
		{"a state", func(j []model.RunningJob) []model.RunningJob {
			j[4].JobStatus = model.StateCompleted
			return j
		}},
		{"a name", func(j []model.RunningJob) []model.RunningJob {
			j[30].JobName = "AAA"
			j[2].JobName = "zzz"
			return j
		}},
		{"one left", func(j []model.RunningJob) []model.RunningJob { return slices.Delete(j, 5, 6) }},
		{"one came", func(j []model.RunningJob) []model.RunningJob {
			return append(j, runningJob(500, "Job new", model.StateRunning, clockAt))
		}},
		{"the order", func(j []model.RunningJob) []model.RunningJob {
			slices.Reverse(j)
			return j
		}},
	}
	for by := range columnCount {
		for _, c := range changes {
			t.Run(columnNames[by]+"/"+c.name, func(t *testing.T) {
				now := clockAt
				merged := newTable()
				merged.sortBy = by
				merged.merge(manyJobs(40), now)
				merged.refresh()
				merged.merge(c.change(manyJobs(40)), now.Add(time.Second))
				merged.refresh()

				want := slices.Clone(merged.view)
				merged.regroup = true
				merged.rebuild()
				if got := merged.view; !slices.Equal(execIDs(want), execIDs(got)) {
					t.Errorf("view after the poll:\n%v\ngathered afresh:\n%v", execIDs(want), execIDs(got))
				}
			})
		}
	}
}

// lingering returns the ids of the rows that left the list, sorted.
func lingering(t *table) []int64 {
	var ids []int64
	for _, r := range t.rows {
		if r.gone() {
			ids = append(ids, r.job.JobExecutionID)
		}
	}
	slices.Sort(ids)
	return ids
}

func execIDs(rows []*row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.job.JobExecutionID
	}
	return out
}

// TestTaskComparedPollMergesAsAFreshTableWould: a poll answer that comes
// with the changes its task found (see poll) leaves the view a table
// gathered and sorted afresh would show, sorted by any column or
// filtered, with the cursor on the execution it was on, and the same
// counts; changes found against an answer the table no longer holds are
// not trusted: the answer is merged by id.
func TestTaskComparedPollMergesAsAFreshTableWould(t *testing.T) {
	edit := func(f func([]model.RunningJob)) func([]model.RunningJob) []model.RunningJob {
		return func(j []model.RunningJob) []model.RunningJob { f(j); return j }
	}
	changes := []struct {
		name   string
		change func([]model.RunningJob) []model.RunningJob
	}{
		{"an estimate", edit(func(j []model.RunningJob) { j[7].EstimatedTime = 1 })},
		{"a state", edit(func(j []model.RunningJob) { j[4].JobStatus = model.StateCompleted })},
		{"queued to running", edit(func(j []model.RunningJob) { j[9].JobStatus = model.StateRunning })},
		{"names move", edit(func(j []model.RunningJob) { j[30].JobName, j[2].JobName = "AAA", "zzz" })},
		{"the cursor's execution moves", edit(func(j []model.RunningJob) { j[19].JobName = "zzz" })},
		{"one now matches the filter", edit(func(j []model.RunningJob) { j[35].JobName = "Job 001x" })},
		{"one no longer matches", edit(func(j []model.RunningJob) { j[12].JobName = "Other" })},
		{"every estimate", edit(func(j []model.RunningJob) {
			for i := range j {
				j[i].EstimatedTime += 5
			}
		})},
		{"the first left", func(j []model.RunningJob) []model.RunningJob { return j[1:] }},
		{"one in the middle left", func(j []model.RunningJob) []model.RunningJob { return slices.Delete(j, 22, 23) }},
		{"the last left", func(j []model.RunningJob) []model.RunningJob { return j[:len(j)-1] }},
		{"the cursor's execution left", func(j []model.RunningJob) []model.RunningJob { return slices.Delete(j, 19, 20) }},
		{"several left", func(j []model.RunningJob) []model.RunningJob { return slices.Delete(slices.Delete(j, 30, 34), 3, 5) }},
		{"one came first", func(j []model.RunningJob) []model.RunningJob {
			return slices.Insert(j, 0, runningJob(100, "Job 0015b", model.StateRunning, clockAt))
		}},
		{"one came in the middle", func(j []model.RunningJob) []model.RunningJob {
			return slices.Insert(j, 20, runningJob(100, "AAA", model.StateQueued, clockAt.Add(-time.Hour)))
		}},
		{"one came last", func(j []model.RunningJob) []model.RunningJob {
			return append(j, runningJob(100, "Job 0010", model.StateRunning, clockAt))
		}},
		{"several came", func(j []model.RunningJob) []model.RunningJob {
			j = slices.Insert(j, 30, runningJob(100, "Job 001y", model.StateQueued, clockAt), runningJob(101, "zzz", model.StateRunning, clockAt))
			return slices.Insert(j, 2, runningJob(102, "Job 00001", model.StateRunning, clockAt.Add(time.Minute)))
		}},
		{"came, left and changed together", func(j []model.RunningJob) []model.RunningJob {
			j[5].JobStatus, j[27].JobName = model.StateRunning, "AAA"
			j = slices.Delete(j, 10, 12)
			return slices.Insert(slices.Insert(j, 25, runningJob(100, "Job 0013", model.StateQueued, clockAt)), 0, runningJob(101, "Job 001z", model.StateRunning, clockAt))
		}},
		{"one replaced in place", func(j []model.RunningJob) []model.RunningJob {
			j[15] = runningJob(100, "Job 0015", model.StateRunning, clockAt)
			return j
		}},
	}
	type view struct {
		name   string
		sortBy column
		filter string
	}
	var views []view
	for by := range columnCount {
		views = append(views, view{columnNames[by], by, ""})
	}
	views = append(views, view{"filtered", colJob, "job 001"})
	for _, v := range views {
		for _, c := range changes {
			for _, stale := range []bool{false, true} {
				name := v.name + "/" + c.name
				if stale {
					name += "/against an older answer"
				}
				t.Run(name, func(t *testing.T) {
					now := clockAt
					p := newTestPane(nil, 120, 40, func() time.Time { return now })
					p.table.sortBy, p.table.filter = v.sortBy, v.filter
					p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: manyJobs(40)}))
					p.cursor = p.table.indexOf(20, 0)
					base := p.table.answer
					if stale {
						// An answer taken since the poll was sent: the task
						// compared with the one before it.
						older := manyJobs(40)
						older[25].JobName = "taken since"
						p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: older}))
					}
					answer := c.change(manyJobs(40))
					now = now.Add(time.Second)
					// merged takes the same polls, the last merged by id.
					merged := newTestPane(nil, 120, 40, func() time.Time { return now })
					merged.table.sortBy, merged.table.filter = v.sortBy, v.filter
					merged.Update(indexed(pollMsg{ticket: merged.polling.reads.Next(), jobs: base}))
					if stale {
						merged.Update(indexed(pollMsg{ticket: merged.polling.reads.Next(), jobs: p.table.answer}))
					}
					merged.Update(indexed(pollMsg{ticket: merged.polling.reads.Next(), jobs: answer}))
					p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: answer, base: base,
						changes: common.Diff(base, answer, execID, replaceLimit)}))
					if got, want := execIDs(p.table.view), execIDs(merged.table.view); !slices.Equal(got, want) {
						t.Errorf("view after the poll:\n%v\nmerged by id:\n%v", got, want)
					}
					if got, want := execIDs(p.table.listed), execIDs(merged.table.listed); !slices.Equal(got, want) {
						t.Errorf("listed after the poll:\n%v\nmerged by id:\n%v", got, want)
					}
					if got, want := lingering(p.table), lingering(merged.table); !slices.Equal(got, want) || p.table.lingered != merged.table.lingered {
						t.Errorf("lingering after the poll: %v (%d), merged by id: %v (%d)", got, p.table.lingered, want, merged.table.lingered)
					}
					if p.table.running != merged.table.running || p.table.queued != merged.table.queued {
						t.Errorf("%d running, %d queued; merged by id %d, %d", p.table.running, p.table.queued, merged.table.running, merged.table.queued)
					}

					got := execIDs(p.table.view)
					p.table.regroup = true
					p.table.rebuild()
					if want := execIDs(p.table.view); !slices.Equal(got, want) {
						t.Errorf("view after the poll:\n%v\ngathered afresh:\n%v", got, want)
					}
					fresh := newTable()
					fresh.merge(answer, now)
					if p.table.running != fresh.running || p.table.queued != fresh.queued {
						t.Errorf("%d running, %d queued; afresh %d, %d", p.table.running, p.table.queued, fresh.running, fresh.queued)
					}
					if r := p.selected(); p.table.indexOf(20, 0) >= 0 && (r == nil || r.job.JobExecutionID != 20) {
						t.Errorf("the cursor is on %v, want execution 20", r)
					}
				})
			}
		}
	}
}

// TestLingeringRowGoesInPlace: an execution that left the list lingers,
// and goes once lingerFor passed, while the polls in between list the
// same executions and are taken in place.
func TestLingeringRowGoesInPlace(t *testing.T) {
	now := clockAt
	p := newTestPane(nil, 120, 40, func() time.Time { return now })
	poll := func(jobs []model.RunningJob) {
		base := p.table.answer
		p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: jobs, base: base, changes: common.Diff(base, jobs, execID, replaceLimit)}))
	}
	poll(manyJobs(10))
	poll(slices.Delete(manyJobs(10), 3, 4))
	if len(p.table.view) != 10 || p.table.lingered != 1 {
		t.Fatalf("%d rows, %d lingering after one left; want 10, 1", len(p.table.view), p.table.lingered)
	}
	now = now.Add(lingerFor / 2)
	poll(slices.Delete(manyJobs(10), 3, 4))
	if len(p.table.view) != 10 {
		t.Fatalf("%d rows while it lingers, want 10", len(p.table.view))
	}
	now = now.Add(lingerFor)
	poll(slices.Delete(manyJobs(10), 3, 4))
	if got := execIDs(p.table.view); len(got) != 9 || slices.Contains(got, 4) || p.table.lingered != 0 {
		t.Errorf("after lingerFor: %v, %d lingering; want 9 rows, execution 4 gone", got, p.table.lingered)
	}
}

// TestStatusRoundMovesAsAFreshTableWould: sorted by a column a status
// changes, a status round moves the rows it changed to where a table
// gathered and sorted afresh would show them, filtered or not, with the
// cursor on the execution it was on.
func TestStatusRoundMovesAsAFreshTableWould(t *testing.T) {
	for _, by := range []column{colState, colProgress, colEstimate} {
		for _, filter := range []string{"", "job 00", "completed"} {
			for _, ends := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/filter %q/lingering ends read %v", columnNames[by], filter, ends), func(t *testing.T) {
					now := clockAt
					p := newTestPane(nil, 120, 40, func() time.Time { return now })
					p.table.sortBy, p.table.filter = by, filter
					p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: manyJobs(40)}))
					// Two executions leave the list and linger, their end unread.
					now = now.Add(time.Second)
					p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: slices.Delete(manyJobs(40), 4, 6)}))
					p.cursor = p.table.indexOf(20, 0)
					p.status.inFlight = true
					var results []statusResult
					for i, id := range []int64{20, 3, 33, 12, 8} {
						results = append(results, running(id, float64(90-20*i), time.Duration(i+1)*time.Minute))
					}
					if ends {
						results = append(results, statusResult{execID: 5, ended: model.StateCompleted},
							statusResult{execID: 6, ended: model.StateError})
					}
					p.Update(jobStatusMsg{ticket: p.status.reads.Next(), results: results})

					got := execIDs(p.table.view)
					p.table.regroup = true
					p.table.rebuild()
					if want := execIDs(p.table.view); !slices.Equal(got, want) {
						t.Errorf("view after the status round:\n%v\ngathered afresh:\n%v", got, want)
					}
					if r := p.selected(); p.table.indexOf(20, 0) >= 0 && (r == nil || r.job.JobExecutionID != 20) {
						t.Errorf("the cursor is on %v, want execution 20", r)
					}
				})
			}
		}
	}
}

// TestReshapedPollsMergeAsByID: polls in which executions leave, linger,
// come back, come new and go after lingerFor, each taken with the changes
// its task found, leave the table a merge by id of the same polls leaves.
func TestReshapedPollsMergeAsByID(t *testing.T) {
	now := clockAt
	p := newTestPane(nil, 120, 40, func() time.Time { return now })
	merged := newTestPane(nil, 120, 40, func() time.Time { return now })
	without := func(ids ...int64) []model.RunningJob {
		return slices.DeleteFunc(manyJobs(10), func(j model.RunningJob) bool { return slices.Contains(ids, j.JobExecutionID) })
	}
	polls := []struct {
		name  string
		jobs  []model.RunningJob
		after time.Duration
	}{
		{"all", manyJobs(10), 0},
		{"one left", without(4), time.Second},
		{"it came back", manyJobs(10), time.Second},
		{"two left", without(2, 9), time.Second},
		{"one new", append(without(2, 9), runningJob(11, "Job new", model.StateQueued, clockAt)), time.Second},
		{"past lingerFor", append(without(2, 9), runningJob(11, "Job new", model.StateRunning, clockAt)), lingerFor + time.Second},
	}
	for _, poll := range polls {
		now = now.Add(poll.after)
		base := p.table.answer
		p.Update(indexed(pollMsg{ticket: p.polling.reads.Next(), jobs: poll.jobs, base: base, changes: common.Diff(base, poll.jobs, execID, replaceLimit)}))
		merged.Update(indexed(pollMsg{ticket: merged.polling.reads.Next(), jobs: poll.jobs}))
		if got, want := execIDs(p.table.view), execIDs(merged.table.view); !slices.Equal(got, want) {
			t.Errorf("%s: view %v, merged by id %v", poll.name, got, want)
		}
		if got, want := lingering(p.table), lingering(merged.table); !slices.Equal(got, want) || p.table.lingered != merged.table.lingered {
			t.Errorf("%s: lingering %v (%d), merged by id %v (%d)", poll.name, got, p.table.lingered, want, merged.table.lingered)
		}
		if p.table.running != merged.table.running || p.table.queued != merged.table.queued || len(p.table.rows) != len(merged.table.rows) {
			t.Errorf("%s: %d running, %d queued, %d rows; merged by id %d, %d, %d", poll.name, p.table.running, p.table.queued,
				len(p.table.rows), merged.table.running, merged.table.queued, len(merged.table.rows))
		}
	}
}
