package store

import (
	"context"
	"database/sql"
	"fmt"
)

// createFileTags adds the tags the platform's SetTags command gives a
// file; a file's tags go with it.
func createFileTags(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `CREATE TABLE file_tags (
		file_id  INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
		position INTEGER NOT NULL,
		tag      TEXT    NOT NULL,
		PRIMARY KEY (file_id, position)
	) WITHOUT ROWID`)
	return err
}

// MaxTags and MaxTagLength bound what SetTags keeps of one file.
const (
	MaxTags      = 100
	MaxTagLength = 255
)

// SetTags replaces a file's tags with tags, in their order, each once. A
// tag must be 1 to MaxTagLength bytes of visible text (ErrBadInput).
func (q Queries) SetTags(ctx context.Context, fileID int64, tags []string) error {
	if len(tags) > MaxTags {
		return fmt.Errorf("%w: %d tags; at most %d", ErrBadInput, len(tags), MaxTags)
	}
	seen := map[string]bool{}
	var kept []string
	for _, tag := range tags {
		if tag == "" || len(tag) > MaxTagLength {
			return fmt.Errorf("%w: tag %q: want 1 to %d bytes", ErrBadInput, tag, MaxTagLength)
		}
		if err := VisibleText("tag", tag); err != nil {
			return err
		}
		if !seen[tag] {
			seen[tag] = true
			kept = append(kept, tag)
		}
	}
	if _, err := q.q.ExecContext(ctx, `DELETE FROM file_tags WHERE file_id = ?`, fileID); err != nil {
		return fmt.Errorf("tags of %d: %w", fileID, err)
	}
	for i, tag := range kept {
		if _, err := q.q.ExecContext(ctx, `INSERT INTO file_tags(file_id, position, tag) VALUES (?, ?, ?)`, fileID, i, tag); err != nil {
			return fmt.Errorf("tags of %d: %w", fileID, err)
		}
	}
	return nil
}

// Tags returns a file's tags in the order they were set; none is an empty list.
func (q Queries) Tags(ctx context.Context, fileID int64) ([]string, error) {
	rows, err := q.q.QueryContext(ctx, `SELECT tag FROM file_tags WHERE file_id = ? ORDER BY position`, fileID)
	if err != nil {
		return nil, fmt.Errorf("tags of %d: %w", fileID, err)
	}
	defer rows.Close()
	tags := []string{}
	for rows.Next() {
		var tag string
		if err := rows.Scan(&tag); err != nil {
			return nil, fmt.Errorf("tags of %d: %w", fileID, err)
		}
		tags = append(tags, tag)
	}
	return tags, rows.Err()
}
