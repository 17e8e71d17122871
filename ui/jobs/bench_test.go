package jobs

import (
	"fmt"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
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
func paneWith(b *testing.B, n int) *Pane {
	p := newTestPane(nil, 120, 40, func() time.Time { return clockAt })
	p.Init()
	p.Update(pollMsg{req: p.polling.req, jobs: manyJobs(n)})
	var results []statusResult
	first, last := p.visibleRange()
	for _, r := range p.table.view[first:last] {
		results = append(results, running(r.job.JobExecutionID, 42, time.Minute))
	}
	p.Update(statusMsg{req: p.status.req, results: results})
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
// dashboard that already shows the same executions (the steady state):
// merge, filter, sort, selection.
func BenchmarkMergePoll(b *testing.B) {
	jobs := manyJobs(10_000)
	p := paneWith(b, 10_000)
	p.status.inFlight = true // measure the merge, not the status round it starts
	b.ReportAllocs()
	for b.Loop() {
		for i := range jobs {
			jobs[i].EstimatedTime++ // every running entry changes a little, as in a real poll
		}
		p.Update(pollMsg{req: p.polling.req, jobs: jobs})
	}
}

// The ratio the issue asks for, checked where benchmarks can be read:
// View over 10,000 executions at most 1.5× View over 100.
func TestViewCostDoesNotGrowWithTheList(t *testing.T) {
	if testing.Short() {
		t.Skip("timing comparison")
	}
	small := testing.Benchmark(func(b *testing.B) {
		p := paneWith(b, 100)
		b.ResetTimer()
		for b.Loop() {
			_ = p.View()
		}
	})
	large := testing.Benchmark(func(b *testing.B) {
		p := paneWith(b, 10_000)
		b.ResetTimer()
		for b.Loop() {
			_ = p.View()
		}
	})
	ratio := float64(large.NsPerOp()) / float64(small.NsPerOp())
	t.Logf("View: 100 rows %d ns/op, 10,000 rows %d ns/op, ratio %.2f", small.NsPerOp(), large.NsPerOp(), ratio)
	if ratio > 1.5 {
		t.Errorf("View over 10,000 executions costs %.2f× View over 100, want at most 1.5×", ratio)
	}
}
