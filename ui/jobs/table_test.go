package jobs

import (
	"slices"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
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

func execIDs(rows []*row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.job.JobExecutionID
	}
	return out
}
