package jobs

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

func manyJobs(n int) []model.RunningJob {
	jobs := make([]model.RunningJob, n)
	for i := range jobs {
		state := model.StateRunning
		if i%3 == 0 {
			state = model.StateQueued
		}
		jobs[i] = runningJob(int64(i+1), fmt.Sprintf("Job %05d", i), state, clockAt.Add(-time.Duration(i)*time.Second))
	}
	return jobs
}

// paneWith is a 120×40 dashboard over n executions, progress known for the
// visible ones, as after a poll and its status round.
func paneWith(tb testing.TB, n int) *Pane {
	p := newTestPane(nil, 120, 40, func() time.Time { return clockAt })
	p.Init()
	p.Update(polled(p, manyJobs(n)))
	var results []statusResult
	first, last := p.visibleRange()
	for _, r := range p.table.view[first:last] {
		results = append(results, running(r.job.JobExecutionID, 42, time.Minute))
	}
	p.Update(jobStatusMsg{ticket: p.status.reads.Latest(), results: results})
	return p
}

// View renders only the visible rows, from a cache: 10,000 executions cost
// what 100 do. Compare BenchmarkView/100 and /10000.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := paneWith(b, n)
			b.ReportAllocs()
			for b.Loop() {
				_ = p.View()
			}
		})
	}
}

// BenchmarkMergePoll takes one 10,000-entry list-running answer into a
// dashboard that already shows the same executions, every row changed,
// with no changes found by the poll's task: the merge by id on the UI
// goroutine (filter, sort, selection) that a poll falls back to.
func BenchmarkMergePoll(b *testing.B) {
	jobs := manyJobs(10_000)
	p := paneWith(b, 10_000)
	p.status.inFlight = true // measure the merge, not the status round it starts
	b.ReportAllocs()
	for b.Loop() {
		for i := range jobs {
			jobs[i].EstimatedTime++ // every running entry changes a little, as in a real poll
		}
		p.Update(polled(p, jobs))
	}
}

// allocatedPerView is what one View of p allocates, averaged over many:
// objects and bytes. Unlike its time, this does not depend on how busy
// the machine is.
func allocatedPerView(p *Pane) (objects, bytes uint64) {
	const views = 50
	_ = p.View() // the row cache filled, as in the steady state
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range views {
		_ = p.View()
	}
	runtime.ReadMemStats(&after)
	return (after.Mallocs - before.Mallocs) / views, (after.TotalAlloc - before.TotalAlloc) / views
}

// View's work does not grow with the list (the issue's "10,000 executions
// cost what 100 do"), checked without a clock: a View over 10,000
// executions allocates no more than one over 100, neither more objects nor
// more bytes, so it builds nothing per execution. BenchmarkView gives the
// times.
func TestViewCostDoesNotGrowWithTheList(t *testing.T) {
	smallObjects, smallBytes := allocatedPerView(paneWith(t, 100))
	largeObjects, largeBytes := allocatedPerView(paneWith(t, 10_000))
	t.Logf("View allocates %d objects / %d B over 100 executions, %d / %d B over 10,000",
		smallObjects, smallBytes, largeObjects, largeBytes)
	// A few objects of slack: a goroutine of the runtime may allocate while
	// the views are counted.
	if largeObjects > smallObjects+smallObjects/10+2 || largeBytes > smallBytes+smallBytes/10+1024 {
		t.Errorf("View over 10,000 executions allocates %d objects / %d B, over 100 %d / %d B: it grows with the list",
			largeObjects, largeBytes, smallObjects, smallBytes)
	}
}

// BenchmarkRefresh is what a poll costs the UI goroutine: Update taking
// a list-running answer with the changes the poll's task found
// (BenchmarkRefreshDiff), then View. In "changed" one execution changed;
// in "added+removed" one execution left the list and another came; in
// "history-open" one changed while a job's history is open, which the
// poll follows. Compare 100 and 100000 (the growth), and both with ui/common's
// BenchmarkTableReference. Two answers take turns, each compared with the
// other, as consecutive polls' are.
func BenchmarkRefresh(b *testing.B) {
	cases := []struct {
		name    string
		change  func(answer []model.RunningJob) []model.RunningJob
		history bool
	}{
		{"changed", func(a []model.RunningJob) []model.RunningJob {
			a[len(a)/2].EstimatedTime++
			return a
		}, false},
		{"added+removed", func(a []model.RunningJob) []model.RunningJob {
			added := runningJob(int64(len(a)+1), "Job new", model.StateRunning, clockAt)
			return slices.Insert(slices.Delete(a, len(a)/3, len(a)/3+1), 2*len(a)/3, added)
		}, false},
		{"history-open", func(a []model.RunningJob) []model.RunningJob {
			a[len(a)/2].EstimatedTime++
			return a
		}, true},
	}
	for _, c := range cases {
		for _, n := range []int{100, 100_000} {
			b.Run(fmt.Sprintf("%s/jobs=%d", c.name, n), func(b *testing.B) {
				p := paneWith(b, n)
				p.status.inFlight = true // measure the merge, not the status round it starts
				answers := [2][]model.RunningJob{p.table.answer, c.change(manyJobs(n))}
				changes := [2]common.Changes{
					common.Diff(answers[1], answers[0], execID, replaceLimit),
					common.Diff(answers[0], answers[1], execID, replaceLimit),
				}
				indexes := [2]*pollIndex{indexPoll(answers[0]), indexPoll(answers[1])}
				if c.history {
					openHistoryOf(p, answers[0][0])
				}
				p.View()
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					i = 1 - i
					p.Update(pollMsg{ticket: p.polling.reads.Latest(), jobs: answers[i], base: answers[1-i], changes: changes[i], index: indexes[i]})
					_ = p.View()
				}
			})
		}
	}
}

// openHistoryOf opens the history of job's configuration, a page of 20 of
// its runs, job the one running.
func openHistoryOf(p *Pane, job model.RunningJob) {
	entries := make([]model.HistoryEntry, 20)
	for i := range entries {
		entries[i] = model.HistoryEntry{ID: job.JobExecutionID - int64(i), JobStatus: model.StateCompleted}
	}
	entries[0].JobStatus = job.JobStatus
	p.Update(historyRequest{configID: job.DapJobConfigurationID, label: job.FileName})
	p.Update(historyMsg{ticket: p.history.reads.Latest(), configID: job.DapJobConfigurationID, total: len(entries), entries: entries})
}

// BenchmarkRefreshDiff is what a poll costs off the UI goroutine: the
// poll's task comparing a list-running answer with the one before,
// O(rows), beside the decoding of that answer.
func BenchmarkRefreshDiff(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			base, answer := manyJobs(n), manyJobs(n)
			answer[n/2].EstimatedTime++
			b.ReportAllocs()
			for b.Loop() {
				_ = common.Diff(base, answer, execID, replaceLimit)
			}
		})
	}
}
