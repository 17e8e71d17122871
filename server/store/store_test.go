package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
	_ "modernc.org/sqlite"
)

func open(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func mkdir(t *testing.T, st *store.Store, path string) store.File {
	t.Helper()
	f, err := st.CreateFile(context.Background(), store.NewFile{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mkfile(q interface {
	CreateFile(context.Context, store.NewFile) (store.File, error)
}, path string, sources ...string) (store.File, error) {
	cfg := &model.Configuration{Version: "1", Properties: map[string][]string{}}
	for _, s := range sources {
		cfg.Sources = append(cfg.Sources, model.SourceRef{Path: s})
	}
	return q.CreateFile(context.Background(), store.NewFile{Path: path, Config: cfg})
}

func TestCleanPath(t *testing.T) {
	for path, valid := range map[string]bool{
		"/": true, "/Data": true, "/Data/My Folder/x.dst": true, "/.system": true, "/a..b": true,
		"": false, "Data": false, "/Data/": false, "//Data": false, "/Data//x": false,
		"/Data/../x": false, "/Data/./x": false, "/..": false, "/a\x00b": false,
	} {
		_, err := store.CleanPath(path)
		if (err == nil) != valid {
			t.Errorf("CleanPath(%q) = %v, want valid %v", path, err, valid)
		}
		if err != nil && !errors.Is(err, store.ErrBadInput) {
			t.Errorf("CleanPath(%q) error %v does not wrap ErrBadInput", path, err)
		}
	}
}

func TestSecrets(t *testing.T) {
	dir := t.TempDir()
	secrets, err := store.OpenSecrets(dir)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := store.OpenSecrets(t.TempDir())
	sealed := secrets.Seal("hunter2")
	encoded := store.Encode(sealed)
	foreign := other.Seal("hunter2")
	cases := []struct {
		name, in string
		want     string // what the accepted value opens to
		bad      bool
	}{
		{"plain text is sealed", "hunter2", "hunter2", false},
		{"empty plain text is sealed", "", "", false},
		{"a SECURE value is kept", sealed, "hunter2", false},
		{"an encoded read is taken back", encoded, "hunter2", false},
		{"a SECURE value of another key is refused", foreign, "", true},
		{"a SECURE value that is no ciphertext is refused", "SECURE:0:not base64!", "", true},
		{"an encoded read of another key is refused", store.Encode(foreign), "", true},
		{"the platform's encoded value is refused", "L5lhAwwiuHjl/h08r0pVAg==\r\n", "", true},
		{"plain text ending in CRLF is sealed", "not base64!\r\n", "not base64!\r\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := secrets.Accept(tc.in)
			if tc.bad {
				if !errors.Is(err, store.ErrBadInput) {
					t.Fatalf("Accept(%q) = %q, %v; want ErrBadInput", tc.in, got, err)
				}
				return
			}
			plain, err := secrets.Reveal(got)
			if err != nil || plain != tc.want || strings.Contains(got, "hunter2") {
				t.Fatalf("Accept(%q) = %q opening to %q, %v", tc.in, got, plain, err)
			}
		})
	}
	if store.Encode("plain") != "" {
		t.Fatal("Encode handed out a value that was not sealed")
	}
	again, _ := store.OpenSecrets(dir)
	if plain, err := again.Reveal(sealed); err != nil || plain != "hunter2" {
		t.Fatalf("reopened key: %q %v", plain, err)
	}
}

func TestMigrations(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, err := st.FileByID(context.Background(), store.RootID)
	if err != nil || root.Path != "/" || !root.IsFolder() || root.Owner != store.SystemOwner {
		t.Fatalf("root %+v %v", root, err)
	}
	st.Close()
	st, err = store.Open(dir) // a second open migrates nothing and keeps the root
	if err != nil {
		t.Fatal(err)
	}
	again, _ := st.FileByID(context.Background(), store.RootID)
	if again.UUID != root.UUID {
		t.Fatal("reopening made a new root")
	}
	var version int
	st.DB().QueryRow(`SELECT version FROM schema_versions WHERE part = 'store'`).Scan(&version)
	st.DB().Exec(`UPDATE schema_versions SET version = 999 WHERE part = 'store'`)
	st.Close()
	if version < 1 {
		t.Fatalf("schema version %d", version)
	}
	if _, err := store.Open(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("a newer schema opened: %v", err)
	}
	db, _ := sql.Open("sqlite", filepath.Join(dir, store.DatabaseFile))
	defer db.Close()
	var mode string
	db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Fatalf("journal mode %q", mode)
	}
}

// TestLegacyUserVersionIsMigrated opens a data directory made before
// schema_versions, whose store recorded its schema in PRAGMA user_version:
// its tree is kept, schema_versions records the version, user_version is
// cleared.
func TestLegacyUserVersionIsMigrated(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mkdir(t, st, "/Kept")
	var current int
	if err := st.DB().QueryRow(`SELECT version FROM schema_versions WHERE part = 'store'`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	if _, err := st.DB().Exec(fmt.Sprintf(`DROP TABLE schema_versions; PRAGMA user_version = %d`, current)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, err = store.Open(dir); err != nil {
		t.Fatalf("a data directory of the PRAGMA user_version of its schema does not open: %v", err)
	}
	defer st.Close()
	if _, err := st.FileByPath(context.Background(), "/Kept"); err != nil {
		t.Errorf("the tree was not kept: %v", err)
	}
	var version, userVersion int
	st.DB().QueryRow(`SELECT version FROM schema_versions WHERE part = 'store'`).Scan(&version)
	st.DB().QueryRow(`PRAGMA user_version`).Scan(&userVersion)
	if version != current || userVersion != 0 {
		t.Errorf("schema_versions store %d, user_version %d; want %d and 0", version, userVersion, current)
	}
}

func TestCreateFile(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	mkdir(t, st, "/Data")
	if _, err := mkfile(st, "/Data/a.dst"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		sources    []string
		want       error
	}{
		{"taken", "/Data/a.dst", nil, store.ErrExists},
		{"no parent", "/Nope/b.dst", nil, store.ErrNotFound},
		{"parent is a file", "/Data/a.dst/b.dst", nil, store.ErrBadInput},
		{"unknown extension", "/Data/b.txt", nil, store.ErrBadInput},
		{"bad path", "/Data/../b.dst", nil, store.ErrBadInput},
		{"the root", "/", nil, store.ErrExists},
		{"missing source", "/Data/b.imp", []string{"/Data/none.dst"}, store.ErrNotFound},
		{"folder as source", "/Data/b.imp", []string{"/Data"}, store.ErrNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Inside a transaction that then fails, nothing is left behind.
			err := st.InTx(ctx, func(tx *store.Tx) error {
				_, err := mkfile(tx, tc.path, tc.sources...)
				return err
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	var missing *store.MissingSourceError
	if _, err := mkfile(st, "/Data/c.imp", "/Data/none.dst"); !errors.As(err, &missing) || missing.Source.Path != "/Data/none.dst" {
		t.Fatalf("missing source error %v", err)
	}
	children, _ := st.Children(ctx, mustFind(t, st, "/Data"))
	if len(children) != 1 {
		t.Fatalf("failed creates left %d files", len(children))
	}
}

func mustFind(t *testing.T, st *store.Store, path string) int64 {
	f, err := st.FileByPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f.ID
}

func TestDescendantsAndAncestors(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	for _, p := range []string{"/Data", "/Data/x", "/Data/x/y", "/Data 2", "/Data-old", "/Data0", "/Datab"} {
		mkdir(t, st, p)
	}
	data, _ := st.FileByPath(ctx, "/Data")
	below, err := st.Descendants(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range below {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "/Data/x,/Data/x/y" {
		t.Fatalf("below /Data: %v", paths)
	}
	y, _ := st.FileByPath(ctx, "/Data/x/y")
	above, _ := st.Ancestors(ctx, y)
	paths = nil
	for _, f := range above {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, ",") != "/,/Data,/Data/x" {
		t.Fatalf("above y: %v", paths)
	}
}

func TestAccess(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	owner, _ := st.CreateUser(ctx, "owner", "x", false)
	member, _ := st.CreateUser(ctx, "member", "x", false)
	stranger, _ := st.CreateUser(ctx, "stranger", "x", false)
	admin, _ := st.CreateUser(ctx, "root", "x", true)
	g, _ := st.CreateGroup(ctx, "team")
	st.AddMember(ctx, member.ID, g.ID)
	member, _ = st.UserByName(ctx, "member")

	closed, _ := st.CreateFile(ctx, store.NewFile{Path: "/closed", OwnerID: owner.ID,
		Permissions: &store.Permissions{Groups: map[int64]model.Flags{g.ID: {Readable: true}}}})
	// Inside inherits the group entry; others may read it but not the folder above.
	inside, _ := st.CreateFile(ctx, store.NewFile{Path: "/closed/inside", OwnerID: owner.ID})
	st.SetOthers(ctx, inside.ID, model.Flags{Readable: true, Writable: true})
	inside, _ = st.FileByID(ctx, inside.ID)

	cases := []struct {
		name    string
		user    store.User
		file    store.File
		visible bool
		rights  store.Rights
	}{
		{"owner", owner, closed, true, store.Rights{Read: true, Write: true, Execute: true, Own: true}},
		{"administrator", admin, inside, true, store.Rights{Read: true, Write: true, Execute: true, Own: true}},
		{"group member", member, closed, true, store.Rights{Read: true}},
		{"group member, others flags add up", member, inside, true, store.Rights{Read: true, Write: true}},
		{"stranger", stranger, closed, false, store.Rights{}},
		{"stranger below a closed folder", stranger, inside, false, store.Rights{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rights, visible, err := st.Access(ctx, tc.user, tc.file)
			if err != nil || visible != tc.visible || rights != tc.rights {
				t.Fatalf("rights %+v visible %v err %v; want %+v %v", rights, visible, err, tc.rights, tc.visible)
			}
			vis, _ := st.NewVisibility(ctx, tc.user)
			if v, _ := vis.Visible(ctx, tc.file); v != tc.visible {
				t.Fatalf("Visibility says %v", v)
			}
		})
	}
}

func TestDeleteFile(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	mkdir(t, st, "/Data")
	conn, _ := mkfile(st, "/Data/c.dst")
	job, err := mkfile(st, "/Data/j.imp", "/Data/c.dst")
	if err != nil {
		t.Fatal(err)
	}
	var dependents *store.DependentsError
	if err := st.DeleteFile(ctx, conn); !errors.As(err, &dependents) || strings.Join(dependents.Paths, ",") != "/Data/j.imp" {
		t.Fatalf("delete a used connection: %v", err)
	}
	data, _ := st.FileByPath(ctx, "/Data")
	if err := st.DeleteFile(ctx, data); !errors.Is(err, store.ErrNotEmpty) {
		t.Fatalf("delete a full folder: %v", err)
	}
	root, _ := st.FileByID(ctx, store.RootID)
	if err := st.DeleteFile(ctx, root); !errors.Is(err, store.ErrBadInput) {
		t.Fatalf("delete the root: %v", err)
	}
	for _, f := range []store.File{job, conn, data} {
		if err := st.DeleteFile(ctx, f); err != nil {
			t.Fatalf("delete %s: %v", f.Path, err)
		}
	}
	if _, err := st.FileByPath(ctx, "/Data"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

// A Parent given to CreateFile is used only when it is the folder at the
// parent path; any other is looked up, so a wrong hint cannot misplace a file.
func TestCreateFileParentHint(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	data := mkdir(t, st, "/Data")
	other := mkdir(t, st, "/Other")
	cases := []struct {
		name   string
		path   string
		parent *store.File
	}{
		{"no hint", "/Data/a", nil},
		{"the right folder", "/Data/b", &data},
		{"another folder", "/Data/c", &other},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := st.CreateFile(ctx, store.NewFile{Path: tc.path, Parent: tc.parent})
			if err != nil || f.ParentID != data.ID {
				t.Fatalf("created %+v, %v; want it in /Data (%d)", f, err, data.ID)
			}
		})
	}
	if _, err := st.CreateFile(ctx, store.NewFile{Path: "/Nowhere/x", Parent: &data}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("create in a missing folder with a hint elsewhere: %v", err)
	}
}

// TestPropertyOfKind: one query answers, for every file of a kind, what its
// Configuration's property is; files of other kinds are not read.
func TestPropertyOfKind(t *testing.T) {
	st := open(t)
	ctx := context.Background()
	mkdir(t, st, "/Data")
	withURL := &model.Configuration{Version: "1", Properties: map[string][]string{model.PropConnectionURL: {"file:///srv/a/", "second"}}}
	for _, nf := range []store.NewFile{
		{Path: "/Data/a.dst", Config: withURL},
		{Path: "/Data/b.dst", Config: &model.Configuration{Version: "1", Properties: map[string][]string{}}},
	} {
		if _, err := st.CreateFile(ctx, nf); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mkfile(st, "/Data/c.imp", "/Data/a.dst"); err != nil {
		t.Fatal(err)
	}
	props, err := st.PropertyOfKind(ctx, model.KindConnection, model.PropConnectionURL)
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != 2 {
		t.Fatalf("properties %+v, want the two connections'", props)
	}
	for _, p := range props {
		f, err := st.FileByPath(ctx, p.Path)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := st.Configuration(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != f.ID || p.Value != cfg.Property(model.PropConnectionURL) {
			t.Fatalf("%+v, want id %d and %q", p, f.ID, cfg.Property(model.PropConnectionURL))
		}
	}
	if props[0].Value != "file:///srv/a/" || props[1].Value != "" {
		t.Fatalf("values %+v", props)
	}
}
