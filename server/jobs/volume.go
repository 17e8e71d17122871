package jobs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dapconsole/dapconsole/model"
)

// ImportedBytes is the volume every import, data link and upload run has
// brought in so far (their IMPORT_BYTES counters, as each volume report
// entry's), which a licence's volume is measured against.
func (e *Engine) ImportedBytes(ctx context.Context) (int64, error) {
	var n int64
	err := e.db.QueryRowContext(ctx, `SELECT coalesce(sum(json_extract(counters, '$.`+model.CounterImportBytes+`')), 0)
		FROM job_executions`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("imported volume: %w", err)
	}
	return n, nil
}

// Volume answers a configuration's executions, newest first, with the bytes
// each imported (its IMPORT_BYTES counter; 0 when it has none).
func (e *Engine) Volume(ctx context.Context, configurationID int64) ([]model.VolumeEntry, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT id, state, counters FROM job_executions
		WHERE configuration_id = ? ORDER BY id DESC`, configurationID)
	if err != nil {
		return nil, fmt.Errorf("volume of configuration %d: %w", configurationID, err)
	}
	defer rows.Close()
	entries := []model.VolumeEntry{}
	for rows.Next() {
		v := model.VolumeEntry{Type: model.VolumeTypeNormal}
		var raw string
		if err := rows.Scan(&v.ID, &v.JobStatus, &raw); err != nil {
			return nil, fmt.Errorf("volume of configuration %d: %w", configurationID, err)
		}
		var counters map[string]int64
		if err := json.Unmarshal([]byte(raw), &counters); err != nil {
			return nil, fmt.Errorf("counters of job execution %d: %w", v.ID, err)
		}
		v.ImportedVolume = counters[model.CounterImportBytes]
		entries = append(entries, v)
	}
	return entries, rows.Err()
}
