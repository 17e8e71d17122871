package ui

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// startConnectionsConsole is startConsole with the real connections pane
// in place of its placeholder (the jobs pane, which polls on its own,
// stays a placeholder so the status line holds still).
func startConnectionsConsole(t *testing.T, o consoleOpts) *console {
	t.Helper()
	o.panes = func(ctx *common.Context) []common.Pane {
		return []common.Pane{folders.New(ctx), connections.New(ctx), uitest.NewStub(ctx, "Jobs", "tested in ui/jobs")}
	}
	return startConsole(t, o)
}

// waitQuiet waits until the screen shows want and none of avoid (a
// "reading…" still under way), so golden files catch a settled screen.
func (c *console) waitQuiet(want string, avoid ...string) string {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := c.screen()
		settled := strings.Contains(s, want)
		for _, a := range avoid {
			settled = settled && !strings.Contains(s, a)
		}
		if settled {
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("screen never showed %q without %q; last screen:\n%s", want, avoid, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openConnections focuses the connections pane and waits for the list
// with every visible type read.
func (c *console) openConnections() string {
	c.t.Helper()
	c.waitFor("Exports/")
	c.keys("2")
	return c.waitQuiet("Jdbc SQLite", " … ", "reading")
}

// uuidPattern matches the UUIDs the demo draws anew on each run.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// noDependencyEndpoint answers 404 on every dependency endpoint, as the
// real platform does without its governance plug-in.
func noDependencyEndpoint(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dependencies") {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fillNewConnectionForm opens the new JDBC connection form and fills it.
func fillNewConnectionForm(c *console) string {
	c.openConnections()
	c.keys("n")
	c.waitFor("which kind?")
	c.keys("enter")
	c.waitFor("New JDBC database connection")
	c.typeText("Orders DB")
	c.keys("tab", "tab")
	c.typeText("mysql://db.example.com:3306/orders")
	c.keys("tab")
	c.typeText("loader")
	c.keys("tab")
	c.typeText("s3cret-pw")
	return c.waitFor("•••••••••")
}

// TestConnectionsEndToEnd creates, edits (with a fake $EDITOR, once with
// a broken edit that comes back with its error) and deletes a connection
// through the console against the embedded platform.
func TestConnectionsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	editor := filepath.Join(dir, "editor.sh")
	// The fake editor breaks the first edit (an empty typeId) and, shown
	// that edit again with its error on top, repairs it. It records what
	// it was given and the file's mode.
	script := `#!/bin/sh
n=$(ls "` + dir + `" | grep -c '^seen-')
cp "$1" "` + dir + `/seen-$n"
stat -c %a "$1" > "` + dir + `/mode-$n"
echo "$1" > "` + dir + `/path-$n"
if grep -q '^# NOT SAVED' "$1"; then
  sed -i 's/"typeId": ""/"typeId": "das.JdbcDataStoreType"/; s/"description": "[^"]*"/"description": "edited in the editor"/' "$1"
else
  sed -i 's/"typeId": "das.JdbcDataStoreType"/"typeId": ""/' "$1"
fi
`
	if err := os.WriteFile(editor, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", editor)

	// The create request's body, as it went over the wire.
	var createBody []byte
	var createMu sync.Mutex
	recordCreate := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/rest/connections" {
				body, _ := io.ReadAll(r.Body)
				createMu.Lock()
				createBody = body
				createMu.Unlock()
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			h.ServeHTTP(w, r)
		})
	}
	c := startConnectionsConsole(t, consoleOpts{width: 120, height: 32, wrap: recordCreate, sealed: true})
	client := c.client
	ctx := context.Background()
	const path = "/Data/Connections/E2E DB.dst"
	c.openConnections()

	// New: a JDBC connection from the form.
	c.keys("n")
	c.waitFor("which kind?")
	c.keys("enter")
	c.waitFor("New JDBC database connection")
	c.typeText("E2E DB")
	c.keys("tab", "tab")
	c.typeText("mysql://e2e.example.com:3306/e2e")
	c.keys("tab")
	c.typeText("e2e-user")
	c.keys("tab")
	c.typeText("pw-e2e-plain")
	c.keys("enter")
	c.waitFor("created /Data/Connections/E2E DB.dst")
	c.waitQuiet("›   E2E DB", "reading") // the cursor on the new connection
	id := connectionID(t, client, path)
	created, err := client.Connection(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	createMu.Lock()
	sent := string(createBody)
	createMu.Unlock()
	if strings.Contains(sent, "pw-e2e-plain") || !strings.Contains(sent, `"SECURE:0:`) {
		t.Fatalf("the password did not go out as a SECURE: value: %s", sent)
	}
	encoded := created.Property(model.PropPassword)
	if encoded == "" || strings.Contains(encoded, "pw-e2e-plain") {
		t.Fatalf("the server holds the password as %q, want it sealed", encoded)
	}
	if created.Property(model.PropConnectionURL) != "jdbc:mysql://e2e.example.com:3306/e2e" || created.Property(model.PropUserName) != "e2e-user" ||
		created.DBType == nil || created.DBType.Name != "MySQL" {
		t.Fatalf("created %+v", created)
	}

	// Edit: broken once, repaired once, saved.
	c.keys("e")
	c.waitFor("saved /Data/Connections/E2E DB.dst")
	first, err := os.ReadFile(filepath.Join(dir, "seen-0"))
	if err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(filepath.Join(dir, "seen-1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"mode-0", "mode-1"} {
		if mode, _ := os.ReadFile(filepath.Join(dir, f)); strings.TrimSpace(string(mode)) != "600" {
			t.Errorf("%s: the temporary file has mode %q, want 600", f, mode)
		}
	}
	for _, f := range []string{"path-0", "path-1"} {
		path, _ := os.ReadFile(filepath.Join(dir, f))
		if _, err := os.Stat(strings.TrimSpace(string(path))); !os.IsNotExist(err) {
			t.Errorf("the temporary file %s is still there (%v)", path, err)
		}
	}
	if strings.Contains(string(first), "pw-e2e-plain") || strings.Contains(string(second), "pw-e2e-plain") {
		t.Error("the editor was given the password in plain text")
	}
	if !strings.Contains(string(second), "# NOT SAVED: typeId is empty") {
		t.Errorf("the broken edit did not come back with its error on top:\n%s", second)
	}
	if !strings.Contains(string(second), `"typeId": ""`) {
		t.Errorf("the broken edit came back without the user's change:\n%s", second)
	}

	edited, err := client.Connection(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if edited.File.Description != "edited in the editor" || edited.TypeID != "das.JdbcDataStoreType" {
		t.Fatalf("after the edit: %+v", edited)
	}
	if got := edited.Property(model.PropPassword); got != encoded {
		t.Fatalf("the edit changed the sealed password: %q, was %q", got, encoded)
	}

	// Delete: confirmed, then gone from the list.
	c.keys("d")
	c.waitQuiet("Nothing depends on it", "reading")
	c.keys("y")
	c.waitFor("deleted /Data/Connections/E2E DB.dst")
	if s := c.waitQuiet("7 of 7", "reading"); strings.Contains(s, "  E2E DB  ") {
		t.Fatalf("the deleted connection is still listed:\n%s", s)
	}
	if _, err := client.Connection(ctx, id); !api.IsNotFound(err) {
		t.Fatalf("reading the deleted connection: %v, want 404", err)
	}
}

// connectionID finds a connection's configuration id in the list.
func connectionID(t *testing.T, client *api.Client, path string) int64 {
	t.Helper()
	list, err := client.Connections(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Path == path {
			return e.ID
		}
	}
	t.Fatalf("no connection %s in %+v", path, list)
	return 0
}
