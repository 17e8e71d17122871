package server_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
)

func TestRestartKeepsData(t *testing.T) {
	dir := t.TempDir()
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: dir, DemoData: true}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	created, err := srv.Store().CreateFile(ctx, store.NewFile{Path: "/Data/Connections/Kept.dst", OwnerID: 2,
		Config: &model.Configuration{Version: "2.1", File: model.FileInfo{Description: "kept"},
			Properties: map[string][]string{model.PropPassword: {"kept-secret"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened with DemoData again: the data directory is not empty, so nothing is re-seeded.
	reopened, p := start(t, server.Config{DataDir: dir, DemoData: true})
	var c model.Connection
	p.get("analyst", connectionPath(created.ConfigID), &c)
	if c.File.UUID != created.UUID || c.File.Description != "kept" {
		t.Fatalf("after restart %+v", c)
	}
	var list []model.ConnectionEntry
	p.get("admin", "/rest/connections", &list)
	if n := len(list); n != 8 {
		t.Fatalf("%d connections after restart, want the 7 demo ones and the new one", n)
	}
	// The key survived too: the stored secret still opens.
	cfg, err := reopened.Store().Configuration(ctx, created)
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := reopened.Store().Secrets().Reveal(cfg.Property(model.PropPassword)); err != nil || plain != "kept-secret" {
		t.Fatalf("secret after restart %q %v", plain, err)
	}
}

func TestFirstStart(t *testing.T) {
	if _, err := server.New(servertest.TestConfig(server.Config{DataDir: t.TempDir()})); err == nil {
		t.Fatal("an empty data directory without password or demo data started")
	}
	if _, err := server.New(servertest.TestConfig(server.Config{})); err == nil {
		t.Fatal("a server without data directory started")
	}
	for _, cost := range []int{1, 32} {
		if _, err := server.New(server.Config{DataDir: t.TempDir(), AdminPassword: "admin", PasswordCost: cost}); err == nil || !strings.Contains(err.Error(), "password cost") {
			t.Errorf("a server with password cost %d: %v, want refused", cost, err)
		}
	}
	_, p := start(t, server.Config{DataDir: t.TempDir(), AdminPassword: "admin"})
	var root model.Folder
	p.get("admin", "/api/filesystem/root-folder", &root)
	if len(root.Embedded.Folders) != 0 || root.UUID == "" {
		t.Fatalf("fresh root %+v", root)
	}
	p.wantFailure(p.call("viewer", http.MethodGet, "/api/filesystem/root-folder", nil), http.StatusUnauthorized, "")
	var owner model.Owner
	p.get("admin", "/api/filesystem/folders/1/permission/owner", &owner)
	if owner.Owner != store.SystemOwner {
		t.Fatalf("root owner %q", owner.Owner)
	}
}

func TestStartAndShutdown(t *testing.T) {
	running, err := server.Start(servertest.TestConfig(server.Config{DataDir: t.TempDir(), DemoData: true}), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &platform{t: t, base: running.URL}
	p.get("admin", "/api/filesystem/root-folder", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := running.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(running.URL); err == nil {
		t.Fatal("still accepting after shutdown")
	}
	if _, err := server.Start(servertest.TestConfig(server.Config{DataDir: t.TempDir(), DemoData: true}), "256.0.0.1:0"); err == nil {
		t.Fatal("listening on a bad address")
	}
}

func TestDataDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	srv, _ := start(t, server.Config{DataDir: dir, DemoData: true})
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("data directory %v %v", info, err)
	}
	// The key sits in the data directory, readable by its owner only.
	info, err := os.Stat(filepath.Join(srv.Store().Dir(), store.KeyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v %v", info, err)
	}
	if info, err := os.Stat(server.FilesDir(srv.Store().Dir())); err != nil || !info.IsDir() {
		t.Fatalf("files folder: %v", err)
	}
}

// The README's `serve --data ./data`: a relative data directory. The demo's
// connections name their files by file:/// URL and every import through
// them ended ERROR ("file://data/files/ is not a file:/// URL of this
// machine") until the server made the directory absolute.
func TestRelativeDataDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	_, p := start(t, server.Config{DataDir: "data", DemoData: true})
	if st := p.runToEnd("admin", "/Data/ImportJobs/Orders.imp"); st.JobStatus != model.StateCompleted {
		t.Errorf("Orders.imp over a relative data directory ended %s: %s", st.JobStatus, st.Reason)
	}
}
