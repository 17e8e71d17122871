package jobs

import (
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"time"
)

// DataSet is one stored data set of a file: the execution that produced it
// (its data id), its rows and when it was published.
type DataSet struct {
	ID      int64
	Records int64
	Created time.Time
}

// DataSets returns a file's stored data sets, newest first.
func (e *Engine) DataSets(ctx context.Context, fileID int64) ([]DataSet, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT execution_id, row_count, created_ms FROM job_data
		WHERE file_id = ? AND deleted_ms IS NULL ORDER BY execution_id DESC`, fileID)
	if err != nil {
		return nil, fmt.Errorf("data sets of file %d: %w", fileID, err)
	}
	defer rows.Close()
	var out []DataSet
	for rows.Next() {
		var d DataSet
		var ms int64
		if err := rows.Scan(&d.ID, &d.Records, &ms); err != nil {
			return nil, fmt.Errorf("data sets of file %d: %w", fileID, err)
		}
		d.Created = time.UnixMilli(ms)
		out = append(out, d)
	}
	return out, rows.Err()
}

// LatestColumns returns the column names and the row count of a file's
// newest data set; an error wrapping ErrNotFound when it has none.
func (e *Engine) LatestColumns(ctx context.Context, fileID int64) ([]string, int64, error) {
	table, records, err := e.latestTable(ctx, fileID)
	if err != nil {
		return nil, 0, err
	}
	rows, err := e.db.QueryContext(ctx, `SELECT * FROM `+quoteIdent(table)+` LIMIT 0`)
	if err != nil {
		return nil, 0, fmt.Errorf("columns of file %d: %w", fileID, err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return nil, 0, fmt.Errorf("columns of file %d: %w", fileID, err)
	}
	return columns, records, nil
}

func (e *Engine) latestTable(ctx context.Context, fileID int64) (table string, records int64, err error) {
	err = e.db.QueryRowContext(ctx, `SELECT table_name, row_count FROM job_data WHERE file_id = ? AND deleted_ms IS NULL
		ORDER BY execution_id DESC LIMIT 1`, fileID).Scan(&table, &records)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, fmt.Errorf("data of file %d: %w", fileID, ErrNotFound)
	}
	if err != nil {
		return "", 0, fmt.Errorf("data of file %d: %w", fileID, err)
	}
	return table, records, nil
}

// WriteLatestCSV writes a file's newest data set as CSV to w: the column
// names, then at most length rows (all when length < 0) from row start (0
// first), in the order they were stored. Rows are read and written one at a
// time, so memory does not grow with the data; a page is found by rowid,
// not skipped over, so a late page costs what the first does. It returns
// ErrNotFound (wrapped), before writing anything, when the file has no data.
func (e *Engine) WriteLatestCSV(ctx context.Context, fileID, start, length int64, w io.Writer) error {
	table, _, err := e.latestTable(ctx, fileID)
	if err != nil {
		return err
	}
	// Rows are inserted in order into a table without an INTEGER PRIMARY
	// KEY and never deleted, so row n has rowid n+1.
	rows, err := e.db.QueryContext(ctx, `SELECT * FROM `+quoteIdent(table)+` WHERE rowid > ? ORDER BY rowid LIMIT ?`, start, length)
	if err != nil {
		return fmt.Errorf("data of file %d: %w", fileID, err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("data of file %d: %w", fileID, err)
	}
	out := csv.NewWriter(w)
	if err := out.Write(columns); err != nil {
		return err
	}
	values := make([]any, len(columns))
	targets := make([]any, len(columns))
	for i := range values {
		targets[i] = &values[i]
	}
	record := make([]string, len(columns))
	for rows.Next() {
		if err := rows.Scan(targets...); err != nil {
			return fmt.Errorf("data of file %d: %w", fileID, err)
		}
		for i, v := range values {
			record[i] = formatValue(v)
		}
		if err := out.Write(record); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("data of file %d: %w", fileID, err)
	}
	out.Flush()
	return out.Error()
}
