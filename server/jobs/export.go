package jobs

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// export writes the newest data of the export's input as CSV to `path`
// in its file-system connection's directory. It writes a temporary file
// beside the target and renames it at the end, so a stopped export leaves
// the previous file untouched.
func (e *Engine) export(r *run) (result, error) {
	conn, inputs, err := e.sources(r)
	if err != nil {
		return result{}, err
	}
	if conn == nil || len(inputs) != 1 {
		return result{}, fmt.Errorf("%s needs one connection and one input among its sources", r.file.Path)
	}
	target, err := e.fileInConnection(*conn, r.file.Config.Property(propPath))
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	table, err := e.latestData(r.ctx, inputs[0])
	if err != nil {
		return result{}, fmt.Errorf("%s: input %w", r.file.Path, err)
	}
	r.logf("writing the data of %s through connection %s", inputs[0].Path, conn.Path)
	var expected int64
	if err := e.db.QueryRowContext(r.ctx, `SELECT row_count FROM job_data WHERE table_name = ?`, table).Scan(&expected); err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+exportTempMark+"*.tmp")
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	defer tmp.Close()
	records, err := e.writeCSV(r, tmp, table, expected)
	if err != nil {
		return result{}, err
	}
	if err := tmp.Close(); err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	if r.ctx.Err() != nil {
		return result{}, r.ctx.Err()
	}
	info, err := os.Stat(tmp.Name())
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	r.logf("wrote %d records (%d bytes)", records, info.Size())
	return result{
		success: records,
		counters: map[string]int64{
			model.CounterExportRecords:        records,
			model.CounterExportBytes:          info.Size(),
			model.CounterExportDroppedRecords: 0,
		},
	}, nil
}

// exportTempMark is in the name of every file an export writes before its
// rename, so that Open can tell the ones a killed server left behind.
const exportTempMark = ".dapexport-"

// leftoverExport matches the temporary files of exports cut off by a kill:
// ".<target>.dapexport-<random>.tmp", and ".<target>.<random>.tmp" as
// earlier versions named them.
var leftoverExport = regexp.MustCompile(`^\..+\.(dapexport-)?[0-9]+\.tmp$`)

// removeExportLeftovers deletes, below every file root, the temporary files
// of exports a killed server left (up to an export's size each, forever
// otherwise). No export runs before Open returns.
func (e *Engine) removeExportLeftovers() error {
	for _, root := range e.roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable corner is not worth refusing to start
			}
			if d.Type().IsRegular() && leftoverExport.MatchString(d.Name()) {
				if err := os.Remove(path); err != nil {
					return fmt.Errorf("remove export left behind: %w", err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *Engine) writeCSV(r *run, f *os.File, table string, expected int64) (int64, error) {
	rows, err := e.db.QueryContext(r.ctx, `SELECT * FROM `+quoteIdent(table)+` ORDER BY rowid`)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	buf := bufio.NewWriterSize(f, 256<<10)
	w := csv.NewWriter(buf)
	if err := w.Write(columns); err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	values := make([]any, len(columns))
	targets := make([]any, len(columns))
	for i := range values {
		targets[i] = &values[i]
	}
	record := make([]string, len(columns))
	var n int64
	for rows.Next() {
		if err := rows.Scan(targets...); err != nil {
			return 0, fmt.Errorf("%s: %w", r.file.Path, err)
		}
		for i, v := range values {
			record[i] = formatValue(v)
		}
		if err := w.Write(record); err != nil {
			return 0, fmt.Errorf("%s: %w", r.file.Path, err)
		}
		n++
		if n%checkEvery == 0 {
			if r.ctx.Err() != nil {
				return 0, r.ctx.Err()
			}
			r.setProgress(float64(n) / float64(max(expected, 1)))
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	if err := buf.Flush(); err != nil {
		return 0, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	return n, nil
}

// formatValue writes a stored value as a CSV cell; NULL is an empty cell.
func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	}
	return fmt.Sprint(v)
}
