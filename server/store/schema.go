package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"
)

// RootID is the file id of the root folder, as on the real platform.
const RootID = 1

// migrations bring the schema from version i to i+1 (PRAGMA user_version).
// Append only: a released migration never changes.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	createSchema,
	addPeople,
	addTagsAndVersions,
}

// addTagsAndVersions is schema 3: file tags (the SetTags command) and the
// earlier versions of configurations (a workbook rollback).
func addTagsAndVersions(ctx context.Context, tx *sql.Tx) error {
	if err := createFileTags(ctx, tx); err != nil {
		return err
	}
	return createConfigVersions(ctx, tx)
}

const schemaV1 = `
CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	admin         INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE groups (
	id   INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);
CREATE TABLE memberships (
	user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
	PRIMARY KEY (user_id, group_id)
) WITHOUT ROWID;
-- owner_id NULL means the built-in "system" owner nobody logs in as.
CREATE TABLE files (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	parent_id      INTEGER REFERENCES files(id),
	path           TEXT NOT NULL UNIQUE,
	name           TEXT NOT NULL,
	kind           TEXT NOT NULL,
	uuid           TEXT NOT NULL UNIQUE,
	config_id      INTEGER UNIQUE,
	owner_id       INTEGER REFERENCES users(id),
	others_read    INTEGER NOT NULL DEFAULT 0,
	others_write   INTEGER NOT NULL DEFAULT 0,
	others_execute INTEGER NOT NULL DEFAULT 0,
	description    TEXT NOT NULL DEFAULT '',
	config         TEXT
);
CREATE INDEX files_parent ON files(parent_id, name);
CREATE INDEX files_kind ON files(kind, config_id);
CREATE TABLE file_groups (
	file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	group_id   INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
	readable   INTEGER NOT NULL,
	writable   INTEGER NOT NULL,
	executable INTEGER NOT NULL,
	PRIMARY KEY (file_id, group_id)
) WITHOUT ROWID;
-- A source cannot be deleted while a file reads from it (no ON DELETE).
CREATE TABLE file_sources (
	file_id   INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
	position  INTEGER NOT NULL,
	source_id INTEGER NOT NULL REFERENCES files(id),
	PRIMARY KEY (file_id, position)
) WITHOUT ROWID;
CREATE INDEX file_sources_source ON file_sources(source_id);
-- Configuration ids come from their own counter so they never repeat.
CREATE TABLE sequences (
	name TEXT PRIMARY KEY,
	next INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO sequences(name, next) VALUES ('configuration', 1);
`

func createSchema(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, schemaV1); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx,
		`INSERT INTO files(id, parent_id, path, name, kind, uuid, others_read) VALUES (?, NULL, '/', '/', 'folder', ?, 1)`,
		RootID, uuid.NewString())
	return err
}

// migrate applies the migrations the database has not seen, in one transaction.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("migrate: read schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("migrate: database schema %d is newer than this program's %d", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		if err := migrations[v](ctx, tx); err != nil {
			return fmt.Errorf("migrate to schema %d: %w", v+1, err)
		}
	}
	if version == len(migrations) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(migrations))); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return tx.Commit()
}
