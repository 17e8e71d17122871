package jobs

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	_ "modernc.org/sqlite"
)

// memCatalog is a file tree held in memory, for tests of the engine alone;
// the server's store implements Catalog for real.
type memCatalog struct {
	mu    sync.Mutex
	files map[int64]File
	next  int64
	// hidden holds, per file id, the users who may not read it.
	hidden map[int64][]string
}

func newMemCatalog() *memCatalog {
	return &memCatalog{files: make(map[int64]File), next: 100, hidden: make(map[int64][]string)}
}

// hide keeps f from users.
func (c *memCatalog) hide(f File, users ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hidden[f.ID] = append(c.hidden[f.ID], users...)
}

func (c *memCatalog) MayRead(_ context.Context, user string, f File) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !slices.Contains(c.hidden[f.ID], user), nil
}

func (c *memCatalog) add(path string, props map[string]string, sources ...File) File {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next++
	kind, _ := model.KindOfPath(path)
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	f := File{
		ID: c.next, ConfigurationID: c.next + 1000, UUID: fmt.Sprintf("uuid-%d", c.next),
		Path: path, Name: name, Kind: kind,
		Config: model.Configuration{File: model.FileInfo{Path: path, Name: name}, Properties: map[string][]string{}},
	}
	for k, v := range props {
		f.Config.Properties[k] = []string{v}
	}
	for _, s := range sources {
		f.Config.Sources = append(f.Config.Sources, model.SourceRef{UUID: s.UUID, Path: s.Path})
	}
	f.Config.AdoptSources(kind)
	c.files[f.ID] = f
	return f
}

func (c *memCatalog) File(_ context.Context, id int64) (File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.files[id]
	if !ok {
		return File{}, fmt.Errorf("file %d: %w", id, ErrNotFound)
	}
	return f, nil
}

func (c *memCatalog) Source(_ context.Context, ref model.SourceRef) (File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.files {
		if (ref.UUID != "" && f.UUID == ref.UUID) || (ref.UUID == "" && f.Path == ref.Path) {
			return f, nil
		}
	}
	return File{}, fmt.Errorf("source %s%s: %w", ref.UUID, ref.Path, ErrNotFound)
}

func (c *memCatalog) Dependents(_ context.Context, id int64) ([]File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []File
	for _, f := range c.files {
		for _, s := range f.Config.Links() {
			if s.UUID == c.files[id].UUID {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// openTestDB opens a database file the way the server's store does: WAL,
// with a busy timeout so concurrent writers wait instead of failing.
func openTestDB(t testing.TB, dir string) *sql.DB {
	return openTestDBWaiting(t, dir, 10*time.Second)
}

// openTestDBWaiting is openTestDB with another busy timeout.
func openTestDBWaiting(t testing.TB, dir string, busy time.Duration) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "platform.db")+
		fmt.Sprintf("?_pragma=journal_mode(WAL)&_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate", busy.Milliseconds()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fixture is an engine over a temporary data directory with sample data
// under files/ and a file-system connection to it.
type fixture struct {
	t      testing.TB
	dir    string
	files  string
	db     *sql.DB
	cat    *memCatalog
	engine *Engine
	fsConn File
	dbConn File
	limit  int
	// caps, when set, replaces the engine's per-user, workbook and query caps.
	caps Config
}

func newFixture(t testing.TB, limit int) *fixture {
	t.Helper()
	return newFixtureWaiting(t, limit, 10*time.Second)
}

// newFixtureWaiting is newFixture whose engine waits busy for the write lock.
func newFixtureWaiting(t testing.TB, limit int, busy time.Duration) *fixture {
	t.Helper()
	dir := t.TempDir()
	fx := &fixture{t: t, dir: dir, files: filepath.Join(dir, "files"), cat: newMemCatalog(), limit: limit}
	if err := WriteSampleData(fx.files); err != nil {
		t.Fatal(err)
	}
	fx.db = openTestDBWaiting(t, dir, busy)
	fx.fsConn = fx.cat.add("/Data/Connections/samples.dst", map[string]string{model.PropConnectionURL: "file://" + fx.files})
	fx.dbConn = fx.cat.add("/Data/Connections/warehouse.dst", map[string]string{model.PropConnectionURL: "jdbc:sqlite:" + filepath.Join(fx.files, SampleWarehouse)})
	fx.open()
	return fx
}

func (fx *fixture) open() {
	fx.t.Helper()
	e, err := Open(context.Background(), fx.db, Config{Catalog: fx.cat, FileRoots: []string{fx.files}, MaxConcurrent: fx.limit,
		MaxRunsPerUser: fx.caps.MaxRunsPerUser, MaxWorkbookBytes: fx.caps.MaxWorkbookBytes, MaxQueryTime: fx.caps.MaxQueryTime,
		MaxRunningPerUser: fx.caps.MaxRunningPerUser})
	if err != nil {
		fx.t.Fatal(err)
	}
	fx.engine = e
	fx.t.Cleanup(func() { e.Close() })
}

func (fx *fixture) importJob(path, file string, extra map[string]string) File {
	props := map[string]string{propPath: file}
	for k, v := range extra {
		props[k] = v
	}
	return fx.cat.add(path, props, fx.fsConn)
}

func (fx *fixture) trigger(f File) int64 {
	fx.t.Helper()
	ex, err := fx.engine.Trigger(context.Background(), f, "analyst", model.TriggerRESTAPI, nil)
	if err != nil {
		fx.t.Fatalf("trigger %s: %v", f.Path, err)
	}
	return ex.ID
}

// waitFinal waits until every execution of the file has ended, on the
// engine's own signal, and returns the file's status.
func (fx *fixture) waitFinal(f File) model.JobStatus {
	fx.t.Helper()
	deadline := time.After(time.Minute)
	for _, done := range fx.endings(f) {
		select {
		case <-done:
		case <-deadline:
			fx.t.Fatalf("%s did not end within a minute", f.Path)
		}
	}
	st, err := fx.engine.Status(context.Background(), f.ID)
	if err != nil {
		fx.t.Fatal(err)
	}
	if !st.JobStatus.Final() {
		fx.t.Fatalf("%s is still %s with none of its executions active", f.Path, st.JobStatus)
	}
	return st
}

// endings returns the done channels of the file's active executions.
func (fx *fixture) endings(f File) []chan struct{} {
	fx.engine.mu.Lock()
	defer fx.engine.mu.Unlock()
	var done []chan struct{}
	for _, r := range fx.engine.active {
		if r.file.ID == f.ID {
			done = append(done, r.done)
		}
	}
	return done
}

// waitFor polls a condition that no channel announces (progress, a state
// change) until it holds, for at most a minute.
func (fx *fixture) waitFor(what string, cond func() bool) {
	fx.t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			fx.t.Fatalf("%s: not within a minute", what)
		}
	}
}

// imported adds an import job of a sample file and runs it to COMPLETED.
func (fx *fixture) imported(path, file string) File {
	fx.t.Helper()
	f := fx.importJob(path, file, nil)
	fx.trigger(f)
	if st := fx.waitFinal(f); st.JobStatus != model.StateCompleted {
		fx.t.Fatalf("import %s: %+v", path, st)
	}
	return f
}

func (fx *fixture) details(id int64) model.JobDetails {
	fx.t.Helper()
	d, err := fx.engine.Details(context.Background(), id)
	if err != nil {
		fx.t.Fatal(err)
	}
	return d
}

func (fx *fixture) count(query string, args ...any) int64 {
	fx.t.Helper()
	var n int64
	if err := fx.db.QueryRow(query, args...).Scan(&n); err != nil {
		fx.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// tablesLike counts the tables whose names start with prefix.
func (fx *fixture) tablesLike(prefix string) int64 {
	return fx.count(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, prefix+"%")
}
