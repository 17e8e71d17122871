package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/dapconsole/dapconsole/model"
)

// sealSecretsStoredPlain is schema 4. Earlier versions sealed the secrets
// of properties only, under a narrower rule of names; values they kept in
// plain text under names that are secrets now (hadoopProperties lines,
// members named like secrets, properties such as access_key) are sealed
// here, in the configurations and in their kept versions, as a write seals
// them (storedJSON). A read hands out no plain value (Encode): unsealed,
// such a value read back empty, and a client that saved the form back
// would have lost it. A configuration that does not take the rule (a value
// shaped like another server's sealed one) is left as it was.
func (s *Store) sealSecretsStoredPlain(ctx context.Context, tx *sql.Tx) error {
	q := Queries{q: tx, secrets: s.secrets}
	for _, table := range []struct {
		name, key, where string
		keys             int // how many of a row's id and seq the where takes
	}{
		{"files", "id, 0", "id = ?", 1},
		{"config_versions", "file_id, seq", "file_id = ? AND seq = ?", 2},
	} {
		rows, err := tx.QueryContext(ctx, `SELECT `+table.key+`, config FROM `+table.name+` WHERE config IS NOT NULL`)
		if err != nil {
			return fmt.Errorf("seal stored secrets in %s: %w", table.name, err)
		}
		type row struct {
			id, seq int64
			config  string
		}
		var resealed []row
		for rows.Next() {
			var r row
			var raw string
			if err := rows.Scan(&r.id, &r.seq, &raw); err != nil {
				rows.Close()
				return fmt.Errorf("seal stored secrets in %s: %w", table.name, err)
			}
			var cfg model.Configuration
			if json.Unmarshal([]byte(raw), &cfg) != nil {
				continue
			}
			if stored, err := q.storedJSON(cfg); err == nil && stored != raw {
				r.config = stored
				resealed = append(resealed, r)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("seal stored secrets in %s: %w", table.name, err)
		}
		for _, r := range resealed {
			args := []any{r.config, r.id, r.seq}[:1+table.keys]
			if _, err := tx.ExecContext(ctx, `UPDATE `+table.name+` SET config = ? WHERE `+table.where, args...); err != nil {
				return fmt.Errorf("seal stored secrets in %s: %w", table.name, err)
			}
		}
	}
	return nil
}
