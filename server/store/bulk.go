package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// What a restore reads and writes of the tree in bulk, beside the
// queries every handler uses: the checks that read many files at once,
// the stored form of a configuration made ahead on another core, and the
// batched insert of new files.

// PreparedFile is a new file checked and made into its row, for a FileBatch.
type PreparedFile struct{ row fileRow }

// UUID is the file's UUID: the one it was given, or a new one.
func (p PreparedFile) UUID() string { return p.row.uuid }

// PrepareFile checks the file CreateFile describes and makes its row, as
// CreateFile does; stored, when not nil, is its configuration encoded
// ahead (EncodeConfig, AppendStoredForm), and configID, when not 0, the
// configuration id reserved for it (ReserveConfigIDs).
func (q Queries) PrepareFile(ctx context.Context, nf NewFile, stored *StoredConfig, configID int64) (PreparedFile, error) {
	nf.stored, nf.configID = stored, configID
	row, err := q.newFileRow(ctx, nf)
	return PreparedFile{row}, err
}

// EncodeConfig checks a configuration of the kind and encodes it as
// stored, its links naming sources (the files they resolved to, in order).
// It reads nothing, so a restore runs it on other cores than the writer's.
func (q Queries) EncodeConfig(cfg model.Configuration, kind model.Kind, sources []File) (*StoredConfig, error) {
	return q.encodeConfig(cfg, kind, sources)
}

// AppendStoredForm appends to b the stored form of a representation of a
// new file without links, made without decoding it when it is in the form
// a backup writes (storedRepresentation) and checked as EncodeConfig
// checks it, encoded for StoredFormOf; and returns its file member (its
// uuid and path: the file's identity). It gives false when the body must
// be decoded (which tells what is wrong with it, if anything). A restore
// makes the stored forms while it checks an archive's bodies, on every
// core, and keeps them in a file until it writes them: it reads nothing.
func (q Queries) AppendStoredForm(b, representation []byte) ([]byte, model.FileInfo, bool) {
	start := len(b)
	b = append(b, 0, 0, 0, 0) // the length of the JSON, once known
	b, file, ok := storedRepresentation(b, representation, q.secrets.acceptSealed)
	if !ok || VisibleText("file.description", file.Description) != nil {
		return b[:start], model.FileInfo{}, false
	}
	binary.LittleEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return append(b, file.Description...), file, true
}

// StoredFormOf reads back a stored form AppendStoredForm encoded; it
// keeps nothing of encoded.
func StoredFormOf(encoded []byte) (*StoredConfig, error) {
	if len(encoded) < 4 || uint64(binary.LittleEndian.Uint32(encoded)) > uint64(len(encoded)-4) {
		return nil, errors.New("a stored form does not read")
	}
	end := 4 + int(binary.LittleEndian.Uint32(encoded))
	text := string(encoded[4:]) // one copy for both
	return &StoredConfig{json: text[:end-4], description: text[end-4:]}, nil
}

// StoredIdentity is the file member (uuid, path) of a representation
// without links in the form a backup writes, read without decoding it;
// false for any other.
func StoredIdentity(representation []byte) (model.FileInfo, bool) {
	_, file, ok := storedRepresentation(nil, representation, nil)
	return file, ok
}

// ReserveConfigIDs takes n configuration ids from their counter, returning
// the first: a restore takes those of all its files at once.
func (q Queries) ReserveConfigIDs(ctx context.Context, n int) (int64, error) {
	return q.reserveConfigIDs(ctx, n)
}

// PermissionsOf returns a file's others flags and group flags.
func (q Queries) PermissionsOf(ctx context.Context, id int64) (*Permissions, error) {
	return q.permissionsOf(ctx, id)
}

// ClearGroupPermissions removes every group's flags on a file.
func (q Queries) ClearGroupPermissions(ctx context.Context, fileID int64) error {
	if _, err := q.q.ExecContext(ctx, `DELETE FROM file_groups WHERE file_id = ?`, fileID); err != nil {
		return fmt.Errorf("clear group permissions of file %d: %w", fileID, err)
	}
	return nil
}

// FilesAtPaths returns the files the tree holds at paths, by path, without
// their descriptions: identity and permissions are all a restore's checks
// need of them.
func (q Queries) FilesAtPaths(ctx context.Context, paths []any) (map[string]File, error) {
	found := make(map[string]File, len(paths))
	if len(paths) == 0 {
		return found, nil
	}
	files, err := q.filesSelect(ctx, "files at the restore's paths", outlineColumns,
		`WHERE f.path IN (?`+strings.Repeat(",?", len(paths)-1)+`)`, paths...)
	for _, f := range files {
		found[f.Path] = f
	}
	return found, err
}

// TakenUUIDs returns which of the UUIDs files of the tree hold.
func (q Queries) TakenUUIDs(ctx context.Context, uuids []any) (map[string]bool, error) {
	return selectedAmong[string](ctx, q, "uuids", `SELECT uuid FROM files WHERE uuid`, uuids)
}

// ReadFrom returns which of the files (by id) others read from.
func (q Queries) ReadFrom(ctx context.Context, ids []any) (map[int64]bool, error) {
	return selectedAmong[int64](ctx, q, "dependents", `SELECT DISTINCT source_id FROM file_sources WHERE source_id`, ids)
}

// selectedAmong returns which of values the query, completed with an IN
// list of them, selects.
func selectedAmong[T comparable](ctx context.Context, q Queries, what, query string, values []any) (map[T]bool, error) {
	selected := map[T]bool{}
	if len(values) == 0 {
		return selected, nil
	}
	rows, err := q.q.QueryContext(ctx, query+` IN (?`+strings.Repeat(",?", len(values)-1)+`)`, values...)
	if err != nil {
		return nil, fmt.Errorf("restore: %s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("restore: %s: %w", what, err)
		}
		selected[v] = true
	}
	return selected, rows.Err()
}

// CheckedWrite runs a write whose checks read the tree, holding SQLite's
// write lock only for the writes when it can. With early set, early runs
// first, outside any transaction, on one connection, noting SQLite's
// data_version; then the write lock is taken (BEGIN IMMEDIATE) on that
// connection and locked runs in the transaction, told whether another
// connection committed in between (changed: the early checks must run
// again, under the lock, so that no change slips between check and
// write). Without early, changed is true. The transaction commits when
// locked returns nil; held is how long the write lock was held then.
func (s *Store) CheckedWrite(ctx context.Context, early func(q Queries), locked func(tx *Tx, changed bool) error) (held time.Duration, err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("checked write: %w", err)
	}
	defer conn.Close()
	// Statement journals in memory: each of a restore's inserts of many
	// rows journals the pages it changes, for its own rollback, and past
	// 64 KiB SQLite writes that journal to a temporary file (a restore of
	// 10,000 files took a tenth less processor time in memory). What is
	// committed is journalled as before. Set for this write only, outside
	// any transaction, as SQLite asks; the connection goes back to the pool.
	var tempStore int
	if err := conn.QueryRowContext(ctx, "PRAGMA temp_store").Scan(&tempStore); err != nil {
		return 0, fmt.Errorf("checked write: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
		return 0, fmt.Errorf("checked write: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA temp_store = %d", tempStore)) // after the commit or rollback
	checkedAt, err := dataVersion(ctx, conn)
	if err != nil {
		return 0, err
	}
	if early != nil {
		early(Queries{q: conn, secrets: s.secrets})
	}
	sqlTx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		return 0, fmt.Errorf("begin transaction: %w", err)
	}
	start := time.Now()
	defer sqlTx.Rollback() // after a commit, a no-op
	lockedAt, err := dataVersion(ctx, sqlTx)
	if err != nil {
		return 0, err
	}
	tx := &Tx{Queries: Queries{q: sqlTx, secrets: s.secrets}.cached(), Tx: sqlTx}
	if err := locked(tx, early == nil || lockedAt != checkedAt); err != nil {
		return 0, err
	}
	if err := sqlTx.Commit(); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return time.Since(start), nil
}

// dataVersion is SQLite's count, for the connection q runs on, of the
// commits other connections made.
func dataVersion(ctx context.Context, q querier) (int64, error) {
	var v int64
	if err := q.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("restore: data version: %w", err)
	}
	return v, nil
}
