package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// maxLogLines bounds what a run's log keeps: a run that warns on every
// record keeps its first lines and says how many more there were.
const maxLogLines = 2000

// logTimeLayout starts every log line, as the platform's job logs do.
const logTimeLayout = "2006-01-02 15:04:05"

// runLog is an execution's log while it runs: its steps, row counts,
// warnings and how it ended. It is stored with the execution's end, so
// GET /file-job serves it while the run goes on and after.
type runLog struct {
	mu      sync.Mutex
	lines   []string
	dropped int
}

// logf adds a line to the run's log, stamped with the time.
func (r *run) logf(format string, args ...any) {
	line := time.Now().Format(logTimeLayout) + " " + fmt.Sprintf(format, args...)
	r.log.mu.Lock()
	defer r.log.mu.Unlock()
	if len(r.log.lines) >= maxLogLines {
		r.log.dropped++
		return
	}
	r.log.lines = append(r.log.lines, line)
}

// text is the log as stored and served: one line each, newline-ended.
func (l *runLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, line := range l.lines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if l.dropped > 0 {
		fmt.Fprintf(&b, "… %d more lines not kept\n", l.dropped)
	}
	return b.String()
}

// endLine is the log's last line for an execution that ended in state.
func endLine(state model.JobState, res result, reason string) string {
	switch state {
	case model.StateCompleted, model.StateCompletedWithWarnings:
		return fmt.Sprintf("ended: %s (%d succeeded, %d failed)", state, res.success, res.failure)
	}
	return fmt.Sprintf("ended: %s — %s", state, reason)
}

// Log answers an execution's log and the file it ran: the live log while
// it runs, the stored one after. An execution that ended before logs were
// kept (or was cut off by a restart) gets one line from its state and reason.
func (e *Engine) Log(ctx context.Context, executionID int64) (text string, fileID int64, err error) {
	e.mu.Lock()
	r, active := e.active[executionID]
	e.mu.Unlock()
	if active {
		return r.log.text(), r.file.ID, nil
	}
	var (
		state, reason string
		stopped       sql.NullInt64
	)
	err = e.db.QueryRowContext(ctx, `SELECT file_id, state, reason, log, stopped_ms FROM job_executions WHERE id = ?`,
		executionID).Scan(&fileID, &state, &reason, &text, &stopped)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("job execution %d: %w", executionID, ErrNotFound)
	}
	if err != nil {
		return "", 0, fmt.Errorf("log of job execution %d: %w", executionID, err)
	}
	if text == "" {
		line := fmt.Sprintf("ended: %s", state)
		if reason != "" {
			line += " — " + reason
		}
		if stopped.Valid {
			line = msTime(stopped).Format(logTimeLayout) + " " + line
		}
		text = line + "\n"
	}
	return text, fileID, nil
}
