package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DatabaseFile is the name of the SQLite database inside a data directory.
const DatabaseFile = "dap.db"

// Errors callers tell apart with errors.Is.
var (
	ErrNotFound      = errors.New("not found")
	ErrExists        = errors.New("already exists")
	ErrNotEmpty      = errors.New("folder is not empty")
	ErrBadInput      = errors.New("bad input")
	ErrHasDependents = errors.New("other files depend on it")
)

// DependentsError refuses a delete or an overwrite while other files depend
// on the file; Paths names them.
type DependentsError struct {
	Path  string
	Paths []string
}

func (e *DependentsError) Error() string {
	return fmt.Sprintf("%s: %d file(s) depend on it", e.Path, len(e.Paths))
}

// Unwrap lets errors.Is match ErrHasDependents.
func (e *DependentsError) Unwrap() error { return ErrHasDependents }

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Queries holds every read and write of the store. A Store runs them each in
// its own implicit transaction; a Tx runs them all in one.
type Queries struct {
	q       querier
	secrets *Secrets
}

// Store is an open data directory.
type Store struct {
	Queries
	db  *sql.DB
	dir string
}

// Tx is one transaction: everything done through it commits or rolls back together.
type Tx struct {
	Queries
	Tx *sql.Tx
}

// Open opens (creating it if needed) the store in dir: the database, migrated
// to the newest schema, and the secrets key.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	secrets, err := OpenSecrets(dir)
	if err != nil {
		return nil, err
	}
	// _txlock=immediate takes the write lock at BEGIN, so two writing
	// transactions wait on busy_timeout instead of failing on lock upgrade.
	dsn := "file:" + filepath.Join(dir, DatabaseFile) +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	s := &Store{Queries: Queries{q: db, secrets: secrets}, db: db, dir: dir}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", dir, err)
	}
	return s, nil
}

// DB is the database, for packages that keep their own tables in it (the job
// engine); they migrate their tables through Migrate, as the store does.
func (s *Store) DB() *sql.DB { return s.db }

// Dir is the data directory.
func (s *Store) Dir() string { return s.dir }

// Secrets seals and opens secret property values with the data directory's key.
func (s *Store) Secrets() *Secrets { return s.secrets }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// InTx runs fn in one transaction, committed when fn returns nil and rolled
// back otherwise (a restore is all or nothing this way).
func (s *Store) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(&Tx{Queries: Queries{q: sqlTx, secrets: s.secrets}, Tx: sqlTx}); err != nil {
		sqlTx.Rollback()
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
