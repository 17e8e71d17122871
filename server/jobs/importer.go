package jobs

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
	"modernc.org/sqlite"
)

// Properties of import jobs and data links.
const (
	propPath           = "path"            // file to read, relative to the file-system connection's directory
	propFormat         = "format"          // csv (default) or jsonl
	propSeparator      = "separator"       // CSV field separator, default ","
	propTable          = "table"           // table to read over a jdbc:sqlite: connection
	propQuery          = "query"           // or a query to run there
	propPreviewRecords = "preview.records" // size of the preview sample, default 5000
	propPace           = "pace.rowsPerSecond"
)

const defaultPreviewRecords = 5000

// checkEvery is how many rows pass between checks for cancellation and
// progress updates: often enough that a stop lands within milliseconds.
const checkEvery = 256

// errEnough ends a data link's read once its preview sample is complete.
var errEnough = errors.New("preview sample complete")

// work does the job a file describes.
func (e *Engine) work(r *run) (result, error) {
	switch r.file.Kind {
	case model.KindImportJob:
		return e.importData(r, false)
	case model.KindDataLink:
		return e.importData(r, true)
	case model.KindWorkbook:
		return e.runWorkbook(r)
	case model.KindExportJob:
		return e.export(r)
	}
	return result{}, fmt.Errorf("%s: %w", r.file.Path, ErrNotJob)
}

// sources resolves a run's sources, split into its connection (if any) and
// the files whose data it reads. An input the run's user may not read is
// answered as a missing one: its data must not reach a workbook or an
// export the user runs. (The connection is judged by the server when the
// run is triggered, by the use the job makes of it.)
func (e *Engine) sources(r *run) (conn *File, inputs []File, err error) {
	for _, ref := range r.file.Config.Links() {
		src, err := e.cat.Source(r.ctx, ref)
		if err == nil && src.Kind != model.KindConnection {
			var may bool
			if may, err = e.cat.MayRead(r.ctx, r.user, src); err == nil && !may {
				err = ErrNotFound
			}
		}
		if err != nil {
			// The UUID alone: the path beside it may be a hidden file's now.
			name := cmp.Or(ref.UUID, ref.Path)
			return nil, nil, fmt.Errorf("source %s of %s: %w", name, r.file.Path, err)
		}
		if src.Kind == model.KindConnection {
			if conn == nil {
				conn = &src
			}
			continue
		}
		inputs = append(inputs, src)
	}
	return conn, inputs, nil
}

// importSink receives the records an import reads and counts them.
type importSink struct {
	ctx      context.Context
	run      *run
	table    *stagedTable
	limit    int64   // records wanted; 0 means all
	pace     float64 // rows per second; 0 means as fast as possible
	started  time.Time
	records  int64
	dropped  int64
	readSize int64 // bytes read from the source
}

func (s *importSink) header(columns []string) error {
	if len(columns) == 0 {
		return errors.New("the source has no columns")
	}
	return s.table.create(s.ctx, columns)
}

// row stores one valid record; it answers errEnough when the sample is full.
func (s *importSink) row(cells []cell) error {
	if err := s.table.add(s.ctx, cells); err != nil {
		return err
	}
	s.records++
	if s.limit > 0 && s.records >= s.limit {
		return errEnough
	}
	if s.records%checkEvery == 0 {
		return s.checkpoint()
	}
	return nil
}

func (s *importSink) drop() error {
	s.dropped++
	if s.dropped%checkEvery == 0 {
		return s.checkpoint()
	}
	return nil
}

// checkpoint notices a stop and, for a paced import, waits until the rows
// read so far are due.
func (s *importSink) checkpoint() error {
	if err := s.ctx.Err(); err != nil {
		return context.Cause(s.ctx)
	}
	if s.pace <= 0 {
		return nil
	}
	due := s.started.Add(time.Duration(float64(s.records+s.dropped) / s.pace * float64(time.Second)))
	wait := time.Until(due)
	if wait <= 0 {
		return nil
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-s.ctx.Done():
		return context.Cause(s.ctx)
	}
}

func (e *Engine) importData(r *run, previewOnly bool) (result, error) {
	cfg := r.file.Config
	conn, _, err := e.sources(r)
	if err != nil {
		return result{}, err
	}
	if conn == nil {
		return result{}, fmt.Errorf("%s names no connection among its sources", r.file.Path)
	}
	r.logf("reading through connection %s", conn.Path)
	preview, err := positiveProperty(cfg, propPreviewRecords, defaultPreviewRecords)
	if err != nil {
		return result{}, err
	}
	pace, err := positiveProperty(cfg, propPace, 0)
	if err != nil {
		return result{}, err
	}
	sink := &importSink{ctx: r.ctx, run: r, table: e.newStagedTable(r.id), pace: float64(pace), started: time.Now()}
	if previewOnly {
		sink.limit = int64(preview)
	}
	res := result{staged: sink.table}
	connURL := conn.Config.Property(model.PropConnectionURL)
	switch {
	case strings.HasPrefix(connURL, "file:"):
		err = e.readFile(r, *conn, sink)
	case strings.HasPrefix(connURL, "jdbc:sqlite:"):
		err = e.readSQLite(r, *conn, sink)
	default:
		err = fmt.Errorf("connection %s: URL %q is neither a file:/// nor a jdbc:sqlite: URL", conn.Path, connURL)
	}
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err != nil {
		return res, err
	}
	res.success, res.failure = sink.records, sink.dropped
	res.warnings = sink.dropped > 0
	r.logf("read %d records (%d bytes)", sink.records, sink.readSize)
	if sink.dropped > 0 {
		r.logf("WARN %d records did not fit the columns and were dropped", sink.dropped)
	}
	if previewOnly {
		res.counters = map[string]int64{
			model.CounterImportPreviewRecords: sink.records,
			model.CounterImportDroppedRecords: sink.dropped,
		}
		return res, nil
	}
	res.counters = map[string]int64{
		model.CounterImportRecords:        sink.records,
		model.CounterImportPreviewRecords: min(sink.records, int64(preview)),
		model.CounterImportOutputBytes:    sink.table.bytes,
		model.CounterImportDroppedSplits:  0,
		model.CounterImportDroppedRecords: sink.dropped,
		model.CounterImportBytes:          sink.readSize,
	}
	return res, nil
}

func positiveProperty(cfg model.Configuration, key string, fallback int) (int, error) {
	v := cfg.Property(key)
	if v == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("property %s: %q is not a positive whole number", key, v)
	}
	return n, nil
}

// readFile imports a CSV or JSON-lines file from a file-system connection.
func (e *Engine) readFile(r *run, conn File, sink *importSink) error {
	cfg := r.file.Config
	path, err := e.fileInConnection(conn, cfg.Property(propPath))
	if err != nil {
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	format := strings.ToLower(cfg.Property(propFormat))
	if format == "" {
		format = "csv"
		if ext := strings.ToLower(filepath.Ext(path)); ext == ".jsonl" || ext == ".ndjson" {
			format = "jsonl"
		}
	}
	switch format {
	case "csv":
		sep := ','
		if s := cfg.Property(propSeparator); s != "" {
			if utf8.RuneCountInString(s) != 1 {
				return fmt.Errorf("property %s: %q is not one character", propSeparator, s)
			}
			sep, _ = utf8.DecodeRuneInString(s)
		}
		return readCSV(f, info.Size(), sep, sink)
	case "jsonl", "json-lines", "ndjson":
		return readJSONLines(f, info.Size(), sink)
	}
	return fmt.Errorf("property %s: %q is neither csv nor jsonl", propFormat, format)
}

// readCSV reads a header line and then records; a record that does not
// parse or has a different number of fields than the header is dropped.
func readCSV(f io.Reader, size int64, sep rune, sink *importSink) error {
	cr := csv.NewReader(bufio.NewReaderSize(f, 256<<10))
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("CSV header: %w", err)
	}
	if err := sink.header(slices.Clone(header)); err != nil {
		return err
	}
	width := len(header)
	cells := make([]cell, width)
	// Declared once: errors.As takes its address, which would cost every
	// row an allocation if it were declared in the loop.
	var parseErr *csv.ParseError
	for n := 1; ; n++ {
		record, err := cr.Read()
		if err == io.EOF {
			break
		}
		switch {
		case err == nil && len(record) == width:
			for i, text := range record {
				cells[i] = parseCell(text)
			}
			err = sink.row(cells)
		case err == nil, errors.As(err, &parseErr):
			err = sink.drop()
		default:
			return fmt.Errorf("CSV: %w", err)
		}
		if err != nil {
			return err
		}
		if n%checkEvery == 0 {
			sink.run.setProgress(float64(cr.InputOffset()) / float64(max(size, 1)))
		}
	}
	sink.readSize = cr.InputOffset()
	return nil
}

// readJSONLines reads one JSON object per line. The columns are the keys of
// the first object, sorted; a line that is not an object, or that has a key
// outside those columns, is dropped.
func readJSONLines(f io.Reader, size int64, sink *importSink) error {
	br := bufio.NewReaderSize(f, 256<<10)
	var columns []string
	var index map[string]int
	var cells []cell
	var offset int64
	for n := 1; ; n++ {
		line, readErr := br.ReadBytes('\n')
		offset += int64(len(line))
		if readErr != nil && readErr != io.EOF {
			return fmt.Errorf("JSON lines: %w", readErr)
		}
		line = bytes.TrimSpace(line)
		var err error
		if len(line) > 0 {
			obj, ok := decodeObject(line)
			if ok && columns == nil {
				columns = make([]string, 0, len(obj))
				for k := range obj {
					columns = append(columns, k)
				}
				slices.Sort(columns)
				if err := sink.header(columns); err != nil {
					return err
				}
				index = make(map[string]int, len(columns))
				for i, c := range columns {
					index[c] = i
				}
				cells = make([]cell, len(columns))
			}
			if ok {
				clear(cells)
				for k, v := range obj {
					i, known := index[k]
					if !known {
						ok = false
						break
					}
					cells[i] = jsonCell(v)
				}
			}
			if ok {
				err = sink.row(cells)
			} else {
				err = sink.drop()
			}
		}
		if err != nil {
			return err
		}
		if n%checkEvery == 0 {
			sink.run.setProgress(float64(offset) / float64(max(size, 1)))
		}
		if readErr == io.EOF {
			break
		}
	}
	sink.readSize = offset
	if columns == nil {
		return errors.New("JSON lines: no valid object")
	}
	return nil
}

func decodeObject(line []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		return nil, false
	}
	return obj, true
}

// jsonCell turns a decoded JSON value into the cell stored; nested
// objects and arrays are kept as JSON text.
func jsonCell(v any) cell {
	switch x := v.(type) {
	case nil, string, bool:
		return anyCell(x)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return cell{kind: integerCell, i: i}
		}
		if f, err := x.Float64(); err == nil {
			return cell{kind: realCell, f: f}
		}
		return cell{kind: textCell, s: x.String()}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return cell{kind: textCell, s: fmt.Sprint(v)}
	}
	return cell{kind: textCell, s: string(b)}
}

// readSQLite imports a table or a query's result from a SQLite database
// file. The file is opened read-only and the statement runs under an
// authorizer that allows reading only, so a query cannot attach other files
// or change anything.
func (e *Engine) readSQLite(r *run, conn File, sink *importSink) error {
	cfg := r.file.Config
	path, err := e.sqliteConnectionPath(conn)
	if err != nil {
		return err
	}
	var query, count string
	switch table, q := cfg.Property(propTable), cfg.Property(propQuery); {
	case table != "" && q != "":
		return fmt.Errorf("%s: set either %s or %s, not both", r.file.Path, propTable, propQuery)
	case table != "":
		query = "SELECT * FROM " + quoteIdent(table)
		count = "SELECT count(*) FROM " + quoteIdent(table)
	case q != "":
		q = strings.TrimRight(strings.TrimSpace(q), "; \t\n")
		query = q
		count = "SELECT count(*) FROM (" + q + ")"
	default:
		return fmt.Errorf("%s: set %s or %s", r.file.Path, propTable, propQuery)
	}
	src, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer src.Close()
	c, err := src.Conn(r.ctx)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer c.Close()
	if err := setAuthorizer(c, readOnlyPolicy()); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	ctx, cancel := context.WithTimeoutCause(r.ctx, e.queryTime, e.queryTimeExceeded())
	defer cancel()
	var expected int64
	if err := c.QueryRowContext(ctx, count).Scan(&expected); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("%s: count rows: %w", r.file.Path, err)
	}
	rows, err := c.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	if err := sink.header(columns); err != nil {
		return err
	}
	values := make([]any, len(columns))
	cells := make([]cell, len(columns))
	targets := make([]any, len(columns))
	for i := range values {
		targets[i] = &values[i]
	}
	for rows.Next() {
		if err := rows.Scan(targets...); err != nil {
			return fmt.Errorf("%s: %w", r.file.Path, err)
		}
		for i, v := range values {
			cells[i] = anyCell(v)
			sink.readSize += cells[i].size()
		}
		if err := sink.row(cells); err != nil {
			return err
		}
		if sink.records%checkEvery == 0 {
			r.setProgress(float64(sink.records) / float64(max(expected, 1)))
		}
	}
	if err := rows.Err(); err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("%s: %w", r.file.Path, err)
	}
	return nil
}

// setAuthorizer installs an authorizer on one pinned connection.
func setAuthorizer(c *sql.Conn, policy sqlite.AuthorizerFn) error {
	return c.Raw(func(driverConn any) error {
		reg, ok := driverConn.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("the SQLite driver offers no authorizer")
		}
		return reg.RegisterAuthorizer(policy)
	})
}

// readOnlyPolicy allows selecting, reading and calling functions.
func readOnlyPolicy() sqlite.AuthorizerFn {
	return func(action sqlite.AuthorizerActionCode, _, arg2, _, _ string) sqlite.AuthorizerReturnCode {
		switch action {
		case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
			return sqlite.AuthorizerOK
		case sqlite.AuthFunction:
			if strings.EqualFold(arg2, "load_extension") {
				return sqlite.AuthorizerDeny
			}
			return sqlite.AuthorizerOK
		}
		return sqlite.AuthorizerDeny
	}
}
