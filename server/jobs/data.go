package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dapconsole/dapconsole/model"
	zsqlite "zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// Data naming: an execution that produces data writes it into the staging
// table jobstage_<execution id>, which nothing reads; when the execution
// completes, the table is renamed jobdata_<execution id> and registered in
// job_data in the same transaction. A canceled or failed run drops its
// staging table, so partial data is never visible.
const (
	stagingPrefix = "jobstage_"
	dataPrefix    = "jobdata_"
	// keepDataSets is how many data sets of one job stay stored; publishing a
	// newer one drops the older, so a job re-run every minute does not grow
	// the database without end.
	keepDataSets = 2
	// batchRows is how many rows one write transaction holds: small enough
	// that other writers wait only milliseconds for the database lock.
	batchRows = 5000
	// maxVariables is SQLite's bound on parameters in one statement.
	maxVariables = 32766
)

func dataTableName(executionID int64) string { return dataPrefix + strconv.FormatInt(executionID, 10) }

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// stagedTable is the data an execution writes, not yet visible. Full
// batches are written behind: while one batch is written, the next is
// read, so an import keeps both the reader and the database busy. The rows
// are written through a connection of the table's own that binds each cell
// directly (see write and dataFile), not through database/sql, which boxes
// every argument.
type stagedTable struct {
	db          *sql.DB
	writes      *sync.Mutex // the engine's writes
	file        dataFile
	executionID int64
	name        string
	columns     []string
	conn        *zsqlite.Conn // opened by create, closed once every row is written
	pending     []cell
	pendingRows int
	// spare is the buffer of the batch being written, free again once
	// writing answers; writingRows is its row count.
	spare       []cell
	writing     chan error
	writingRows int
	added       int64 // rows taken by add
	rows        int64 // rows written
	bytes       int64
}

func (e *Engine) newStagedTable(executionID int64) *stagedTable {
	return &stagedTable{db: e.db, writes: &e.writes, file: e.file, executionID: executionID, name: stagingPrefix + strconv.FormatInt(executionID, 10)}
}

// create makes the staging table with the given columns; names are made
// unique and non-empty. Columns carry no declared type, so every value keeps
// the type it was inserted with (integers, reals, text).
func (t *stagedTable) create(ctx context.Context, columns []string) error {
	t.columns = uniqueColumns(columns)
	quoted := make([]string, len(t.columns))
	for i, c := range t.columns {
		quoted[i] = quoteIdent(c)
	}
	t.writes.Lock()
	defer t.writes.Unlock()
	if _, err := t.db.ExecContext(ctx, `DROP TABLE IF EXISTS `+quoteIdent(t.name)); err != nil {
		return fmt.Errorf("staging table %s: %w", t.name, err)
	}
	if _, err := t.db.ExecContext(ctx, `CREATE TABLE `+quoteIdent(t.name)+` (`+strings.Join(quoted, ", ")+`)`); err != nil {
		return fmt.Errorf("staging table %s: %w", t.name, err)
	}
	conn, err := t.file.open()
	if err != nil {
		return fmt.Errorf("staging table %s: %w", t.name, err)
	}
	t.conn = conn
	return nil
}

func uniqueColumns(columns []string) []string {
	out := make([]string, len(columns))
	seen := make(map[string]bool, len(columns))
	for i, c := range columns {
		c = strings.TrimSpace(c)
		if c == "" {
			c = "column_" + strconv.Itoa(i+1)
		}
		base := c
		for n := 2; seen[strings.ToLower(c)]; n++ {
			c = base + "_" + strconv.Itoa(n)
		}
		seen[strings.ToLower(c)] = true
		out[i] = c
	}
	return out
}

// add appends one row (len(row) == len(columns)) and starts writing a
// batch when one is full.
func (t *stagedTable) add(ctx context.Context, row []cell) error {
	for _, c := range row {
		t.bytes += c.size()
	}
	t.pending = append(t.pending, row...)
	t.pendingRows++
	t.added++
	if t.pendingRows >= batchRows {
		return t.writeBehind(ctx)
	}
	return nil
}

// writeBehind waits for the batch being written, if any, and starts
// writing the pending rows in the background.
func (t *stagedTable) writeBehind(ctx context.Context) error {
	if err := t.wait(); err != nil {
		return err
	}
	batch, n := t.pending, t.pendingRows
	done := make(chan error, 1)
	go func() { done <- t.write(ctx, batch, n) }()
	t.writing, t.writingRows = done, n
	t.pending, t.spare, t.pendingRows = t.spare[:0], batch, 0
	return nil
}

// wait waits for the batch being written, if any, and reports how it went.
func (t *stagedTable) wait() error {
	if t.writing == nil {
		return nil
	}
	err := <-t.writing
	t.writing = nil
	if err == nil {
		t.rows += int64(t.writingRows)
	}
	return err
}

// flush writes the pending rows, waits until every row is written and
// closes the table's connection, so publishing renames a table nobody holds.
func (t *stagedTable) flush(ctx context.Context) error {
	if t.pendingRows > 0 {
		if err := t.writeBehind(ctx); err != nil {
			return err
		}
	}
	err := t.wait()
	if closeErr := t.closeConn(); err == nil {
		err = closeErr
	}
	return err
}

// closeConn closes the table's connection, if open; the batch being
// written, if any, must have answered.
func (t *stagedTable) closeConn() error {
	if t.conn == nil {
		return nil
	}
	err := t.conn.Close()
	t.conn = nil
	if err != nil {
		return fmt.Errorf("close writer of %s: %w", t.name, err)
	}
	return nil
}

// write stores n rows in one transaction, in INSERTs of many rows each,
// and clears the batch so it holds no values once reused.
func (t *stagedTable) write(ctx context.Context, batch []cell, n int) (err error) {
	defer clear(batch)
	width := len(t.columns)
	perStatement := max(1, min(500, maxVariables/width))
	t.writes.Lock()
	defer t.writes.Unlock()
	// The connection is not interrupted on a stop: a stop is noticed
	// between statements, and the rolled-back staging table is dropped.
	if err := sqlitex.ExecuteTransient(t.conn, "BEGIN IMMEDIATE", nil); err != nil {
		return fmt.Errorf("write %s: %w", t.name, err)
	}
	defer func() {
		if err != nil && !t.conn.AutocommitEnabled() {
			// The run fails with err either way and its staging table is
			// dropped, so a rollback's own failure adds nothing.
			_ = sqlitex.ExecuteTransient(t.conn, "ROLLBACK", nil)
		}
	}()
	for done := 0; done < n; {
		if ctx.Err() != nil {
			return fmt.Errorf("write %s: %w", t.name, context.Cause(ctx))
		}
		rows := min(perStatement, n-done)
		if err := t.insert(rows, batch[done*width:(done+rows)*width], rows == perStatement); err != nil {
			return fmt.Errorf("write %s: %w", t.name, err)
		}
		done += rows
	}
	if err := sqlitex.ExecuteTransient(t.conn, "COMMIT", nil); err != nil {
		return fmt.Errorf("write %s: %w", t.name, err)
	}
	return nil
}

// insert runs one INSERT of rows rows; the statement of a full batch's
// size is kept prepared on the connection, a shorter one is not.
func (t *stagedTable) insert(rows int, cells []cell, keep bool) error {
	var stmt *zsqlite.Stmt
	var err error
	if keep {
		stmt, err = t.conn.Prepare(t.insertSQL(rows))
	} else {
		stmt, _, err = t.conn.PrepareTransient(t.insertSQL(rows))
		if err == nil {
			defer stmt.Finalize()
		}
	}
	if err != nil {
		return err
	}
	for i, c := range cells {
		c.bind(stmt, i+1)
	}
	if _, err := stmt.Step(); err != nil {
		return err
	}
	return stmt.Reset()
}

func (t *stagedTable) insertSQL(rows int) string {
	row := "(" + strings.Repeat("?, ", len(t.columns)-1) + "?)"
	var b strings.Builder
	b.WriteString("INSERT INTO " + quoteIdent(t.name) + " VALUES ")
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}

// publish makes the staged rows (flushed already) the execution's data,
// inside the caller's transaction, and drops the file's data sets beyond keepDataSets.
func (t *stagedTable) publish(ctx context.Context, tx *sql.Tx, fileID int64, at time.Time) error {
	final := dataTableName(t.executionID)
	if _, err := tx.ExecContext(ctx, `ALTER TABLE `+quoteIdent(t.name)+` RENAME TO `+quoteIdent(final)); err != nil {
		return fmt.Errorf("publish %s: %w", final, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO job_data (execution_id, file_id, table_name, row_count, created_ms)
		VALUES (?, ?, ?, ?, ?)`, t.executionID, fileID, final, t.rows, at.UnixMilli()); err != nil {
		return fmt.Errorf("publish %s: %w", final, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT execution_id, table_name FROM job_data
		WHERE file_id = ? AND deleted_ms IS NULL ORDER BY execution_id DESC LIMIT -1 OFFSET ?`, fileID, keepDataSets)
	if err != nil {
		return fmt.Errorf("retire old data of file %d: %w", fileID, err)
	}
	type old struct {
		id    int64
		table string
	}
	var retired []old
	for rows.Next() {
		var o old
		if err := rows.Scan(&o.id, &o.table); err != nil {
			rows.Close()
			return fmt.Errorf("retire old data of file %d: %w", fileID, err)
		}
		retired = append(retired, o)
	}
	rows.Close()
	for _, o := range retired {
		if err := dropData(ctx, tx, o.id, o.table, at); err != nil {
			return err
		}
	}
	return nil
}

// drop removes the staging table of a run that will not publish, once
// the batch being written, if any, is done.
func (t *stagedTable) drop() {
	_ = t.wait() // the run failed already; this batch's error adds nothing
	_ = t.closeConn()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A failure leaves an orphan that the next Open drops.
	t.writes.Lock()
	defer t.writes.Unlock()
	_, _ = t.db.ExecContext(ctx, `DROP TABLE IF EXISTS `+quoteIdent(t.name))
}

func dropData(ctx context.Context, tx *sql.Tx, executionID int64, table string, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `DROP TABLE IF EXISTS `+quoteIdent(table)); err != nil {
		return fmt.Errorf("drop data of execution %d: %w", executionID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE job_data SET deleted_ms = ? WHERE execution_id = ?`, at.UnixMilli(), executionID); err != nil {
		return fmt.Errorf("drop data of execution %d: %w", executionID, err)
	}
	return nil
}

// dropStagingTables removes staging tables a previous process left behind.
func dropStagingTables(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'jobstage\_%' ESCAPE '\'`)
	if err != nil {
		return fmt.Errorf("find staging tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return fmt.Errorf("find staging tables: %w", err)
		}
		names = append(names, n)
	}
	rows.Close()
	for _, n := range names {
		if _, err := db.ExecContext(ctx, `DROP TABLE IF EXISTS `+quoteIdent(n)); err != nil {
			return fmt.Errorf("drop staging table %s: %w", n, err)
		}
	}
	return nil
}

// cellKind is the SQLite storage class a cell is written with.
type cellKind uint8

const (
	nullCell cellKind = iota
	integerCell
	realCell
	textCell
	blobCell
)

// cell is one value of a row, typed once when it is read, so that rows are
// buffered and bound without an interface box per value.
type cell struct {
	kind cellKind
	i    int64
	f    float64
	s    string
	b    []byte
}

// bind binds the cell to a statement's parameter (numbered from 1); SQLite
// copies text and blobs, so the cell's memory is free again afterwards.
func (c cell) bind(stmt *zsqlite.Stmt, param int) {
	switch c.kind {
	case nullCell:
		stmt.BindNull(param)
	case integerCell:
		stmt.BindInt64(param, c.i)
	case realCell:
		stmt.BindFloat(param, c.f)
	case textCell:
		stmt.BindText(param, c.s)
	case blobCell:
		stmt.BindBytes(param, c.b)
	}
}

// size is the stored size of the cell, for the OUTPUT_BYTES counters.
func (c cell) size() int64 {
	switch c.kind {
	case nullCell:
		return 0
	case textCell:
		return int64(len(c.s))
	case blobCell:
		return int64(len(c.b))
	}
	return 8
}

// anyCell types a value read through database/sql the way the driver would
// bind it: booleans as integers, times as their text.
func anyCell(v any) cell {
	switch x := v.(type) {
	case nil:
		return cell{}
	case int64:
		return cell{kind: integerCell, i: x}
	case float64:
		return cell{kind: realCell, f: x}
	case bool:
		if x {
			return cell{kind: integerCell, i: 1}
		}
		return cell{kind: integerCell}
	case string:
		return cell{kind: textCell, s: x}
	case []byte:
		return cell{kind: blobCell, b: x}
	case time.Time:
		return cell{kind: textCell, s: x.String()}
	}
	return cell{kind: textCell, s: fmt.Sprint(v)}
}

// parseCell types a text cell: integers and decimal numbers become numbers
// (so workbook SQL compares and sums them), an empty cell becomes NULL,
// anything else stays text. Numbers with a leading zero ("007", zip codes)
// stay text. The cell's syntax is checked before it is parsed, so text and
// dates cost no parse attempt and no error value.
func parseCell(s string) cell {
	if s == "" {
		return cell{}
	}
	switch numberSyntax(s) {
	case integerText:
		if i, ok := parseInt64(s); ok {
			return cell{kind: integerCell, i: i}
		}
		fallthrough // too large for int64: a decimal number
	case decimalText:
		// The syntax is right, so the only failure left is a value out of
		// range, which comes back infinite.
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
			return cell{kind: realCell, f: f}
		}
	}
	return cell{kind: textCell, s: s}
}

// textKind is what numberSyntax finds a cell to be.
type textKind int

const (
	plainText textKind = iota
	integerText
	decimalText
)

// numberSyntax says whether s is an integer ([+-]digits) or a decimal
// number ([+-]digits[.digits][e[+-]digits], or .digits) as strconv reads
// them, with no leading zero before another digit.
func numberSyntax(s string) textKind {
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intDigits := i - intStart
	if intDigits > 1 && s[intStart] == '0' || intDigits == 1 && s[intStart] == '0' && i < len(s) && s[i] != '.' {
		return plainText // 007, 0e5: kept as written
	}
	if i == len(s) {
		if intDigits == 0 {
			return plainText
		}
		return integerText
	}
	fracDigits := 0
	if s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			fracDigits++
		}
	}
	if intDigits+fracDigits == 0 {
		return plainText
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		expStart := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == expStart {
			return plainText
		}
	}
	if i != len(s) {
		return plainText
	}
	return decimalText
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseInt64 reads [+-]digits, which numberSyntax checked; it reports
// false when the value does not fit an int64.
func parseInt64(s string) (int64, bool) {
	neg := s[0] == '-'
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	var u uint64
	for i := 0; i < len(s); i++ {
		d := uint64(s[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			return 0, false
		}
		u = u*10 + d
	}
	switch {
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	case neg && u <= -math.MinInt64:
		return -int64(u), true
	}
	return 0, false
}

// dataFile is the database file of the engine's pool, with the pool's
// settings, for the connections that write staged rows. Those connections
// use the same modernc.org/sqlite/lib as the pool, so SQLite's locks are
// shared within the process and the pool's busy timeout applies to both.
type dataFile struct {
	path        string
	busyTimeout time.Duration
	synchronous int
}

// readDataFile asks one of the pool's connections for its file and settings.
func readDataFile(ctx context.Context, db *sql.DB) (dataFile, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return dataFile{}, fmt.Errorf("database file: %w", err)
	}
	defer conn.Close()
	var f dataFile
	var busyMillis int64
	if err := conn.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&f.path); err != nil {
		return dataFile{}, fmt.Errorf("database file: %w", err)
	}
	if f.path == "" {
		return dataFile{}, errors.New("database file: the engine's database is not a file")
	}
	if err := conn.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busyMillis); err != nil {
		return dataFile{}, fmt.Errorf("database file %s: %w", f.path, err)
	}
	if err := conn.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&f.synchronous); err != nil {
		return dataFile{}, fmt.Errorf("database file %s: %w", f.path, err)
	}
	f.busyTimeout = time.Duration(busyMillis) * time.Millisecond
	return f, nil
}

// open opens a connection of its own to the file. The journal mode (WAL)
// is the file's and needs no setting.
func (f dataFile) open() (*zsqlite.Conn, error) {
	conn, err := zsqlite.OpenConn(f.path, zsqlite.OpenReadWrite)
	if err != nil {
		return nil, err
	}
	conn.SetBusyTimeout(f.busyTimeout)
	if err := sqlitex.ExecuteTransient(conn, "PRAGMA synchronous = "+strconv.Itoa(f.synchronous), nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("open %s: %w", f.path, err)
	}
	return conn, nil
}

// latestData returns the table of the newest stored data set of a file.
func (e *Engine) latestData(ctx context.Context, f File) (string, error) {
	var table string
	err := e.db.QueryRowContext(ctx, `SELECT table_name FROM job_data WHERE file_id = ? AND deleted_ms IS NULL
		ORDER BY execution_id DESC LIMIT 1`, f.ID).Scan(&table)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("%s has no data: run it first", f.Path)
	}
	if err != nil {
		return "", fmt.Errorf("data of %s: %w", f.Path, err)
	}
	return table, nil
}

// DataOwner returns the file id of the execution whose data id is given, so
// the caller can check permissions before DeleteData; ErrNotFound when the
// execution produced no data.
func (e *Engine) DataOwner(ctx context.Context, executionID int64) (int64, error) {
	var fileID int64
	err := e.db.QueryRowContext(ctx, `SELECT file_id FROM job_data WHERE execution_id = ?`, executionID).Scan(&fileID)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("data of job execution %d: %w", executionID, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("data of job execution %d: %w", executionID, err)
	}
	return fileID, nil
}

// DeleteData removes the data an execution produced. It answers
// DeletionAlreadyMarked when that data is gone already, and an error
// wrapping ErrNotFound when the execution produced none.
func (e *Engine) DeleteData(ctx context.Context, executionID int64) (model.DeletionOutcome, error) {
	e.writes.Lock()
	defer e.writes.Unlock()
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		return model.DeletionFailed, fmt.Errorf("delete data of job execution %d: %w", executionID, err)
	}
	defer tx.Rollback()
	var table string
	var deleted sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT table_name, deleted_ms FROM job_data WHERE execution_id = ?`, executionID).Scan(&table, &deleted)
	if errors.Is(err, sql.ErrNoRows) {
		return model.DeletionFailed, fmt.Errorf("data of job execution %d: %w", executionID, ErrNotFound)
	}
	if err != nil {
		return model.DeletionFailed, fmt.Errorf("delete data of job execution %d: %w", executionID, err)
	}
	if deleted.Valid {
		return model.DeletionAlreadyMarked, nil
	}
	if err := dropData(ctx, tx, executionID, table, time.Now()); err != nil {
		return model.DeletionFailed, err
	}
	if err := tx.Commit(); err != nil {
		return model.DeletionFailed, fmt.Errorf("delete data of job execution %d: %w", executionID, err)
	}
	return model.DeletionMarked, nil
}
