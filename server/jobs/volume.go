package jobs

import (
	"context"
	"fmt"

	"github.com/dapconsole/dapconsole/model"
)

// ImportedBytes is the volume every import, data link and upload run has
// brought in so far (their IMPORT_OUTPUT_BYTES counters), which a licence's
// volume is measured against.
func (e *Engine) ImportedBytes(ctx context.Context) (int64, error) {
	var n int64
	err := e.db.QueryRowContext(ctx, `SELECT coalesce(sum(json_extract(counters, '$.`+model.CounterImportOutputBytes+`')), 0)
		FROM job_executions`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("imported volume: %w", err)
	}
	return n, nil
}
