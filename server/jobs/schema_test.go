package jobs

import (
	"context"
	"testing"
)

// TestLegacySchemaVersionIsMigrated opens the engine on data directories
// made before schema_versions, whose engine tables recorded their version
// in jobs_schema_version: the tables are kept and brought up to date, the
// old record is dropped and schema_versions holds the version.
func TestLegacySchemaVersionIsMigrated(t *testing.T) {
	for legacy := 1; legacy <= len(migrations); legacy++ {
		fx := newFixture(t, 1)
		fx.engine.Close()
		ctx := context.Background()
		for _, q := range []string{`DROP TABLE job_data`, `DROP TABLE job_executions`, `DROP TABLE schema_versions`,
			`CREATE TABLE jobs_schema_version (version INTEGER NOT NULL)`} {
			if _, err := fx.db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		for _, script := range migrations[:legacy] {
			if _, err := fx.db.ExecContext(ctx, script); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := fx.db.ExecContext(ctx, `INSERT INTO jobs_schema_version (version) VALUES (?);
			INSERT INTO job_executions (file_id, file_uuid, file_path, file_name, configuration_id, user_name, trigger_kind, state, created_ms)
			VALUES (1, 'u', '/a.imp', 'a.imp', 1, 'analyst', 'REST_API', 'SUCCESS', 1)`, legacy); err != nil {
			t.Fatal(err)
		}
		fx.open()
		var version, executions, old int
		if err := fx.db.QueryRowContext(ctx, `SELECT (SELECT version FROM schema_versions WHERE part = 'jobs'),
			(SELECT count(*) FROM job_executions WHERE log = ''),
			(SELECT count(*) FROM sqlite_master WHERE name = 'jobs_schema_version')`).Scan(&version, &executions, &old); err != nil {
			t.Fatalf("legacy version %d: %v", legacy, err)
		}
		if version != len(migrations) || executions != 1 || old != 0 {
			t.Errorf("legacy version %d: schema %d, %d executions kept, jobs_schema_version left: %v", legacy, version, executions, old > 0)
		}
	}
}
