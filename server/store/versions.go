package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dapconsole/dapconsole/model"
)

// createConfigVersions adds the earlier versions of configurations that a
// workbook rollback returns to; they go with their file.
func createConfigVersions(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE config_versions (
		file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
		seq         INTEGER NOT NULL,
		config      TEXT    NOT NULL,
		description TEXT    NOT NULL,
		PRIMARY KEY (file_id, seq)
	) WITHOUT ROWID`)
	return err
}

// MaxVersions is how many earlier versions of one file are kept.
const MaxVersions = 20

// KeepVersion saves cfg, as stored (secrets sealed), as the latest earlier
// version of a file, dropping the oldest past MaxVersions. Call it on a Tx.
func (q Queries) KeepVersion(ctx context.Context, f File, cfg model.Configuration) error {
	raw, err := q.storedJSON(cfg)
	if err != nil {
		return fmt.Errorf("keep a version of %s: %w", f.Path, err)
	}
	if _, err := q.q.ExecContext(ctx, `INSERT INTO config_versions(file_id, seq, config, description)
		VALUES (?, coalesce((SELECT max(seq) FROM config_versions WHERE file_id = ?), 0) + 1, ?, ?)`,
		f.ID, f.ID, raw, cfg.File.Description); err != nil {
		return fmt.Errorf("keep a version of %s: %w", f.Path, err)
	}
	if _, err := q.q.ExecContext(ctx, `DELETE FROM config_versions WHERE file_id = ? AND seq <=
		(SELECT max(seq) FROM config_versions WHERE file_id = ?) - ?`, f.ID, f.ID, MaxVersions); err != nil {
		return fmt.Errorf("keep a version of %s: %w", f.Path, err)
	}
	return nil
}

// TakeVersion removes a file's latest earlier version and returns it, its
// links as they were stored (ErrNotFound when there is none). Call it on a Tx.
func (q Queries) TakeVersion(ctx context.Context, f File) (model.Configuration, error) {
	var (
		seq              int64
		raw, description string
	)
	err := q.q.QueryRowContext(ctx, `SELECT seq, config, description FROM config_versions WHERE file_id = ?
		ORDER BY seq DESC LIMIT 1`, f.ID).Scan(&seq, &raw, &description)
	if errors.Is(err, sql.ErrNoRows) {
		return model.Configuration{}, fmt.Errorf("%w: %s has no earlier version", ErrNotFound, f.Path)
	}
	if err != nil {
		return model.Configuration{}, fmt.Errorf("earlier version of %s: %w", f.Path, err)
	}
	if _, err := q.q.ExecContext(ctx, `DELETE FROM config_versions WHERE file_id = ? AND seq = ?`, f.ID, seq); err != nil {
		return model.Configuration{}, fmt.Errorf("earlier version of %s: %w", f.Path, err)
	}
	var cfg model.Configuration
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return model.Configuration{}, fmt.Errorf("earlier version of %s: %w", f.Path, err)
	}
	cfg.File = model.FileInfo{UUID: f.UUID, Path: f.Path, Description: description, Name: f.BaseName()}
	return cfg, nil
}
