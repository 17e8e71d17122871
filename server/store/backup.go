package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapconsole/dapconsole/model"
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

// Exported is what a backup writes of one file: the file, its stored
// configuration (Representation makes the JSON a read returns of it) and
// its group entries when they were asked for.
type Exported struct {
	File   File
	Groups []GroupPermission
	// stored is the configuration as the store holds it ("" for a folder),
	// sources the files it reads from, as ExportBatch was given them.
	stored  string
	sources []File
}

// HasConfiguration reports whether the file has a representation (a
// folder has none).
func (e Exported) HasConfiguration() bool { return e.stored != "" }

// Representation returns the file's JSON as a read returns it: secrets
// encoded, links naming their files as they are now, and mask (nil for
// none) applied to the links of a file that has any. The stored JSON of a
// file without links is copied with its file member and its secrets
// replaced (spliceRepresentation), not decoded and encoded again: for most
// files of a backup that round trip costs more than everything else.
func (e Exported) Representation(mask func(*model.Configuration)) ([]byte, error) {
	if len(e.sources) == 0 {
		if body, ok := spliceRepresentation(e.stored, e.File); ok {
			return body, nil
		}
	}
	cfg, err := configurationOf(e.File, e.stored, e.sources)
	if err != nil {
		return nil, err
	}
	cfg = EncodeSecrets(cfg)
	if mask != nil {
		mask(&cfg)
	}
	body, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("representation of %s: %w", e.File.Path, err)
	}
	return body, nil
}

// ExportBatch reads the representations, descriptions and (withGroups) the
// group entries of files, a query for each rather than one per file; files
// may come from DescendantsOutline; sources are the files' sources as
// SourcesBelow returned them. Callers pass a few hundred files at a time,
// which keeps memory flat however large the tree.
func (q Queries) ExportBatch(ctx context.Context, files []File, sources map[int64][]File, withGroups bool) ([]Exported, error) {
	if len(files) == 0 {
		return nil, nil
	}
	ids := make([]any, len(files))
	index := make(map[int64]int, len(files))
	out := make([]Exported, len(files))
	for i, f := range files {
		ids[i], index[f.ID], out[i].File = f.ID, i, f
	}
	in := `(?` + strings.Repeat(",?", len(ids)-1) + `)`
	err := q.eachRow(ctx, `SELECT id, config, description FROM files WHERE config IS NOT NULL AND id IN `+in, ids, func(rows *sql.Rows) error {
		var id int64
		var raw, description string
		if err := rows.Scan(&id, &raw, &description); err != nil {
			return err
		}
		e := &out[index[id]]
		e.File.Description, e.stored, e.sources = description, raw, sources[id]
		return nil
	})
	if err != nil || !withGroups {
		return out, err
	}
	err = q.eachRow(ctx, `SELECT fg.file_id, g.id, g.name, fg.readable, fg.writable, fg.executable
		FROM file_groups fg JOIN groups g ON g.id = fg.group_id WHERE fg.file_id IN `+in+` ORDER BY fg.file_id, g.name`, ids,
		func(rows *sql.Rows) error {
			var id int64
			var gp GroupPermission
			if err := rows.Scan(&id, &gp.Group.ID, &gp.Group.Name, &gp.Flags.Readable, &gp.Flags.Writable, &gp.Flags.Executable); err != nil {
				return err
			}
			out[index[id]].Groups = append(out[index[id]].Groups, gp)
			return nil
		})
	return out, err
}

// eachRow runs a query and hands every row to fn.
func (q Queries) eachRow(ctx context.Context, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return rows.Err()
}
