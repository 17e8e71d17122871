package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
	"github.com/dapconsole/dapconsole/server/store"
)

var allBackupFlags = []string{model.FlagIncludeOwner, model.FlagIncludeSharing, model.FlagIncludeGroupPermissions, model.FlagIncludeDataPermissions}

var allRestoreFlags = []string{model.FlagIncludeOwner, model.FlagIncludeSharing, model.FlagIncludeGroupPermissions, model.FlagIncludeDataPermissions}

func TestBackupRestoreRoundTrip(t *testing.T) {
	srv, p := demo(t)
	t.Run("with owners and permissions", func(t *testing.T) {
		body := p.backup("admin", "/Data", allBackupFlags...)
		res := p.restore("admin", "/Copies/Data", body, allRestoreFlags...)
		if len(res.Skipped) != 0 || !slices.Contains(res.Restored, "/Copies/Data/Connections/Warehouse.dst") {
			t.Fatalf("result %+v", res)
		}
		sameTree(t, snapshot(t, srv, "/Copies/Data"), snapshot(t, srv, "/Data"))
	})
	t.Run("without flags the uploader owns with default permissions", func(t *testing.T) {
		body := p.backup("admin", "/Data/ImportJobs", model.FlagIgnoreMissingDependencies)
		p.restore("analyst", "/Analytics/Copy", body)
		got := snapshot(t, srv, "/Analytics/Copy")
		sameTree(t, got, snapshot(t, srv, "/Data/ImportJobs"), "owner", "others", "groups")
		parent := storeFile(t, srv, "/Analytics")
		for path, f := range got {
			if f.Owner != "analyst" || f.Others != parent.Others || !reflect.DeepEqual(f.Groups, map[string]model.Flags{"analysts": {Readable: true, Writable: true, Executable: true}}) {
				t.Errorf("%s: owner %s, others %+v, groups %+v; want analyst and /Analytics' permissions", path, f.Owner, f.Others, f.Groups)
			}
		}
	})
	t.Run("sources outside the folder stay, sources inside follow the copy", func(t *testing.T) {
		body := p.backup("admin", "/Analytics", model.FlagIgnoreMissingDependencies)
		p.restore("admin", "/Copies/Analytics", body)
		got := snapshot(t, srv, "/Copies/Analytics")
		sameTree(t, got, snapshot(t, srv, "/Analytics"), "owner", "others", "groups")
		if want := []string{"./Sales.wbk"}; !reflect.DeepEqual(got["./Sales by Region.wbk"].Sources, want) {
			t.Fatalf("copy reads from %v, want %v", got["./Sales by Region.wbk"].Sources, want)
		}
		copied, original := storeFile(t, srv, "/Copies/Analytics/Sales.wbk"), storeFile(t, srv, "/Analytics/Sales.wbk")
		if copied.UUID == original.UUID {
			t.Fatal("a copy beside its original kept the original's UUID")
		}
	})
}

func TestBackupIsStableAndReadable(t *testing.T) {
	_, p := demo(t)
	first, second := p.backup("admin", "/"), p.backup("admin", "/")
	if !bytes.Equal(first, second) {
		t.Fatal("two backups of an unchanged tree differ")
	}
	names := entries(t, first)
	for _, want := range []string{"Data/", "Data/Connections/Warehouse.dst", "Analytics/Sales.wbk", ".system/FileUploadDataStore.dst", "Visualization/Sales Dashboard.gra"} {
		if !slices.Contains(names, want) {
			t.Errorf("entry %s missing from %v", want, names)
		}
	}
	if slices.Contains(names, archive.MetadataName) {
		t.Error("metadata written without a flag")
	}
	for _, n := range names {
		if strings.HasSuffix(n, ".json") {
			t.Errorf("entry %s named .json", n)
		}
	}
}

func TestBackupHoldsTheReadShape(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range a.Entries {
		if e.Path != "Warehouse.dst" {
			continue
		}
		got, _ := a.ReadFile(e)
		read := p.call("admin", http.MethodGet, fmt.Sprintf("/rest/connections/%d", p.connectionID("/Data/Connections/Warehouse.dst")), nil)
		if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(read.body)) {
			t.Fatalf("entry body\n%s\nread body\n%s", got, read.body)
		}
		return
	}
	t.Fatal("Warehouse.dst not in the archive")
}

func TestBackupRefs(t *testing.T) {
	srv, p := demo(t)
	data := storeFile(t, srv, "/Data")
	cases := []struct {
		name string
		url  string
		code int
	}{
		{"by id", fmt.Sprintf("/api/filesystem/folders/%d/backup", data.ID), http.StatusOK},
		{"by uuid", "/api/filesystem/folders/" + data.UUID + "/backup", http.StatusOK},
		{"by path", backupURL("/Data"), http.StatusOK},
		{"by path with a space", backupURL("/Data/Data Links"), http.StatusNotFound},
		{"root by path", "/api/filesystem/folders/%2F/backup", http.StatusOK},
		{"a file", backupURL("/Data/Connections/Warehouse.dst"), http.StatusNotFound},
		{"missing", backupURL("/Nowhere"), http.StatusNotFound},
		{"dot-dot", "/api/filesystem/folders/%2FData%2F..%2FExports/backup", http.StatusBadRequest},
		{"unknown flag", backupURL("/Data", "includeEverything"), http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := p.call("admin", http.MethodGet, c.url, nil)
			if a.code != c.code {
				t.Fatalf("status %d, want %d: %s", a.code, c.code, a.body)
			}
			if c.code == http.StatusOK {
				unzipAccepts(t, a.body)
			}
		})
	}
}

func TestBackupOnlyWhatTheUserMayRead(t *testing.T) {
	_, p := demo(t)
	names := entries(t, p.backup("viewer", "/", model.FlagIgnoreMissingDependencies))
	for _, hidden := range []string{"Exports/", "Analytics/Finance/", "Users/analyst/"} {
		if slices.Contains(names, hidden) {
			t.Errorf("viewer's backup holds %s", hidden)
		}
	}
	if !slices.Contains(names, "Data/Connections/Warehouse.dst") {
		t.Errorf("viewer's backup lacks what it may read: %v", names)
	}
	p.wantFailure(p.call("viewer", http.MethodGet, backupURL("/Exports"), nil), http.StatusNotFound, "not found")
	// Below the root too: a folder's backup leaves out what is closed inside it.
	names = entries(t, p.backup("viewer", "/Analytics", model.FlagIgnoreMissingDependencies))
	if slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "Finance/") }) || !slices.Contains(names, "Sales.wbk") {
		t.Errorf("viewer's backup of /Analytics: %v", names)
	}
}

func TestBackupDependencyFlags(t *testing.T) {
	_, p := demo(t)
	t.Run("none: an error naming the dependencies", func(t *testing.T) {
		f := p.wantFailure(p.call("admin", http.MethodGet, backupURL("/Analytics"), nil), http.StatusConflict, "/Data/ImportJobs/Orders.imp")
		want := []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp", "/Data/ImportJobs/Products.imp", "/Data/ImportJobs/Customer List.imp"}
		slices.Sort(want)
		got := slices.Clone(f.Paths)
		slices.Sort(got)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("paths %v, want %v", got, want)
		}
	})
	t.Run(model.FlagIgnoreMissingDependencies, func(t *testing.T) {
		names := entries(t, p.backup("admin", "/Analytics", model.FlagIgnoreMissingDependencies))
		if !slices.Contains(names, "Sales.wbk") || !slices.Contains(names, "Finance/Revenue by Product.wbk") {
			t.Fatalf("entries %v", names)
		}
	})
	t.Run(model.FlagSkipFilesWithMissingDependencies, func(t *testing.T) {
		names := entries(t, p.backup("admin", "/Analytics", model.FlagSkipFilesWithMissingDependencies))
		want := []string{"Finance/", "Finance/Finance PostgreSQL.dst"} // Sales by Region reads from the skipped Sales
		if !reflect.DeepEqual(names, want) {
			t.Fatalf("entries %v, want %v", names, want)
		}
	})
}

func TestBackupMetadataFlags(t *testing.T) {
	_, p := demo(t)
	cases := []struct {
		flag  string
		check func(m archive.FileMeta, wbk archive.FileMeta) bool
	}{
		{model.FlagIncludeOwner, func(m, _ archive.FileMeta) bool {
			return m.Owner == "analyst" && m.Others == nil && m.Groups == nil && m.Data == nil
		}},
		{model.FlagIncludeSharing, func(m, _ archive.FileMeta) bool {
			return m.Owner == "" && m.Others != nil && *m.Others == model.Flags{} && m.Groups == nil
		}},
		{model.FlagIncludeGroupPermissions, func(m, _ archive.FileMeta) bool {
			return m.Owner == "" && m.Others == nil && reflect.DeepEqual(m.Groups, []model.GroupPermission{{Name: "analysts", Flags: model.Flags{Readable: true, Writable: true, Executable: true}}})
		}},
		{model.FlagIncludeDataPermissions, func(m, wbk archive.FileMeta) bool {
			return m.Data == nil && m.Groups == nil && wbk.Data != nil && reflect.DeepEqual(wbk.Data.ReadableGroups, []string{"analysts"}) && !wbk.Data.OthersReadable
		}},
	}
	for _, c := range cases {
		t.Run(c.flag, func(t *testing.T) {
			body := p.backup("admin", "/Analytics", c.flag, model.FlagIgnoreMissingDependencies)
			m := metadataOf(t, body)
			if m == nil || len(m.Included) != 1 {
				t.Fatalf("metadata %+v, want one section", m)
			}
			if !c.check(m.Files["Finance"], m.Files["Finance/Revenue by Product.wbk"]) {
				t.Fatalf("Finance %+v, workbook %+v", m.Files["Finance"], m.Files["Finance/Revenue by Product.wbk"])
			}
		})
	}
}

func TestBackupChosenFiles(t *testing.T) {
	srv, p := demo(t)
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	warehouse := storeFile(t, srv, "/Data/Connections/Warehouse.dst")
	sel := model.BackupSelection{IDs: []any{"/Data/Connections/Local Files.dst", orders.ID, warehouse.UUID}}
	a := p.call("admin", http.MethodPost, backupURL("/Data"), sel)
	if a.code != http.StatusOK {
		t.Fatalf("status %d: %s", a.code, a.body)
	}
	unzipAccepts(t, a.body)
	want := []string{"Connections/", "Connections/Local Files.dst", "Connections/Warehouse.dst", "ImportJobs/", "ImportJobs/Orders.imp"}
	if got := entries(t, a.body); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %v, want %v", got, want)
	}
	// Dependencies are judged against the folder backed up, not the selection.
	cases := []struct {
		name, folder string
		ids          []any
		flags        []string
		code         int
		entries      []string
	}{
		{"dependency in the folder, not chosen", "/Data", []any{orders.ID}, nil, http.StatusOK, []string{"ImportJobs/", "ImportJobs/Orders.imp"}},
		{"dependency outside the folder", "/Data/ImportJobs", []any{orders.ID}, nil, http.StatusConflict, nil},
		{"dependency outside, ignored", "/Data/ImportJobs", []any{orders.ID}, []string{model.FlagIgnoreMissingDependencies}, http.StatusOK, []string{"Orders.imp"}},
		{"dependency outside, skipped", "/Data/ImportJobs", []any{orders.ID, "/Data/ImportJobs/Events.imp"},
			[]string{model.FlagSkipFilesWithMissingDependencies}, http.StatusOK, []string{archive.MetadataName}},
		{"outside the folder", "/Data", []any{"/Analytics/Sales.wbk"}, nil, http.StatusBadRequest, nil},
		{"not an id", "/Data", []any{1.5}, nil, http.StatusBadRequest, nil},
		{"missing", "/Data", []any{"/Data/Nothing.dst"}, nil, http.StatusNotFound, nil},
		{"empty", "/Data", []any{}, nil, http.StatusBadRequest, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := p.call("admin", http.MethodPost, backupURL(c.folder, c.flags...), model.BackupSelection{IDs: c.ids})
			if a.code != c.code {
				t.Fatalf("status %d, want %d: %s", a.code, c.code, a.body)
			}
			if c.entries == nil {
				return
			}
			if got := entries(t, a.body); !reflect.DeepEqual(got, c.entries) {
				t.Fatalf("entries %v, want %v", got, c.entries)
			}
		})
	}
}

// TestRestoreOfAFileConnectionOverAnotherIsAdminOnly: an analyst's copy of
// /Data/Connections would own a Local Files over the directory the
// analysts' imports read, so it is refused (403) and changes nothing; an
// administrator may.
func TestRestoreOfAFileConnectionOverAnotherIsAdminOnly(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("analyst", restoreURL("/Analytics/Copy"), "application/zip", body), http.StatusForbidden, "another connection already serves")
	if !reflect.DeepEqual(f.Paths, []string{"/Analytics/Copy/Local Files.dst"}) {
		t.Fatalf("paths %v", f.Paths)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a refused restore changed the tree")
	}
	p.restore("admin", "/Analytics/Copy", body)
}

func TestRestoreCreatesAMissingTargetByPath(t *testing.T) {
	srv, p := demo(t)
	body := buildArchive(t, nil, archiveFile{path: "Warehouse.dst", cfg: connectionConfig("Warehouse")})
	p.restore("analyst", "/Analytics/New/Deeper", body)
	for _, path := range []string{"/Analytics/New", "/Analytics/New/Deeper"} {
		if f := storeFile(t, srv, path); !f.IsFolder() || f.Owner != "analyst" {
			t.Fatalf("%s: %+v, want a folder owned by the uploader", path, f)
		}
	}
	storeFile(t, srv, "/Analytics/New/Deeper/Warehouse.dst")
	p.wantFailure(p.upload("admin", "/api/filesystem/folders/999999/restore", "application/zip", body), http.StatusNotFound, "not found")

	// "+" is a space in a path, when it is created as when it is looked up.
	// (A connection of its own: two may not serve one directory.)
	p.restore("analyst", "/Analytics/Plus+Folder", buildArchive(t, nil, archiveFile{path: "Warehouse.dst", cfg: connectionConfig("Plus")}))
	storeFile(t, srv, "/Analytics/Plus Folder/Warehouse.dst")
	if again := p.backup("analyst", "/Analytics/Plus+Folder"); !slices.Contains(entries(t, again), "Warehouse.dst") {
		t.Fatalf("a backup of /Analytics/Plus+Folder holds %v", entries(t, again))
	}
}

func TestRestoreConflictsWithoutOverwrite(t *testing.T) {
	srv, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("admin", restoreURL("/Data/Connections"), "application/zip", body), http.StatusConflict, "already exist")
	if !slices.Contains(f.Paths, "/Data/Connections/Warehouse.dst") || len(f.Paths) != 5 {
		t.Fatalf("conflicts %v", f.Paths)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a refused restore changed the tree")
	}
	_ = srv
}

// TestRestoreOverwriteReplacesNeverMerges: an overwritten configuration
// takes the archive's representation whole, and keeps its identity.
func TestRestoreOverwriteReplacesNeverMerges(t *testing.T) {
	srv, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	p.restore("admin", "/Copy", body) // a copy nothing reads from
	id := p.connectionID("/Copy/MYSQL_QA1.dst")
	var cfg model.Configuration
	p.get("admin", fmt.Sprintf("/rest/connections/%d", id), &cfg)
	cfg.Properties["addedLater"] = []string{"x"}
	p.want(p.call("admin", http.MethodPut, fmt.Sprintf("/rest/connections/%d", id), cfg), http.StatusOK, nil)
	res := p.restore("admin", "/Copy", body, model.FlagOverwrite)
	if len(res.Restored) != 5 {
		t.Fatalf("result %+v", res)
	}
	replaced := storeFile(t, srv, "/Copy/MYSQL_QA1.dst")
	got, _ := srv.Store().Configuration(context.Background(), replaced)
	if _, merged := got.Properties["addedLater"]; merged {
		t.Fatal("overwrite merged a property the archive does not hold")
	}
	if replaced.ConfigID != id {
		t.Fatalf("overwrite gave configuration id %d, want %d kept", replaced.ConfigID, id)
	}
}

func TestRestoreOverwriteRefusesDownstreamDependents(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Data/ImportJobs", model.FlagIgnoreMissingDependencies)
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("admin", restoreURL("/Data/ImportJobs", model.FlagOverwrite), "application/zip", body), http.StatusConflict, "still used by")
	if !slices.Contains(f.Paths, "/Analytics/Sales.wbk") && !slices.Contains(f.Paths, "/Analytics/Customers per Region.wbk") {
		t.Fatalf("dependents %v, want a workbook reading the imports among them", f.Paths)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a refused overwrite changed the tree")
	}
}

// TestRestoreOverwriteHidesInvisibleDependents: an overwrite refused for a
// dependent the uploader may not see counts it without naming it.
func TestRestoreOverwriteHidesInvisibleDependents(t *testing.T) {
	srv, p := demo(t)
	body := buildArchive(t, nil, archiveFile{path: "C.dst", cfg: connectionConfig("C")})
	p.restore("analyst", "/Analytics/Proj", body)
	ctx := context.Background()
	private, err := srv.Store().CreateFile(ctx, store.NewFile{Path: "/Private", OwnerID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Store().SetOthers(ctx, private.ID, model.Flags{}); err != nil {
		t.Fatal(err)
	}
	secret := &model.Configuration{Version: "1", TypeID: "das.WorkbookType", Properties: map[string][]string{"sql": {"SELECT 1"}},
		Sources: []model.SourceRef{{Path: "/Analytics/Proj/C.dst"}}}
	if _, err := srv.Store().CreateFile(ctx, store.NewFile{Path: "/Private/Secret Plan.wbk", OwnerID: 1, Config: secret}); err != nil {
		t.Fatal(err)
	}
	a := p.upload("analyst", restoreURL("/Analytics/Proj", model.FlagOverwrite), "application/zip", body)
	f := p.wantFailure(a, http.StatusConflict, "1 you may not see")
	if strings.Contains(string(a.body), "Secret Plan") || len(f.Paths) != 0 {
		t.Fatalf("the refusal names a file the uploader may not see: %s", a.body)
	}
	f = p.wantFailure(p.upload("admin", restoreURL("/Analytics/Proj", model.FlagOverwrite), "application/zip", body), http.StatusConflict, "still used by")
	if !reflect.DeepEqual(f.Paths, []string{"/Private/Secret Plan.wbk"}) {
		t.Fatalf("admin sees dependents %v", f.Paths)
	}
}

func TestRestoreOwners(t *testing.T) {
	srv, p := demo(t)
	body := p.backup("admin", "/Analytics/Finance", model.FlagIncludeOwner, model.FlagIgnoreMissingDependencies)
	t.Run("uploader owns without includeOwner", func(t *testing.T) {
		p.restore("admin", "/Restore1", body)
		if f := storeFile(t, srv, "/Restore1/Finance PostgreSQL.dst"); f.Owner != "admin" {
			t.Fatalf("owner %s, want the uploader", f.Owner)
		}
	})
	t.Run(model.FlagIncludeOwner, func(t *testing.T) {
		p.restore("admin", "/Restore2", body, model.FlagIncludeOwner)
		if f := storeFile(t, srv, "/Restore2/Finance PostgreSQL.dst"); f.Owner != "analyst" {
			t.Fatalf("owner %s, want analyst", f.Owner)
		}
	})
	ghost := buildArchive(t, []string{archive.SectionOwner},
		archiveFile{path: "Ghost.dst", cfg: connectionConfig("Ghost"), meta: &archive.FileMeta{Owner: "ghost"}})
	t.Run("unknown owner aborts", func(t *testing.T) {
		before := p.backup("admin", "/")
		f := p.wantFailure(p.upload("admin", restoreURL("/Restore3", model.FlagIncludeOwner), "application/zip", ghost), http.StatusConflict, "ghost")
		if !reflect.DeepEqual(f.Paths, []string{"/Restore3/Ghost.dst"}) {
			t.Fatalf("paths %v", f.Paths)
		}
		if !bytes.Equal(before, p.backup("admin", "/")) {
			t.Fatal("an aborted restore changed the tree")
		}
	})
	t.Run(model.FlagSubstituteMissingUser, func(t *testing.T) {
		p.restore("analyst", "/Analytics/Restore4", ghost, model.FlagIncludeOwner, model.FlagSubstituteMissingUser)
		if f := storeFile(t, srv, "/Analytics/Restore4/Ghost.dst"); f.Owner != "analyst" {
			t.Fatalf("owner %s, want the uploader in place of the unknown one", f.Owner)
		}
	})
	t.Run("substituteMissingUser alone changes nothing", func(t *testing.T) {
		another := buildArchive(t, []string{archive.SectionOwner}, // two connections may not serve one directory
			archiveFile{path: "Ghost.dst", cfg: connectionConfig("Ghost 5"), meta: &archive.FileMeta{Owner: "ghost"}})
		p.restore("analyst", "/Analytics/Restore5", another, model.FlagSubstituteMissingUser)
		if f := storeFile(t, srv, "/Analytics/Restore5/Ghost.dst"); f.Owner != "analyst" {
			t.Fatalf("owner %s", f.Owner)
		}
	})
}

func TestRestoreSharing(t *testing.T) {
	srv, p := demo(t)
	body := p.backup("admin", "/Data/Connections", model.FlagIncludeSharing)
	p.restore("admin", "/Exports/Without", body) // /Exports: others may not read
	p.restore("admin", "/Exports/With", body, model.FlagIncludeSharing)
	if f := storeFile(t, srv, "/Exports/Without/Warehouse.dst"); f.Others.Readable {
		t.Fatal("others' flags restored without includeSharing")
	}
	if f := storeFile(t, srv, "/Exports/With/Warehouse.dst"); !f.Others.Readable {
		t.Fatal("others' flags not restored with includeSharing")
	}
}

func TestRestoreGroupPermissions(t *testing.T) {
	srv, p := demo(t)
	groupsOf := func(path string) map[string]model.Flags {
		gps, err := srv.Store().GroupPermissions(context.Background(), storeFile(t, srv, path).ID)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]model.Flags{}
		for _, g := range gps {
			out[g.Group.Name] = g.Flags
		}
		return out
	}
	body := p.backup("admin", "/Data", model.FlagIncludeGroupPermissions)
	p.restore("admin", "/G1", body)
	if g := groupsOf("/G1/Connections"); len(g) != 0 {
		t.Fatalf("groups %v restored without includeGroupPermissions", g)
	}
	p.restore("admin", "/G2", body, model.FlagIncludeGroupPermissions)
	if got, want := groupsOf("/G2/Connections"), groupsOf("/Data/Connections"); !reflect.DeepEqual(got, want) {
		t.Fatalf("groups %v, want %v", got, want)
	}

	stranger := buildArchive(t, []string{archive.SectionGroupPermissions, archive.SectionDataPermissions},
		archiveFile{path: "S.dst", cfg: connectionConfig("S"), meta: &archive.FileMeta{Groups: []model.GroupPermission{
			{Name: "strangers", Flags: model.Flags{Readable: true}}, {Name: "viewers", Flags: model.Flags{Readable: true}}}}},
		archiveFile{path: "W.wbk", cfg: &model.Configuration{Version: "1", TypeID: "das.WorkbookType", Properties: map[string][]string{"sql": {"SELECT 1"}}},
			meta: &archive.FileMeta{Data: &archive.DataPermissions{OthersReadable: true, ReadableGroups: []string{"viewers", "strangers"}}}})
	t.Run("unknown group fails", func(t *testing.T) {
		before := p.backup("admin", "/")
		p.wantFailure(p.upload("admin", restoreURL("/G3", model.FlagIncludeGroupPermissions), "application/zip", stranger), http.StatusConflict, "strangers")
		p.wantFailure(p.upload("admin", restoreURL("/G3", model.FlagIncludeDataPermissions), "application/zip", stranger), http.StatusConflict, "strangers")
		if !bytes.Equal(before, p.backup("admin", "/")) {
			t.Fatal("a failed restore changed the tree")
		}
	})
	t.Run(model.FlagIgnoreUnknownGroups, func(t *testing.T) {
		p.restore("admin", "/G4", stranger, model.FlagIncludeGroupPermissions, model.FlagIgnoreUnknownGroups)
		if got := groupsOf("/G4/S.dst"); !reflect.DeepEqual(got, map[string]model.Flags{"viewers": {Readable: true}}) {
			t.Fatalf("groups %v, want viewers only", got)
		}
	})
	t.Run("ignoreUnknownGroups alone acts on nothing", func(t *testing.T) {
		p.restore("admin", "/G5", stranger, model.FlagIgnoreUnknownGroups)
		if got := groupsOf("/G5/S.dst"); len(got) != 0 {
			t.Fatalf("groups %v", got)
		}
	})
	t.Run(model.FlagIncludeDataPermissions, func(t *testing.T) {
		p.restore("admin", "/G6", stranger, model.FlagIncludeDataPermissions, model.FlagIgnoreUnknownGroups)
		if got := groupsOf("/G6/W.wbk"); !reflect.DeepEqual(got, map[string]model.Flags{"viewers": {Readable: true}}) {
			t.Fatalf("workbook groups %v, want viewers reading", got)
		}
		if f := storeFile(t, srv, "/G6/W.wbk"); !f.Others.Readable {
			t.Fatal("others' read permission not restored with includeDataPermissions")
		}
		if got := groupsOf("/G6/S.dst"); len(got) != 0 {
			t.Fatalf("data permissions acted on a connection: %v", got)
		}
	})
}

func TestRestoreSkipFilesWithMissingDependencies(t *testing.T) {
	srv, p := demo(t)
	lost := buildArchive(t, nil,
		archiveFile{path: "Kept.dst", cfg: connectionConfig("Kept")},
		archiveFile{path: "Orphan.imp", cfg: &model.Configuration{Version: "1", TypeID: "das.CsvImportJobType",
			File:      model.FileInfo{UUID: "5b0c8a7e-1c1d-4c1e-9c1f-000000000001", Path: "/Old/Orphan.imp"},
			DataStore: &model.SourceRef{UUID: "5b0c8a7e-1c1d-4c1e-9c1f-0000000000ff", Path: "/Old/Gone.dst"}}},
		archiveFile{path: "Downstream.wbk", cfg: &model.Configuration{Version: "1", TypeID: "das.WorkbookType",
			Sheets: []model.Sheet{{Name: "Orphan", Datasource: &model.SourceRef{Path: "/Old/Orphan.imp"}}}}})
	before := p.backup("admin", "/")
	f := p.wantFailure(p.upload("admin", restoreURL("/S1"), "application/zip", lost), http.StatusConflict, "/Old/Gone.dst")
	if !reflect.DeepEqual(f.Paths, []string{"/S1/Orphan.imp"}) {
		t.Fatalf("paths %v", f.Paths)
	}
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a failed restore changed the tree")
	}
	res := p.restore("admin", "/S2", lost, model.FlagSkipFilesWithMissingDependencies)
	want := []model.SkippedFile{{Path: "/S2/Downstream.wbk", Reason: "depends on skipped /S2/Orphan.imp"},
		{Path: "/S2/Orphan.imp", Reason: "source /Old/Gone.dst cannot be resolved"}}
	if !reflect.DeepEqual(res.Skipped, want) || !reflect.DeepEqual(res.Restored, []string{"/S2/Kept.dst"}) {
		t.Fatalf("result %+v", res)
	}
	if _, err := srv.Store().FileByPath(context.Background(), "/S2/Orphan.imp"); err == nil {
		t.Fatal("a skipped file was restored")
	}
}

func TestRestoreNeedsWritePermission(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	p.wantFailure(p.upload("viewer", restoreURL("/Data"), "application/zip", body), http.StatusForbidden, "write permission")
	p.wantFailure(p.upload("viewer", restoreURL("/Data/New"), "application/zip", body), http.StatusForbidden, "write permission")
	p.wantFailure(p.upload("viewer", restoreURL("/Exports/New"), "application/zip", body), http.StatusForbidden, "/: write permission required")
	p.wantFailure(p.upload("analyst", restoreURL("/Data/Connections/Warehouse.dst"), "application/zip", body), http.StatusBadRequest, "not a folder")
}

func TestRestoreRequestChecks(t *testing.T) {
	_, p := demo(t)
	body := p.backup("admin", "/Data/Connections")
	p.wantFailure(p.upload("admin", restoreURL("/R"), "application/json", body), http.StatusUnsupportedMediaType, "application/zip")
	p.wantFailure(p.upload("admin", restoreURL("/R"), "", body), http.StatusUnsupportedMediaType, "application/zip")
	p.wantFailure(p.upload("admin", restoreURL("/R", "overwrite=false&merge"), "application/zip", body), http.StatusBadRequest, "unknown flag")
	// A flag with a value other than "true" is refused: `overwrite=false` must not overwrite.
	p.wantFailure(p.upload("admin", restoreURL("/R", "overwrite=false"), "application/zip", body), http.StatusBadRequest, "flags take no value")
	p.wantFailure(p.call("admin", http.MethodGet, backupURL("/Data", "includeOwner=0"), nil), http.StatusBadRequest, "flags take no value")
	p.want(p.call("admin", http.MethodGet, backupURL("/Data", "includeOwner=true", "includeSharing="), nil), http.StatusOK, nil)
	// A parameter on the media type is no reason to refuse: the restore is made.
	var res model.RestoreResult
	p.want(p.upload("admin", restoreURL("/R"), "application/zip; charset=binary", body), http.StatusOK, &res)
	if !slices.Contains(res.Restored, "/R/Warehouse.dst") {
		t.Errorf("restore with a charset parameter: %+v", res)
	}
}

// TestRestoreRefusesHostileArchives sends each archive of the hostile corpus:
// a clear 400 or 413, and a backup taken after equals one taken before.
func TestRestoreRefusesHostileArchives(t *testing.T) {
	_, p := start(t, server.Config{DataDir: t.TempDir(), DemoData: true, ArchiveLimits: archivetest.Limits})
	before := p.backup("admin", "/")
	for _, c := range archivetest.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			code := http.StatusBadRequest
			if c.Want == archive.ErrTooLarge {
				code = http.StatusRequestEntityTooLarge
			}
			p.wantFailure(p.upload("admin", restoreURL("/Hostile"), "application/zip", c.Body), code, c.Fragment)
			if !bytes.Equal(before, p.backup("admin", "/")) {
				t.Fatal("a refused archive changed the tree")
			}
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		p.wantFailure(p.upload("admin", restoreURL("/Hostile"), "text/plain", []byte("PK")), http.StatusUnsupportedMediaType, "application/zip")
	})
}

// TestRestoreIsAllOrNothing fails a restore on its last file, after the
// target folder, the sub-folders and the other files were created: nothing stays.
func TestRestoreIsAllOrNothing(t *testing.T) {
	_, p := demo(t)
	bad := connectionConfig("Z")
	bad.Properties["password"] = []string{"SECURE:0:not-sealed-with-this-key"}
	body := buildArchive(t, nil,
		archiveFile{path: "A"}, archiveFile{path: "A/a.dst", cfg: connectionConfig("a")},
		archiveFile{path: "B"}, archiveFile{path: "B/Z.dst", cfg: bad})
	before := p.backup("admin", "/")
	p.wantFailure(p.upload("admin", restoreURL("/Atomic/Target"), "application/zip", body), http.StatusBadRequest, "B/Z.dst")
	if !bytes.Equal(before, p.backup("admin", "/")) {
		t.Fatal("a failed restore left changes behind")
	}
}

// TestRestoreInfoZipArchive restores an archive made by Info-ZIP from a tree on disk.
func TestRestoreInfoZipArchive(t *testing.T) {
	zipPath, err := exec.LookPath("zip")
	if err != nil {
		t.Skip("Info-ZIP zip is not installed; skipping")
	}
	srv, p := demo(t)
	tree := t.TempDir()
	files := map[string]string{
		"Project/Connections/Files.dst": `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","file":{"name":"Files","path":"/Project/Connections/Files.dst"},"typeId":"das.FileSystemDataStoreType","properties":{"key.connectionUrl":["file:///srv/project/"]}}`,
		"Project/Jobs/Orders.imp":       `{"version":"1","typeId":"das.CsvImportJobType","file":{"name":"Orders","path":"/Project/Jobs/Orders.imp"},"properties":{"path":["orders.csv"]},"sources":[{"path":"/Project/Connections/Files.dst"}]}`,
		"Project/Sales.wbk":             `{"version":"1","typeId":"das.WorkbookType","file":{"name":"Sales"},"properties":{"sql":["SELECT * FROM input1"]},"sources":[{"path":"/Project/Jobs/Orders.imp"}]}`,
	}
	for name, body := range files {
		os.MkdirAll(filepath.Join(tree, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(tree, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "project.zip")
	cmd := exec.Command(zipPath, "-qr", out, "Project")
	cmd.Dir = tree
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip -r: %v: %s", err, msg)
	}
	body, _ := os.ReadFile(out)
	res := p.restore("admin", "/Imported", body)
	if len(res.Restored) != 6 {
		t.Fatalf("result %+v", res)
	}
	cfg, err := srv.Store().Configuration(context.Background(), storeFile(t, srv, "/Imported/Project/Sales.wbk"))
	if err != nil {
		t.Fatal(err)
	}
	if links := cfg.Links(); len(links) != 1 || links[0].Path != "/Imported/Project/Jobs/Orders.imp" {
		t.Fatalf("workbook reads from %+v, want the restored import job", links)
	}
}

// TestBackupOfAnEmptyFolder: an archive with no folder or file still holds
// the metadata entry, so `unzip -t` accepts it, and it restores to nothing.
func TestBackupOfAnEmptyFolder(t *testing.T) {
	srv, p := demo(t)
	if _, err := srv.Store().CreateFile(context.Background(), store.NewFile{Path: "/Empty", OwnerID: 1}); err != nil {
		t.Fatal(err)
	}
	body := p.backup("admin", "/Empty")
	if names := entries(t, body); !reflect.DeepEqual(names, []string{archive.MetadataName}) {
		t.Fatalf("entries %v", names)
	}
	res := p.restore("analyst", "/Analytics/Empty Copy", body)
	if len(res.Restored) != 0 || !storeFile(t, srv, "/Analytics/Empty Copy").IsFolder() {
		t.Fatalf("result %+v", res)
	}
}

// TestRestoreCommittedInfoZipArchive restores testdata/archives/infozip-project.zip,
// made with `zip -qrX project.zip Project` (Info-ZIP 3.0), so the check runs
// where zip is not installed too.
func TestRestoreCommittedInfoZipArchive(t *testing.T) {
	srv, p := demo(t)
	body, err := os.ReadFile(filepath.Join("..", "testdata", "archives", "infozip-project.zip"))
	if err != nil {
		t.Fatal(err)
	}
	res := p.restore("admin", "/Analytics/Sample", body) // its Files.dst serves /tmp, around the data directory: admin only
	want := []string{"/Analytics/Sample/Project", "/Analytics/Sample/Project/Connections", "/Analytics/Sample/Project/Connections/Files.dst",
		"/Analytics/Sample/Project/Jobs", "/Analytics/Sample/Project/Jobs/Orders.imp", "/Analytics/Sample/Project/Sales.wbk"}
	if !reflect.DeepEqual(res.Restored, want) {
		t.Fatalf("restored %v, want %v", res.Restored, want)
	}
	got := snapshot(t, srv, "/Analytics/Sample")
	if s := got["./Project/Sales.wbk"].Sources; !reflect.DeepEqual(s, []string{"./Project/Jobs/Orders.imp"}) {
		t.Fatalf("workbook reads from %v", s)
	}
	if s := got["./Project/Jobs/Orders.imp"].Sources; !reflect.DeepEqual(s, []string{"./Project/Connections/Files.dst"}) {
		t.Fatalf("import job reads from %v", s)
	}
}

// TestRestoreSecretsOfAnotherServer restores, on a second server (another
// key), a backup holding an encoded password: a 400 naming the entry and no
// change, never the first server's ciphertext stored as the password.
func TestRestoreSecretsOfAnotherServer(t *testing.T) {
	_, from := demo(t)
	body := from.backup("admin", "/Data/Connections")
	_, to := demo(t)
	before := to.backup("admin", "/")
	to.wantFailure(to.upload("admin", restoreURL("/Migrated"), "application/zip", body), http.StatusBadRequest, "MYSQL_QA1.dst")
	if !bytes.Equal(before, to.backup("admin", "/")) {
		t.Fatal("a refused restore changed the tree")
	}
}

// Without permission flags, restored files take the permissions of the
// folder they land in, as new files do.
func TestRestoreInheritsTheTargetsPermissions(t *testing.T) {
	srv, p := demo(t)
	ctx := context.Background()
	body := p.backup("admin", "/Data/Connections")
	var result model.RestoreResult
	p.want(p.upload("admin", restoreURL("/Exports/Copy"), "application/zip", body), http.StatusOK, &result)
	if len(result.Restored) == 0 {
		t.Fatalf("nothing restored: %+v", result)
	}
	exports, err := srv.Store().FileByPath(ctx, "/Exports")
	if err != nil {
		t.Fatal(err)
	}
	wantGroups, _ := srv.Store().GroupPermissions(ctx, exports.ID)
	for _, path := range result.Restored {
		f, err := srv.Store().FileByPath(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		groups, _ := srv.Store().GroupPermissions(ctx, f.ID)
		if f.Others != exports.Others || !reflect.DeepEqual(groups, wantGroups) {
			t.Errorf("%s: others %+v groups %+v, want those of /Exports: %+v %+v", path, f.Others, groups, exports.Others, wantGroups)
		}
	}
}

// An entry whose body is not a configuration's JSON refuses the whole
// restore with 400, whichever step finds it, and changes nothing.
func TestRestoreRefusesEntriesThatAreNoConfiguration(t *testing.T) {
	srv, p := demo(t)
	cases := []struct{ name, body string }{
		{"not JSON", "SELECT * FROM orders"},
		{"cut short", `{"version":"2.1","properties":{`},
		{"file of the wrong type", `{"version":"2.1","file":"C.dst"}`},
		{"properties of the wrong type", `{"version":"2.1","properties":5}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := archive.NewWriter(&buf, nil)
			if err := w.AddFile("Good.dst", mustJSON(t, connectionConfig("Good")), nil); err != nil {
				t.Fatal(err)
			}
			if err := w.AddFile("Bad.dst", []byte(tc.body), nil); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, srv, "/Data")
			p.wantFailure(p.upload("admin", restoreURL("/Data"), "application/zip", buf.Bytes()), http.StatusBadRequest, "Bad.dst")
			sameTree(t, snapshot(t, srv, "/Data"), before)
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
