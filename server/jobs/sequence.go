package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dapconsole/dapconsole/model"
)

// RefusedError is a sequential trigger refused before anything was queued.
type RefusedError struct{ Reason string }

func (r *RefusedError) Error() string { return r.Reason }

// Sequence queues the given files and all their downstream dependents, in
// dependency order: each execution starts only after the executions of its
// upstream files ended COMPLETED or COMPLETED_WITH_WARNINGS, and is
// CANCELED otherwise. Files that are not jobs (connections, infographics)
// appear in the plan with trigger false. A dependent sees reports hidden
// (nil: every file is seen) is left out, with what only it leads to, and
// counted in the plan's notice, so the plan neither names nor waits on
// what the caller may not see. It refuses, queuing nothing, when a workbook
// in the chain is not data-driven or mayRun refuses a job.
func (e *Engine) Sequence(ctx context.Context, start []File, user string, vars map[string]string,
	sees func(File) (bool, error), mayRun func(File) error) (model.ExecutionPlan, error) {
	files, order, hidden, err := e.dependencyOrder(ctx, start, sees)
	if err != nil {
		return model.ExecutionPlan{}, err
	}
	for _, id := range order {
		f := files[id].file
		if f.Kind == model.KindWorkbook && !DataDriven(f) {
			return model.ExecutionPlan{}, &RefusedError{fmt.Sprintf("workbook %s is not data-driven (property %s)", f.Path, propDataDriven)}
		}
		if f.Kind.Runnable() {
			if err := mayRun(f); err != nil {
				return model.ExecutionPlan{}, &RefusedError{fmt.Sprintf("%s: %v", f.Path, err)}
			}
		}
	}
	plan := model.ExecutionPlan{Status: model.StatusSuccess, ExecutionPlan: []model.PlanEntry{}}
	if hidden > 0 {
		plan.Notice = fmt.Sprintf("%d file(s) you may not see were left out", hidden)
	}
	waitOn := make(map[int64][]*run) // the runs a file's dependents wait for
	var queued []*run
	for _, id := range order {
		node := files[id]
		var after []*run
		for _, up := range node.upstream {
			after = append(after, waitOn[up]...)
		}
		entry := model.PlanEntry{JobConfigurationName: node.file.Name, JobConfigurationID: node.file.ConfigurationID}
		if node.file.Kind.Runnable() {
			r, err := e.enqueue(ctx, node.file, user, model.TriggerRESTAPI, vars, after)
			if err != nil {
				for _, q := range queued {
					q.cancel(err)
					e.launch(q)
				}
				return model.ExecutionPlan{}, err
			}
			queued = append(queued, r)
			waitOn[id] = []*run{r}
			entry.Trigger, entry.JobExecutionID = true, r.id
		} else {
			waitOn[id] = after
		}
		plan.ExecutionPlan = append(plan.ExecutionPlan, entry)
	}
	for _, r := range queued {
		e.launch(r)
	}
	return plan, nil
}

type planNode struct {
	file     File
	upstream []int64 // file ids of its sources inside the plan
}

// dependencyOrder collects the files and their downstream dependents that
// sees allows, and orders them so that every file comes after its sources;
// hidden counts the dependents left out.
func (e *Engine) dependencyOrder(ctx context.Context, start []File, sees func(File) (bool, error)) (files map[int64]*planNode, order []int64, hidden int, err error) {
	files = make(map[int64]*planNode)
	leftOut := make(map[int64]bool)
	queue := slices.Clone(start)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if files[f.ID] != nil {
			continue
		}
		files[f.ID] = &planNode{file: f}
		deps, err := e.cat.Dependents(ctx, f.ID)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("dependents of %s: %w", f.Path, err)
		}
		for _, d := range deps {
			if files[d.ID] != nil || leftOut[d.ID] {
				continue
			}
			if sees != nil {
				seen, err := sees(d)
				if err != nil {
					return nil, nil, 0, err
				}
				if !seen {
					leftOut[d.ID] = true
					continue
				}
			}
			queue = append(queue, d)
		}
	}
	ids := make([]int64, 0, len(files))
	for id, node := range files {
		ids = append(ids, id)
		for _, ref := range node.file.Config.Links() {
			src, err := e.cat.Source(ctx, ref)
			if errors.Is(err, ErrNotFound) {
				continue // a missing source fails that job's run, with the reason
			}
			if err != nil {
				return nil, nil, 0, fmt.Errorf("source of %s: %w", node.file.Path, err)
			}
			if files[src.ID] != nil {
				node.upstream = append(node.upstream, src.ID)
			}
		}
	}
	// Kahn's algorithm, taking the lowest ready file id first so plans are
	// stable; the ready ids are kept sorted, so each step is a binary search.
	pending := make(map[int64]int, len(ids))
	dependents := make(map[int64][]int64)
	var ready []int64
	for _, id := range ids {
		pending[id] = len(files[id].upstream)
		if pending[id] == 0 {
			ready = append(ready, id)
		}
		for _, up := range files[id].upstream {
			dependents[up] = append(dependents[up], id)
		}
	}
	slices.Sort(ready)
	order = make([]int64, 0, len(ids))
	for len(ready) > 0 {
		next := ready[0]
		ready = ready[1:]
		order = append(order, next)
		for _, d := range dependents[next] {
			if pending[d]--; pending[d] == 0 {
				at, _ := slices.BinarySearch(ready, d)
				ready = slices.Insert(ready, at, d)
			}
		}
	}
	if len(order) < len(ids) {
		return nil, nil, 0, &RefusedError{"the files depend on each other in a cycle"}
	}
	return files, order, len(leftOut), nil
}
