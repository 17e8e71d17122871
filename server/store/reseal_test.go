package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/store"
)

// TestSecretsStoredPlainAreSealedOnUpgrade: a data directory of schema 3
// kept values in plain text under names that are secrets now; they read
// back empty (a read hands out no plain value), so a client saving the
// form back lost them. Opening it seals them, in the configuration and in
// its kept versions, and they open to what was stored.
func TestSecretsStoredPlainAreSealedOnUpgrade(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mkdir(t, st, "/Data")
	f, err := mkfile(st, "/Data/s3.dst")
	if err != nil {
		t.Fatal(err)
	}
	const plain = `{"version":"1","properties":{"access_key":["AKIAOLD"],"host":["h"]},` +
		`"hadoopProperties":"fs.s3a.secret.key=old-secret\nfs.s3a.endpoint=e","apiToken":"tok-old"}`
	for _, stmt := range []string{
		`UPDATE files SET config = ? WHERE id = ?`,
		`INSERT INTO config_versions(config, file_id, seq, description) VALUES (?, ?, 1, '')`,
	} {
		if _, err := st.DB().Exec(stmt, plain, f.ID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.DB().Exec(`UPDATE schema_versions SET version = 3 WHERE part = 'store'`); err != nil {
		t.Fatal(err)
	}
	st.Close()

	if st, err = store.Open(dir); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, query := range []string{`SELECT config FROM files WHERE id = ?`, `SELECT config FROM config_versions WHERE file_id = ?`} {
		var raw string
		if err := st.DB().QueryRow(query, f.ID).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"AKIAOLD", "old-secret", "tok-old"} {
			if strings.Contains(raw, secret) {
				t.Errorf("%s: %q is still stored in plain text: %s", query, secret, raw)
			}
		}
		if !strings.Contains(raw, `"host":["h"]`) || !strings.Contains(raw, "fs.s3a.endpoint=e") {
			t.Errorf("%s: what is no secret changed: %s", query, raw)
		}
	}
	cfg, err := st.Configuration(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	_, hadoop, _ := strings.Cut(cfg.HadoopProperties, "fs.s3a.secret.key=")
	hadoop, _, _ = strings.Cut(hadoop, "\n")
	for what, sealed := range map[string]string{"access_key": cfg.Properties["access_key"][0], "hadoopProperties": hadoop} {
		got, err := st.Secrets().Reveal(sealed)
		if want := map[string]string{"access_key": "AKIAOLD", "hadoopProperties": "old-secret"}[what]; err != nil || got != want {
			t.Errorf("%s: %q opens to %q, %v; want %q", what, sealed, got, err, want)
		}
	}
	var version int
	st.DB().QueryRow(`SELECT version FROM schema_versions WHERE part = 'store'`).Scan(&version)
	if version != 4 {
		t.Errorf("schema version %d, want 4", version)
	}
}
