package jobs

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	zsqlite "zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// TestStagedWriterSharesLocksWithThePool holds the write lock on one side
// and writes from the other: the staged rows' own connection and the
// database/sql pool must see each other's locks (one SQLite library in the
// process), so each side waits busy for the other instead of both writing.
func TestStagedWriterSharesLocksWithThePool(t *testing.T) {
	fx := newFixture(t, 1)
	short := openTestDBWaiting(t, fx.dir, 20*time.Millisecond)
	writer, err := fx.engine.file.open()
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	var mode string
	if err := sqlitex.ExecuteTransient(writer, "PRAGMA journal_mode", &sqlitex.ExecOptions{
		ResultFunc: func(stmt *zsqlite.Stmt) error { mode = stmt.ColumnText(0); return nil },
	}); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Fatalf("the writer's journal mode is %q, want wal as the pool's", mode)
	}

	t.Run("pool waits for the writer", func(t *testing.T) {
		if err := sqlitex.ExecuteTransient(writer, "BEGIN IMMEDIATE", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := short.Exec(`CREATE TABLE probe_pool (x)`); !isBusy(err) {
			t.Fatalf("a pool write while the writer holds the lock: %v, want database is locked", err)
		}
		if err := sqlitex.ExecuteTransient(writer, "COMMIT", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := short.Exec(`CREATE TABLE probe_pool (x)`); err != nil {
			t.Fatalf("a pool write once the writer committed: %v", err)
		}
	})
	t.Run("writer waits for the pool", func(t *testing.T) {
		writer.SetBusyTimeout(20 * time.Millisecond)
		tx, err := fx.db.Begin() // _txlock=immediate: BEGIN takes the write lock
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO probe_pool VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		if err := sqlitex.ExecuteTransient(writer, "BEGIN IMMEDIATE", nil); !isBusy(err) {
			t.Fatalf("a writer's BEGIN while the pool holds the lock: %v, want database is locked", err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := sqlitex.ExecuteTransient(writer, "INSERT INTO probe_pool SELECT x + 1 FROM probe_pool", nil); err != nil {
			t.Fatalf("a writer's write once the pool committed: %v", err)
		}
		if n := fx.count(`SELECT sum(x) FROM probe_pool`); n != 3 {
			t.Fatalf("sum(x) = %d, want 3: the writer did not see the pool's row", n)
		}
	})
}

func isBusy(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "database is locked") || strings.Contains(err.Error(), "SQLITE_BUSY"))
}

// TestImportBesideOtherWritersAndReaders runs a large import while the
// pool writes (as the store does, with no engine lock) and reads in small
// transactions all along, with the server's busy timeout: every one of them
// lands and the import keeps every row.
func TestImportBesideOtherWritersAndReaders(t *testing.T) {
	fx := newFixture(t, 1)
	const rows = 20_000
	if err := WriteOrdersCSV(filepath.Join(fx.files, "busy.csv"), rows, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := fx.db.Exec(`CREATE TABLE probe (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	job := fx.importJob("/Data/ImportJobs/busy.imp", "busy.csv", nil)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var writes int64
	errs := make(chan error, 2)
	wg.Go(func() {
		for ; ctx.Err() == nil; writes++ {
			if _, err := fx.db.Exec(`INSERT INTO probe VALUES (?)`, writes); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Go(func() {
		for ctx.Err() == nil {
			var n int64
			if err := fx.db.QueryRow(`SELECT count(*) FROM probe`).Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
				errs <- err
				return
			}
		}
	})
	id := fx.trigger(job)
	st := fx.waitFinal(job)
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("beside the import: %v", err)
	}
	if st.JobStatus != model.StateCompleted {
		t.Fatalf("import: %+v", st)
	}
	if got := fx.count(`SELECT count(*) FROM ` + dataTableName(id)); got != rows {
		t.Fatalf("%d rows imported, want %d", got, rows)
	}
	t.Logf("%d pool writes beside the import", writes)
	if got := fx.count(`SELECT count(*) FROM probe`); got != writes {
		t.Fatalf("%d probe rows, want the %d written", got, writes)
	}
}
