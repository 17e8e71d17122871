package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Every part of the database that keeps tables in it (the store's own, the
// job engine's) migrates them one way, Migrate, which records the version
// of each part in one table, schema_versions. Data directories made before
// it recorded the store's version in PRAGMA user_version and the engine's
// in a table of its own; Schema.Legacy reads such a record once.

// Migration is one step of a part's schema, run in the transaction that
// records it. Append only: a released step never changes.
type Migration func(ctx context.Context, tx *sql.Tx) error

// SQLMigration is a step that runs one SQL script.
func SQLMigration(script string) Migration {
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, script)
		return err
	}
}

// Schema is the schema of one part of the database: the steps that make
// it, in order.
type Schema struct {
	Part  string
	Steps []Migration
	// Legacy, when set, returns the version a data directory recorded
	// before schema_versions (0 for none) and removes that record; it
	// runs once, in the transaction that records the part's version.
	Legacy func(ctx context.Context, tx *sql.Tx) (int, error)
}

// Migrate applies the steps of s the database has not seen, in one
// transaction; a database whose part is newer than s is refused.
func Migrate(ctx context.Context, db *sql.DB, s Schema) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", s.Part, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_versions (
		part    TEXT PRIMARY KEY,
		version INTEGER NOT NULL
	) WITHOUT ROWID`); err != nil {
		return fmt.Errorf("migrate %s: %w", s.Part, err)
	}
	var version int
	err = tx.QueryRowContext(ctx, `SELECT version FROM schema_versions WHERE part = ?`, s.Part).Scan(&version)
	recorded := err == nil
	switch {
	case errors.Is(err, sql.ErrNoRows) && s.Legacy != nil:
		if version, err = s.Legacy(ctx, tx); err != nil {
			return fmt.Errorf("migrate %s: read the version recorded before schema_versions: %w", s.Part, err)
		}
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("migrate %s: read schema version: %w", s.Part, err)
	}
	if version > len(s.Steps) {
		return fmt.Errorf("migrate %s: database schema %d is newer than this program's %d", s.Part, version, len(s.Steps))
	}
	if recorded && version == len(s.Steps) {
		return nil
	}
	for v := version; v < len(s.Steps); v++ {
		if err := s.Steps[v](ctx, tx); err != nil {
			return fmt.Errorf("migrate %s to schema %d: %w", s.Part, v+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_versions(part, version) VALUES (?, ?)
		ON CONFLICT(part) DO UPDATE SET version = excluded.version`, s.Part, len(s.Steps)); err != nil {
		return fmt.Errorf("migrate %s: %w", s.Part, err)
	}
	return tx.Commit()
}
