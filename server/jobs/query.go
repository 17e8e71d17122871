package jobs

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// History defaults when the request leaves start or length out.
const (
	DefaultHistoryStart  = 0
	DefaultHistoryLength = 10
)

// live is what an active run knows beyond its stored row.
type live struct {
	state    model.JobState
	started  time.Time
	progress float64
}

func (e *Engine) liveRun(id int64) (live, bool) {
	e.mu.Lock()
	r, ok := e.active[id]
	e.mu.Unlock()
	if !ok {
		return live{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return live{state: r.state, started: r.started, progress: r.progress}, true
}

// estimate is the time left when fraction of the work took elapsed.
func estimate(elapsed time.Duration, fraction float64) time.Duration {
	if fraction <= 0 || fraction >= 1 {
		return 0
	}
	return time.Duration(float64(elapsed) * (1 - fraction) / fraction)
}

func percent(fraction float64) model.Progress { return model.Progress(math.Floor(fraction * 100)) }

func msTime(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return time.UnixMilli(ms.Int64)
}

// Status answers the status endpoint for a file: its newest execution.
// While that execution is active the run itself is the authority: its
// stored row changes a moment before the run's own state does (at start and
// at the end), so a reading that finds the two apart reads the row again.
func (e *Engine) Status(ctx context.Context, fileID int64) (model.JobStatus, error) {
	var (
		id               int64
		state, reason    string
		started, stopped sql.NullInt64
	)
	err := e.db.QueryRowContext(ctx, `SELECT id, state, started_ms, stopped_ms, reason FROM job_executions
		WHERE file_id = ? ORDER BY id DESC LIMIT 1`, fileID).Scan(&id, &state, &started, &stopped, &reason)
	if errors.Is(err, sql.ErrNoRows) {
		return model.JobStatus{Status: model.StatusSuccess, JobStatus: model.StateNone}, nil
	}
	if err != nil {
		return model.JobStatus{}, fmt.Errorf("status of file %d: %w", fileID, err)
	}
	st := model.JobStatus{Status: model.StatusSuccess, FileID: &fileID, JobExecutionID: &id}
	if model.JobState(state).Active() {
		if l, ok := e.liveRun(id); ok && l.state.Active() {
			st.JobStatus, st.StartTime = l.state, model.At(l.started)
			if l.state == model.StateRunning {
				left := model.Estimate(estimate(time.Since(l.started), l.progress))
				progress := percent(l.progress)
				st.EstimateTime, st.JobProgress = &left, &progress
			}
			return st, nil
		}
		// The run ended after the row was read, and its row holds the end already.
		err := e.db.QueryRowContext(ctx, `SELECT state, started_ms, stopped_ms, reason FROM job_executions WHERE id = ?`,
			id).Scan(&state, &started, &stopped, &reason)
		if err != nil {
			return model.JobStatus{}, fmt.Errorf("status of file %d: %w", fileID, err)
		}
	}
	st.JobStatus, st.StartTime = model.JobState(state), model.At(msTime(started))
	if st.JobStatus.Final() {
		st.StopTime = model.At(msTime(stopped))
	}
	if st.JobStatus == model.StateError || st.JobStatus == model.StateCanceled {
		st.Reason = reason
	}
	return st, nil
}

// History answers a job's executions, newest first, skipping start and
// returning at most length.
// An entry says when the execution ran, who started it, and whether the
// data it produced was deleted.
func (e *Engine) History(ctx context.Context, configurationID int64, start, length int) ([]model.HistoryEntry, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT x.id, x.state, x.started_ms, x.stopped_ms, x.user_name,
		d.deleted_ms IS NOT NULL FROM job_executions x LEFT JOIN job_data d ON d.execution_id = x.id
		WHERE x.configuration_id = ? ORDER BY x.id DESC LIMIT ? OFFSET ?`, configurationID, length, start)
	if err != nil {
		return nil, fmt.Errorf("history of configuration %d: %w", configurationID, err)
	}
	defer rows.Close()
	entries := []model.HistoryEntry{}
	for rows.Next() {
		var (
			h                model.HistoryEntry
			started, stopped sql.NullInt64
		)
		if err := rows.Scan(&h.ID, &h.JobStatus, &started, &stopped, &h.User, &h.DataDeleted); err != nil {
			return nil, fmt.Errorf("history of configuration %d: %w", configurationID, err)
		}
		if started.Valid {
			h.StartTime = model.At(msTime(started))
		}
		if stopped.Valid {
			h.StopTime = model.At(msTime(stopped))
		}
		entries = append(entries, h)
	}
	return entries, rows.Err()
}

// HistoryTotal counts a job's executions.
func (e *Engine) HistoryTotal(ctx context.Context, configurationID int64) (int, error) {
	var n int
	err := e.db.QueryRowContext(ctx, `SELECT count(*) FROM job_executions WHERE configuration_id = ?`, configurationID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("history of configuration %d: %w", configurationID, err)
	}
	return n, nil
}

// Details answers one execution's details; ErrNotFound for an unknown id.
func (e *Engine) Details(ctx context.Context, executionID int64) (model.JobDetails, error) {
	var (
		d                model.JobDetails
		started, stopped sql.NullInt64
		counters         string
	)
	err := e.db.QueryRowContext(ctx, `SELECT state, configuration_id, file_id, file_uuid, success_count,
		failure_count, counters, started_ms, stopped_ms FROM job_executions WHERE id = ?`, executionID).Scan(
		&d.JobStatus, &d.JobConfigurationID, &d.File.ID, &d.File.UUID, &d.SuccessCount,
		&d.FailureCount, &counters, &started, &stopped)
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("job execution %d: %w", executionID, ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("job execution %d: %w", executionID, err)
	}
	if err := json.Unmarshal([]byte(counters), &d.Counters); err != nil {
		return d, fmt.Errorf("counters of job execution %d: %w", executionID, err)
	}
	if d.Counters == nil {
		d.Counters = map[string]int64{}
	}
	d.StartTime = model.At(msTime(started))
	if stopped.Valid {
		d.StopTime = model.At(msTime(stopped))
	}
	return d, nil
}

// Running answers every queued and running execution, oldest first.
func (e *Engine) Running() []model.RunningJob {
	e.mu.Lock()
	runs := make([]*run, 0, len(e.active))
	for _, r := range e.active {
		runs = append(runs, r)
	}
	e.mu.Unlock()
	slices.SortFunc(runs, func(a, b *run) int { return cmp.Compare(a.id, b.id) })
	now := time.Now()
	out := make([]model.RunningJob, 0, len(runs))
	for _, r := range runs {
		r.mu.Lock()
		state, started, progress := r.state, r.started, r.progress
		r.mu.Unlock()
		if !state.Active() {
			continue // ended a moment ago, leaving the active set now
		}
		var left time.Duration
		if !started.IsZero() {
			left = estimate(now.Sub(started), progress)
		}
		out = append(out, model.RunningJob{
			JobStatus:             state,
			FileName:              path.Base(r.file.Path),
			JobName:               r.file.Name,
			FileID:                r.file.ID,
			UUID:                  r.file.UUID,
			CreationDate:          model.Millis(r.created),
			JobExecutionID:        r.id,
			DapJobConfigurationID: r.file.ConfigurationID,
			EstimatedTime:         left.Milliseconds(),
			StartTime:             model.Millis(started),
		})
	}
	return out
}
