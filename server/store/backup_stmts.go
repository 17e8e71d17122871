package store

import (
	"context"
	"database/sql"
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
