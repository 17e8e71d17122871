package server_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

func connectionPath(id int64) string { return fmt.Sprintf("/rest/connections/%d", id) }

func newConnection(path, password string) model.Connection {
	return model.Connection{
		Version: "2.1", ClassName: "datameer.dap.common.entity.DataBaseConnection", TypeID: "das.JdbcDataStoreType",
		File: model.FileInfo{Path: path, Description: "test database"},
		Properties: map[string][]string{
			model.PropUserName: {"tester"}, model.PropPassword: {password},
			// A remote database: connections reaching local files may not share them.
			model.PropConnectionURL: {"jdbc:postgresql://db.example.com:5432/test"}, model.PropDataStoreUsage: {"IMPORT_EXPORT"},
		},
		DBType: &model.DBType{Name: "PostgreSQL"},
	}
}

func TestListConnections(t *testing.T) {
	_, p := demo(t)
	paths := func(user string) map[string]bool {
		var list []model.ConnectionEntry
		p.get(user, "/rest/connections", &list)
		out := map[string]bool{}
		for _, e := range list {
			out[e.Path] = true
			if e.ID == 0 || e.UUID == "" || e.Name == "" || strings.HasSuffix(e.Name, ".dst") {
				t.Errorf("entry %+v", e)
			}
		}
		return out
	}
	admin := paths("admin")
	if len(admin) < 7 || !admin["/.system/FileUploadDataStore.dst"] || !admin["/Analytics/Finance/Finance PostgreSQL.dst"] {
		t.Fatalf("admin list %v", admin)
	}
	viewer := paths("viewer")
	if !viewer["/.system/FileUploadDataStore.dst"] || viewer["/Analytics/Finance/Finance PostgreSQL.dst"] {
		t.Fatalf("viewer list %v", viewer)
	}
}

func TestReadConnection(t *testing.T) {
	srv, p := demo(t)
	warehouse := p.connectionID("/Data/Connections/Warehouse.dst")
	a := p.call("viewer", http.MethodGet, connectionPath(warehouse), nil)
	var c model.Connection
	p.want(a, 200, &c)
	if c.File.Path != "/Data/Connections/Warehouse.dst" || c.File.Name != "Warehouse" || c.DBType == nil || c.DBType.Name != "SQLite" {
		t.Fatalf("connection %+v", c)
	}
	password := c.Property(model.PropPassword)
	if strings.Contains(string(a.body), "warehouse-reader") || !strings.HasSuffix(password, "\r\n") {
		t.Fatalf("password %q not encoded (body %s)", password, a.body)
	}
	if _, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(password, "\r\n")); err != nil {
		t.Fatalf("password %q is not base64: %v", password, err)
	}
	// At rest, neither the database nor its WAL holds the plain secret.
	for _, name := range []string{store.DatabaseFile, store.DatabaseFile + "-wal"} {
		raw, _ := os.ReadFile(filepath.Join(srv.Store().Dir(), name))
		if strings.Contains(string(raw), "warehouse-reader") {
			t.Fatalf("%s holds the plain password", name)
		}
	}

	orders, err := srv.Store().FileByPath(context.Background(), "/Data/ImportJobs/Orders.imp")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, user, path string
		code             int
	}{
		{"non-numeric id", "admin", "/rest/connections/abc", 400},
		{"negative id", "admin", "/rest/connections/-3", 400},
		{"unknown id", "admin", "/rest/connections/9999", 404},
		{"an import job's id", "admin", connectionPath(orders.ConfigID), 404},
		{"invisible to the viewer", "viewer", connectionPath(p.connectionID("/Analytics/Finance/Finance PostgreSQL.dst")), 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.call(tc.user, http.MethodGet, tc.path, nil), tc.code, "")
		})
	}
}

func TestCreateConnection(t *testing.T) {
	srv, p := demo(t)
	var created model.ConnectionCreated
	p.want(p.call("analyst", http.MethodPost, "/rest/connections", newConnection("/Data/Connections/New DB.dst", "s3cret")), 200, &created)
	if created.Status != model.StatusSuccess || created.ConfigurationID == 0 {
		t.Fatalf("created %+v", created)
	}
	f, err := srv.Store().FileByConfigID(context.Background(), created.ConfigurationID)
	if err != nil || f.ID == created.ConfigurationID || f.Owner != "analyst" {
		t.Fatalf("file %+v (configuration id must differ from file id): %v", f, err)
	}
	var c model.Connection
	a := p.call("analyst", http.MethodGet, connectionPath(created.ConfigurationID), nil)
	p.want(a, 200, &c)
	if c.File.Path != "/Data/Connections/New DB.dst" || c.File.Name != "New DB" || c.File.UUID != f.UUID || strings.Contains(string(a.body), "s3cret") {
		t.Fatalf("read back %s", a.body)
	}
	// The secret opens to what was sent.
	cfg, _ := srv.Store().Configuration(context.Background(), f)
	if plain, err := srv.Store().Secrets().Reveal(cfg.Property(model.PropPassword)); err != nil || plain != "s3cret" {
		t.Fatalf("stored secret opens to %q, %v", plain, err)
	}

	// A SECURE value from the encrypt command is taken as already encrypted.
	sealed := srv.Store().Secrets().Seal("pre-sealed")
	p.want(p.call("admin", http.MethodPost, "/rest/connections", newConnection("/Data/Connections/Sealed.dst", sealed)), 200, &created)
	p.get("admin", connectionPath(created.ConfigurationID), &c)
	if c.Property(model.PropPassword) != strings.TrimPrefix(sealed, "SECURE:0:")+"\r\n" {
		t.Fatalf("sealed %q read back as %q", sealed, c.Property(model.PropPassword))
	}

	cases := []struct {
		name, user string
		body       any
		code       int
		reason     string
	}{
		{"path taken", "admin", newConnection("/Data/Connections/New DB.dst", "x"), 409, "exists"},
		{"folder missing, nearest folder not writable", "viewer", newConnection("/Data/Nowhere/x.dst", "x"), 403, "write"},
		// Behind a folder the viewer may not see, the answer is the one for a missing path (as /Nowhere/New).
		{"folder missing", "viewer", newConnection("/Nowhere/New/x.dst", "x"), 403, "/: write permission required"},
		{"folder missing below an invisible one", "viewer", newConnection("/Exports/New/x.dst", "x"), 403, "/: write permission required"},
		{"folder invisible", "viewer", newConnection("/Exports/x.dst", "x"), 403, "/: write permission required"},
		{"inside an invisible file", "viewer", newConnection("/Exports/Sales by Region.exp/x.dst", "x"), 403, "/: write permission required"},
		{"folder not writable", "viewer", newConnection("/Data/Connections/x.dst", "x"), 403, "write"},
		{"not a connection file", "admin", newConnection("/Data/Connections/x.imp", "x"), 400, ".dst"},
		{"no path", "admin", newConnection("", "x"), 400, "file.path"},
		{"dot-dot in path", "admin", newConnection("/Data/../x.dst", "x"), 400, "file.path"},
		{"in a file, not a folder", "admin", newConnection("/Data/Connections/Warehouse.dst/x.dst", "x"), 400, "not a folder"},
		{"SECURE value of another key", "admin", newConnection("/Data/Connections/y.dst", "SECURE:0:aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ="), 400, "password"},
		{"reading from a file", "admin", func() model.Connection {
			c := newConnection("/Data/Connections/z.dst", "x")
			c.DataStore = &model.SourceRef{Path: "/Data/Connections/Warehouse.dst"}
			return c
		}(), 400, "reads from no other file"},
		{"with legacy sources", "admin", `{"file":{"path":"/Data/Connections/s.dst"},"sources":[{"path":"/Data/Connections/Warehouse.dst"}]}`, 400, "reads from no other file"},
		{"malformed JSON", "admin", `{"file":{"path":"/Data/Connections/m.dst"}`, 400, "JSON"},
		{"a field of the wrong type (no scalar Gson would take)", "admin", `{"file":{"path":"/Data/Connections/m.dst"},"pullType":[7]}`, 400, "JSON"},
		{"properties of the wrong type", "admin", `{"file":{"path":"/Data/Connections/m.dst"},"properties":{"a":"b"}}`, 400, "JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.call(tc.user, http.MethodPost, "/rest/connections", tc.body), tc.code, tc.reason)
		})
	}
}

// TestCreateConnectionAsThePlatformDoes: a create keeps the fields the
// server does not know and returns them on read, and makes the folder it
// names when the caller may write the nearest folder that exists.
func TestCreateConnectionAsThePlatformDoes(t *testing.T) {
	srv, p := demo(t)
	body := `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.FileSystemDataStoreType",` +
		`"file":{"path":"/Data/Connections/Team A/Nested/Share.dst","description":"made with its folders"},` +
		`"properties":{"key.connectionUrl":["file:///srv/share/"],"sshKey":["-----BEGIN KEY-----"],"tableau.password":["tab-pw"],"oauth.clientSecret":["cl-sec"]},` +
		`"pullType":"NONE","minKeepCount":3,"hadoopProperties":"mapred.job.queue.name=etl",` +
		`"notificationAddresses":"ops@example.com","advancedSchedulingInUse":false,"fields":[{"name":"a","id":1}]}`
	var created model.ConnectionCreated
	p.want(p.call("analyst", http.MethodPost, "/rest/connections", body), 200, &created)
	for _, folder := range []string{"/Data/Connections/Team A", "/Data/Connections/Team A/Nested"} {
		if f := storeFile(t, srv, folder); !f.IsFolder() || f.Owner != "analyst" {
			t.Fatalf("%s: %+v, want a folder the analyst owns", folder, f)
		}
	}
	a := p.call("analyst", http.MethodGet, connectionPath(created.ConfigurationID), nil)
	var read map[string]json.RawMessage
	p.want(a, 200, &read)
	for field, want := range map[string]string{"pullType": `"NONE"`, "minKeepCount": `3`, "hadoopProperties": `"mapred.job.queue.name=etl"`,
		"notificationAddresses": `"ops@example.com"`, "advancedSchedulingInUse": `false`, "fields": `[{"name":"a","id":1}]`} {
		if string(read[field]) != want {
			t.Errorf("%s read back as %s, want %s", field, read[field], want)
		}
	}
	stored, _ := srv.Store().Configuration(context.Background(), storeFile(t, srv, "/Data/Connections/Team A/Nested/Share.dst"))
	for key, plain := range map[string]string{"sshKey": "-----BEGIN KEY-----", "tableau.password": "tab-pw", "oauth.clientSecret": "cl-sec"} {
		if strings.Contains(string(a.body), plain) {
			t.Errorf("%s read back in plain text: %s", key, a.body)
		}
		if opened, err := srv.Store().Secrets().Reveal(stored.Property(key)); err != nil || opened != plain {
			t.Errorf("%s stored as %q, which opens to %q, %v", key, stored.Property(key), opened, err)
		}
	}
}

func TestUpdateConnection(t *testing.T) {
	srv, p := demo(t)
	id := p.connectionID("/Data/Connections/MYSQL_QA1.dst")
	var c model.Connection
	p.get("analyst", connectionPath(id), &c)
	// Read, edit, send back: the encoded password stays the same secret.
	c.File.Description = "QA database, renamed host"
	c.Properties[model.PropConnectionURL] = []string{"jdbc:mysql://qa2.example.com:3306/world"}
	var ok model.Success
	p.want(p.call("analyst", http.MethodPut, connectionPath(id), c), 200, &ok)
	if ok.Status != model.StatusSuccess {
		t.Fatalf("answer %+v", ok)
	}
	var after model.Connection
	p.get("analyst", connectionPath(id), &after)
	if after.File.Description != c.File.Description || after.Property(model.PropConnectionURL) != c.Property(model.PropConnectionURL) ||
		after.Property(model.PropPassword) != c.Property(model.PropPassword) {
		t.Fatalf("after update %+v", after)
	}
	f, _ := srv.Store().FileByConfigID(context.Background(), id)
	cfg, _ := srv.Store().Configuration(context.Background(), f)
	if plain, _ := srv.Store().Secrets().Reveal(cfg.Property(model.PropPassword)); plain != "qa1-secret" {
		t.Fatalf("password after a read-edit-write is %q", plain)
	}
	// A new plain password is sealed.
	c.Properties[model.PropPassword] = []string{"changed"}
	p.want(p.call("admin", http.MethodPut, connectionPath(id), c), 200, nil)
	cfg, _ = srv.Store().Configuration(context.Background(), f)
	if plain, _ := srv.Store().Secrets().Reveal(cfg.Property(model.PropPassword)); plain != "changed" {
		t.Fatalf("password after change is %q", plain)
	}

	// Hidden properties: an administrator sets them; an analyst's edit may
	// send them back as read, never change them.
	c.HadoopProperties = "mapred.job.queue.name=etl"
	p.want(p.call("admin", http.MethodPut, connectionPath(id), c), 200, nil)
	c.File.Description = "kept queue"
	p.want(p.call("analyst", http.MethodPut, connectionPath(id), c), 200, nil)
	hidden := c
	hidden.HadoopProperties = "mapred.job.queue.name=mine"
	p.wantFailure(p.call("analyst", http.MethodPut, connectionPath(id), hidden), 403, "only an administrator")
	if cfg, _ = srv.Store().Configuration(context.Background(), f); cfg.HadoopProperties != "mapred.job.queue.name=etl" {
		t.Fatalf("hadoopProperties %q after an analyst's refused change", cfg.HadoopProperties)
	}

	moved := c
	moved.File.Path = "/Data/Connections/Elsewhere.dst"
	cases := []struct {
		name, user, path string
		body             any
		code             int
	}{
		{"viewer may not write", "viewer", connectionPath(id), c, 403},
		{"invisible", "viewer", connectionPath(p.connectionID("/Analytics/Finance/Finance PostgreSQL.dst")), c, 404},
		{"unknown", "admin", connectionPath(9999), c, 404},
		{"non-numeric", "admin", "/rest/connections/MYSQL_QA1", c, 400},
		{"move", "admin", connectionPath(id), moved, 400},
		{"malformed", "admin", connectionPath(id), `[1,2`, 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.call(tc.user, http.MethodPut, tc.path, tc.body), tc.code, "")
		})
	}
}

func TestDeleteConnection(t *testing.T) {
	_, p := demo(t)
	local := p.connectionID("/Data/Connections/Local Files.dst")
	refusal := p.wantFailure(p.call("admin", http.MethodDelete, connectionPath(local), nil), http.StatusConflict, "Orders.imp")
	if len(refusal.Paths) == 0 {
		t.Fatalf("refusal names no dependents: %+v", refusal)
	}
	warehouse := p.connectionID("/Data/Connections/Warehouse.dst")
	var created model.ConnectionCreated
	p.want(p.call("analyst", http.MethodPost, "/rest/connections", newConnection("/Data/Connections/Temp.dst", "x")), 200, &created)

	cases := []struct {
		name, user, path string
		code             int
	}{
		{"viewer may not delete", "viewer", connectionPath(created.ConfigurationID), 403},
		{"non-numeric", "admin", "/rest/connections/x1", 400},
		{"unknown", "admin", connectionPath(9999), 404},
		{"still used", "analyst", connectionPath(warehouse), 409},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.call(tc.user, http.MethodDelete, tc.path, nil), tc.code, "")
		})
	}
	var ok model.Success
	p.want(p.call("analyst", http.MethodDelete, connectionPath(created.ConfigurationID), nil), 200, &ok)
	p.wantFailure(p.call("analyst", http.MethodGet, connectionPath(created.ConfigurationID), nil), 404, "")
	p.wantFailure(p.call("analyst", http.MethodDelete, connectionPath(created.ConfigurationID), nil), 404, "")
}

// TestInvisibleAnswersLikeMissing compares whole answers: a file the user
// may not see must not be told apart from one that does not exist.
func TestInvisibleAnswersLikeMissing(t *testing.T) {
	srv, p := demo(t)
	hiddenConn := p.connectionID("/Analytics/Finance/Finance PostgreSQL.dst")
	hiddenFolder := fileID(t, srv, "/Exports")
	pairs := []struct{ hidden, missing string }{
		{connectionPath(hiddenConn), connectionPath(9999)},
		{fmt.Sprintf("/api/connections/%d/dependencies", hiddenConn), "/api/connections/9999/dependencies"},
		{folderPath(hiddenFolder), folderPath(9999)},
		{folderPath(hiddenFolder) + "/permission", folderPath(9999) + "/permission"},
	}
	for _, pair := range pairs {
		h := p.call("viewer", http.MethodGet, pair.hidden, nil)
		m := p.call("viewer", http.MethodGet, pair.missing, nil)
		normalise := func(a answer, id string) string {
			return fmt.Sprint(a.code, " ", strings.ReplaceAll(string(a.body), id, "ID"))
		}
		hiddenID := regexp.MustCompile(`[0-9]+`).FindString(pair.hidden)
		if got, want := normalise(h, hiddenID), normalise(m, "9999"); got != want {
			t.Errorf("%s answers %s\n%s answers %s", pair.hidden, got, pair.missing, want)
		}
	}
}

// TestConcurrentWrites runs creates, updates and reads at once: SQLite's
// single writer must make them wait, never fail.
func TestConcurrentWrites(t *testing.T) {
	_, p := demo(t)
	const writers = 8
	errs := make(chan string, writers*3)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := fmt.Sprintf("/Data/Connections/Parallel %d.dst", i)
			var created model.ConnectionCreated
			a := p.call("analyst", http.MethodPost, "/rest/connections", newConnection(path, "pw"))
			if a.code != 200 || json.Unmarshal(a.body, &created) != nil {
				errs <- fmt.Sprintf("create %s: %d %s", path, a.code, a.body)
				return
			}
			if a := p.call("analyst", http.MethodPut, connectionPath(created.ConfigurationID), newConnection(path, "pw2")); a.code != 200 {
				errs <- fmt.Sprintf("update %s: %d %s", path, a.code, a.body)
			}
			if a := p.call("viewer", http.MethodGet, "/rest/connections", nil); a.code != 200 {
				errs <- fmt.Sprintf("list: %d %s", a.code, a.body)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var list []model.ConnectionEntry
	p.get("admin", "/rest/connections", &list)
	if len(list) != 7+writers {
		t.Fatalf("%d connections, want %d", len(list), 7+writers)
	}
}

// A refused delete names the dependents the user may see and of the others
// only counts them and names their owners (whom to ask), so that it tells
// nothing of files behind closed folders.
func TestDeleteConnectionHidesDependents(t *testing.T) {
	srv, p := demo(t)
	ctx := context.Background()
	var created model.ConnectionCreated
	p.want(p.call("analyst", http.MethodPost, "/rest/connections", newConnection("/Data/Connections/Shared.dst", "x")), 200, &created)
	reader := func(path string) store.NewFile {
		return store.NewFile{Path: path, OwnerID: 1, Config: &model.Configuration{Version: "2.1",
			Sources: []model.SourceRef{{Path: "/Data/Connections/Shared.dst"}}}}
	}
	for _, nf := range []store.NewFile{
		{Path: "/Closed", OwnerID: 1, Permissions: &store.Permissions{}},
		reader("/Closed/Hidden.imp"),
		reader("/Closed/Hidden too.imp"),
		reader("/Data/ImportJobs/Seen.imp"),
	} {
		if _, err := srv.Store().CreateFile(ctx, nf); err != nil {
			t.Fatal(err)
		}
	}
	refusal := p.wantFailure(p.call("analyst", http.MethodDelete, connectionPath(created.ConfigurationID), nil), http.StatusConflict, "")
	if strings.Join(refusal.Paths, ",") != "/Data/ImportJobs/Seen.imp" || !strings.Contains(refusal.Reason, "(2 you may not see; ask their owner(s): admin)") ||
		strings.Contains(refusal.Reason, "Closed") {
		t.Fatalf("analyst told %+v", refusal)
	}
	refusal = p.wantFailure(p.call("admin", http.MethodDelete, connectionPath(created.ConfigurationID), nil), http.StatusConflict, "")
	if len(refusal.Paths) != 3 || strings.Contains(refusal.Reason, "may not see") {
		t.Fatalf("admin told %+v", refusal)
	}
}
