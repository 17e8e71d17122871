package jobs

import (
	"context"
	"database/sql"
	"errors"

	"github.com/dapconsole/dapconsole/server/store"
)

// migrations are applied in order, each once (store.Migrate records how
// many ran). Append only: an applied migration is never edited.
var migrations = []string{
	`CREATE TABLE job_executions (
		id               INTEGER PRIMARY KEY AUTOINCREMENT,
		file_id          INTEGER NOT NULL,
		file_uuid        TEXT    NOT NULL,
		file_path        TEXT    NOT NULL,
		file_name        TEXT    NOT NULL,
		configuration_id INTEGER NOT NULL,
		user_name        TEXT    NOT NULL,
		trigger_kind     TEXT    NOT NULL,
		state            TEXT    NOT NULL,
		created_ms       INTEGER NOT NULL,
		started_ms       INTEGER,
		stopped_ms       INTEGER,
		progress         REAL    NOT NULL DEFAULT 0,
		success_count    INTEGER NOT NULL DEFAULT 0,
		failure_count    INTEGER NOT NULL DEFAULT 0,
		counters         TEXT    NOT NULL DEFAULT '{}',
		reason           TEXT    NOT NULL DEFAULT ''
	);
	CREATE INDEX job_executions_by_file ON job_executions(file_id, id);
	CREATE INDEX job_executions_by_configuration ON job_executions(configuration_id, id);
	CREATE INDEX job_executions_by_state ON job_executions(state);
	CREATE TABLE job_data (
		execution_id INTEGER PRIMARY KEY REFERENCES job_executions(id),
		file_id      INTEGER NOT NULL,
		table_name   TEXT    NOT NULL UNIQUE,
		row_count    INTEGER NOT NULL,
		created_ms   INTEGER NOT NULL,
		deleted_ms   INTEGER
	);
	CREATE INDEX job_data_by_file ON job_data(file_id, execution_id);`,
	// Each execution's log (GET /file-job), stored when it ends.
	`ALTER TABLE job_executions ADD COLUMN log TEXT NOT NULL DEFAULT '';`,
}

// migrate brings the engine's tables to the newest schema.
func migrate(ctx context.Context, db *sql.DB) error {
	steps := make([]store.Migration, len(migrations))
	for i, script := range migrations {
		steps[i] = store.SQLMigration(script)
	}
	return store.Migrate(ctx, db, store.Schema{Part: "jobs", Steps: steps, Legacy: legacyVersion})
}

// legacyVersion is where data directories made before schema_versions
// recorded the engine's schema: a table of its own, dropped once read.
func legacyVersion(ctx context.Context, tx *sql.Tx) (int, error) {
	var tables int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'jobs_schema_version'`).Scan(&tables); err != nil || tables == 0 {
		return 0, err
	}
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT version FROM jobs_schema_version`).Scan(&version); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	_, err := tx.ExecContext(ctx, `DROP TABLE jobs_schema_version`)
	return version, err
}
