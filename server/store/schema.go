package store

import (
	"context"
	"database/sql"

	"github.com/google/uuid"
)

// RootID is the file id of the root folder, as on the real platform.
const RootID = 1

// migrations bring the store's schema from version i to i+1 (Migrate).
// Append only: a released migration never changes.
func (s *Store) migrations() []Migration {
	return []Migration{
		createSchema,
		addPeople,
		addTagsAndVersions,
		s.sealSecretsStoredPlain,
	}
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

// migrate brings the store's tables to the newest schema.
func (s *Store) migrate(ctx context.Context) error {
	return Migrate(ctx, s.db, Schema{Part: "store", Steps: s.migrations(), Legacy: userVersion})
}

// userVersion is where data directories made before schema_versions
// recorded the store's schema: PRAGMA user_version, reset once read.
func userVersion(ctx context.Context, tx *sql.Tx) (int, error) {
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return 0, err
	}
	_, err := tx.ExecContext(ctx, `PRAGMA user_version = 0`)
	return version, err
}
