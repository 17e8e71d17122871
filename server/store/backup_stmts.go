package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// stmtCache runs queries through statements prepared once per query text,
// for the length of one transaction: a restore issues the same dozen
// queries for every file, and parsing the SQL each time costs more than
// running it.
type stmtCache struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

// maxCachedStmts bounds the cache; queries with IN lists of many lengths
// past it simply run unprepared.
const maxCachedStmts = 128

// cached returns q running through a statement cache when q is a
// transaction, and q itself otherwise. The statements close with the transaction.
func (q Queries) cached() Queries {
	tx, ok := q.q.(*sql.Tx)
	if !ok {
		return q
	}
	return Queries{q: &stmtCache{tx: tx, stmts: map[string]*sql.Stmt{}}, secrets: q.secrets}
}

func (c *stmtCache) stmt(ctx context.Context, query string) *sql.Stmt {
	if s, ok := c.stmts[query]; ok {
		return s
	}
	if len(c.stmts) >= maxCachedStmts {
		return nil
	}
	s, err := c.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil // the unprepared run reports the error
	}
	c.stmts[query] = s
	return s
}

func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return c.tx.ExecContext(ctx, query, args...)
}

func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return c.tx.QueryContext(ctx, query, args...)
}

func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return c.tx.QueryRowContext(ctx, query, args...)
}

// batchRows is how many rows one statement of a rowBatch inserts: past a
// few dozen, a longer statement saves nothing more than the per-statement
// work of database/sql and the driver (BenchmarkInsertFloor).
const batchRows = 64

// rowBatch gathers rows for one table and inserts them batchRows to a
// statement, prepared once per length.
type rowBatch struct {
	insert string // "INSERT INTO t(columns) VALUES "
	params string // the parameters of one row, "(?,?,?)"
	width  int    // the values of one row
	args   []any
	labels []string // what each row is, to name the one that fails
}

func newRowBatch(insert, params string) rowBatch {
	return rowBatch{insert: insert, params: params, width: strings.Count(params, "?")}
}

// add queues a row of values, named label in an error.
func (b *rowBatch) add(label string, args []any) {
	b.args = append(b.args, args...)
	b.labels = append(b.labels, label)
}

func (b *rowBatch) full() bool { return len(b.labels) >= batchRows }

// flush inserts the queued rows. When a statement fails, its rows are
// inserted again one by one, so that the error names the row that fails
// (a failed statement leaves nothing behind); fail wraps it with the
// row's label.
func (b *rowBatch) flush(ctx context.Context, q querier, fail func(label string, err error) error) error {
	defer func() { b.args, b.labels = b.args[:0], b.labels[:0] }()
	for first := 0; first < len(b.labels); first += batchRows {
		n := min(len(b.labels)-first, batchRows)
		args := b.args[first*b.width : (first+n)*b.width]
		if _, err := q.ExecContext(ctx, b.statement(n), args...); err != nil {
			return b.failedRow(ctx, q, first, n, err, fail)
		}
	}
	return nil
}

// failedRow finds, one row at a time, which of the n rows from first fails.
func (b *rowBatch) failedRow(ctx context.Context, q querier, first, n int, batchErr error, fail func(string, error) error) error {
	one := b.statement(1)
	for k := first; k < first+n; k++ {
		if _, err := q.ExecContext(ctx, one, b.args[k*b.width:(k+1)*b.width]...); err != nil {
			return fail(b.labels[k], err)
		}
	}
	return fail(b.labels[first], batchErr) // every row alone went in: the statement's own error, on its first row
}

func (b *rowBatch) statement(rows int) string {
	return b.insert + b.params + strings.Repeat(","+b.params, rows-1)
}

// FileBatch inserts a restore's new files batchRows to a statement, their
// group flags and sources after them. Each file takes its id when it is
// queued, so the files that read from it name it before it is written.
type FileBatch struct {
	q                      Queries
	files, groups, sources rowBatch
	nextID                 int64 // the id the next file queued takes; 0 until read
	scratch                []any
}

// NewFileBatch returns an empty batch writing through q (a transaction's).
func (q Queries) NewFileBatch() *FileBatch {
	return &FileBatch{q: q, files: newRowBatch(insertFiles, fileRowParams),
		groups: newRowBatch(insertFileGroups, fileGroupParams), sources: newRowBatch(insertFileSources, fileSourceParams)}
}

// Add queues a prepared file and returns the id it takes (see add).
func (b *FileBatch) Add(ctx context.Context, p PreparedFile) (int64, error) { return b.add(ctx, p.row) }

// add queues a new file's row and returns the id it takes: the next one
// AUTOINCREMENT would give, as the batch is the only writer of files
// between its flushes.
func (b *FileBatch) add(ctx context.Context, row fileRow) (int64, error) {
	if b.nextID == 0 {
		if err := b.q.q.QueryRowContext(ctx, `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'files'), 0),
			coalesce((SELECT max(id) FROM files), 0)) + 1`).Scan(&b.nextID); err != nil {
			return 0, fmt.Errorf("create %s: file id: %w", row.path, err)
		}
	}
	row.id = b.nextID
	b.nextID++
	b.scratch = row.appendArgs(b.scratch[:0])
	b.files.add(row.path, b.scratch)
	for gid, flags := range row.groups {
		b.scratch = fileGroupArgs(b.scratch[:0], row.id, gid, flags)
		b.groups.add(row.path, b.scratch)
	}
	// A file made now is no file's source yet, so none of its sources is itself.
	for position, source := range row.sources {
		b.sources.add(row.path, append(b.scratch[:0], row.id, position, source.ID))
	}
	if b.files.full() || b.groups.full() || b.sources.full() {
		return row.id, b.Flush(ctx)
	}
	return row.id, nil
}

// Flush inserts what is queued: files first, for the rows that refer to them.
func (b *FileBatch) Flush(ctx context.Context) error {
	b.nextID = 0
	if err := b.files.flush(ctx, b.q.q, insertError); err != nil {
		return err
	}
	if err := b.groups.flush(ctx, b.q.q, func(path string, err error) error {
		return fmt.Errorf("create %s: group: %w", path, err)
	}); err != nil {
		return err
	}
	return b.sources.flush(ctx, b.q.q, func(path string, err error) error {
		return fmt.Errorf("create %s: source: %w", path, err)
	})
}
