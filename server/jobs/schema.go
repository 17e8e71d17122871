package jobs

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order, each once; jobs_schema_version records
// how many ran. Append only: an applied migration is never edited.
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
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS jobs_schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("jobs schema: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("jobs schema: %w", err)
	}
	defer tx.Rollback()
	var version int
	err = tx.QueryRowContext(ctx, `SELECT version FROM jobs_schema_version`).Scan(&version)
	switch {
	case err == sql.ErrNoRows:
		if _, err := tx.ExecContext(ctx, `INSERT INTO jobs_schema_version (version) VALUES (0)`); err != nil {
			return fmt.Errorf("jobs schema: %w", err)
		}
	case err != nil:
		return fmt.Errorf("jobs schema version: %w", err)
	}
	for i := version; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("jobs schema migration %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE jobs_schema_version SET version = ?`, len(migrations)); err != nil {
		return fmt.Errorf("jobs schema: %w", err)
	}
	return tx.Commit()
}
