package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SourcesBelow returns, for every file below a folder that reads from other
// files, its sources in order, in one query (a backup checks them all).
func (q Queries) SourcesBelow(ctx context.Context, folder File) (map[int64][]File, error) {
	what := "sources of the contents of " + folder.Path
	below, args := `SELECT id FROM files WHERE id <> ?`, []any{RootID}
	if folder.ID != RootID {
		below, args = `SELECT id FROM files WHERE path > ? AND path < ?`, []any{folder.Path + "/", folder.Path + "0"}
	}
	rows, err := q.q.QueryContext(ctx, `SELECT s.file_id, `+fileColumns+fileFrom+
		`JOIN file_sources s ON s.source_id = f.id WHERE s.file_id IN (`+below+`) ORDER BY s.file_id, s.position`, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := map[int64][]File{}
	for rows.Next() {
		var dependent int64
		f, err := scanFile(prefixScanner{rows, &dependent})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out[dependent] = append(out[dependent], f)
	}
	return out, rows.Err()
}

// prefixScanner scans one extra leading column before what scanFile reads.
type prefixScanner struct {
	rows  *sql.Rows
	first any
}

func (p prefixScanner) Scan(dest ...any) error {
	return p.rows.Scan(append([]any{p.first}, dest...)...)
}
