package server_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/backup"
	"github.com/dapconsole/dapconsole/server/store"
)

// checksWatch records, for each run of a restore's checks, whether it held
// the write lock, and runs between (when set) after checks made outside
// the lock, before the lock is taken.
type checksWatch struct {
	underLock []bool
	between   func()
}

// config is cfg with the watch on its restores.
func (w *checksWatch) config(cfg server.Config) server.Config {
	cfg.BackupHooks.Checked = func(locked bool) {
		w.underLock = append(w.underLock, locked)
		if !locked && w.between != nil {
			w.between()
		}
	}
	return cfg
}

// TestRestoreChecksBeforeWriteLock restores into a folder that exists: the
// checks run once, before the write lock, when nothing changes meanwhile.
func TestRestoreChecksBeforeWriteLock(t *testing.T) {
	var watch checksWatch
	srv, p := start(t, watch.config(server.Config{DataDir: t.TempDir(), AdminPassword: "admin"}))
	fillProject(t, srv.Store(), benchPerFolder)
	body := p.backup("admin", "/Project")
	if _, err := srv.Store().CreateFile(context.Background(), store.NewFile{Path: "/Copy", OwnerID: 1}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target string
		flags  []string
	}{{"/Copy", nil}, {"/Project", []string{model.FlagOverwrite}}} {
		watch.underLock = nil
		res := p.restore("admin", tc.target, body, tc.flags...)
		if len(res.Restored) != benchPerFolder+1 || len(res.Skipped) != 0 {
			t.Errorf("restore into %s: %d restored, %d skipped", tc.target, len(res.Restored), len(res.Skipped))
		}
		if !slices.Equal(watch.underLock, []bool{false}) {
			t.Errorf("restore into %s: checks ran with the write lock held %v, want once without", tc.target, watch.underLock)
		}
	}
}

// TestRestoreRechecksAfterConcurrentChange commits a change between a
// restore's checks and its write lock: the checks run again under the lock
// and refuse what the change made wrong, and the restore changes nothing.
func TestRestoreRechecksAfterConcurrentChange(t *testing.T) {
	const taken = "Team 00/Replica 000.dst"
	for _, tc := range []struct {
		name   string
		target string
		flags  []string
		change func(st *store.Store) error // what another writer commits meanwhile
		want   int
	}{
		{"a file takes an archive path", "/Copy", nil, func(st *store.Store) error {
			if _, err := st.CreateFile(context.Background(), store.NewFile{Path: "/Copy/Team 00", OwnerID: 1}); err != nil {
				return err
			}
			_, err := st.CreateFile(context.Background(), store.NewFile{Path: "/Copy/" + taken, OwnerID: 1,
				Config: &model.Configuration{Version: "2.1", Properties: map[string][]string{}}})
			return err
		}, http.StatusConflict},
		{"a file starts reading from an overwritten one", "/Project", []string{model.FlagOverwrite}, func(st *store.Store) error {
			_, err := st.CreateFile(context.Background(), store.NewFile{Path: "/Reader.imp", OwnerID: 1,
				Config: &model.Configuration{Version: "2.1", Properties: map[string][]string{},
					Sources: []model.SourceRef{{Path: "/Project/" + taken}}}})
			return err
		}, http.StatusConflict},
		{"an unrelated folder is made", "/Copy", nil, func(st *store.Store) error {
			_, err := st.CreateFile(context.Background(), store.NewFile{Path: "/Elsewhere", OwnerID: 1})
			return err
		}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var watch checksWatch
			srv, p := start(t, watch.config(server.Config{DataDir: t.TempDir(), AdminPassword: "admin"}))
			fillProject(t, srv.Store(), benchPerFolder)
			body := p.backup("admin", "/Project")
			if _, err := srv.Store().CreateFile(context.Background(), store.NewFile{Path: "/Copy", OwnerID: 1}); err != nil {
				t.Fatal(err)
			}
			watch.between = func() {
				if err := tc.change(srv.Store()); err != nil {
					t.Error(err)
				}
			}
			a := p.upload("admin", restoreURL(tc.target, tc.flags...), "application/zip", body)
			if a.code != tc.want {
				t.Errorf("status %d, want %d: %s", a.code, tc.want, a.body)
			}
			if tc.target == "/Copy" { // a refused restore made nothing
				_, err := srv.Store().FileByPath(context.Background(), "/Copy/Team 00/Replica 001.dst")
				if restored := err == nil; restored != (tc.want == http.StatusOK) {
					t.Errorf("Replica 001 restored: %v, want %v", restored, tc.want == http.StatusOK)
				}
			}
			if !slices.Equal(watch.underLock, []bool{false, true}) {
				t.Errorf("checks ran with the write lock held %v, want without, then again with", watch.underLock)
			}
		})
	}
}

// BenchmarkRestoreWriteLock overwrites a project of 10,000 files with its
// own backup and reports how long the restore held SQLite's write lock:
// with the checks run before the lock, and under it (as before, forced by
// a commit between the checks and the lock).
func BenchmarkRestoreWriteLock(b *testing.B) {
	for _, mode := range []string{"checks=before-lock", "checks=under-lock"} {
		b.Run(mode, func(b *testing.B) {
			var srv *server.Server
			bumps := 0
			var held time.Duration
			srv, p := start(b, server.Config{DataDir: b.TempDir(), AdminPassword: "admin", BackupHooks: backup.Hooks{
				Checked: func(locked bool) {
					if !locked && mode == "checks=under-lock" {
						bumps++
						srv.Store().CreateFile(context.Background(), store.NewFile{Path: fmt.Sprintf("/Bump %d", bumps), OwnerID: 1})
					}
				},
				Committed: func(d time.Duration) { held += d },
			}})
			fillProject(b, srv.Store(), benchFiles)
			body := p.backup("admin", "/Project")
			b.ReportAllocs()
			for b.Loop() {
				p.restore("admin", "/Project", body, model.FlagOverwrite)
			}
			b.ReportMetric(float64(held.Milliseconds())/float64(b.N), "lock-ms/op")
		})
	}
}
