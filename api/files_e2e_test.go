package api_test

import (
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

func TestE2EFilesOfKind(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	cases := []struct {
		kind     model.Kind
		path     string // one file of the kind
		toViewer bool
	}{
		{model.KindConnection, "/Data/Connections/Warehouse.dst", true},
		{model.KindImportJob, "/Data/ImportJobs/Orders.imp", true},
		{model.KindDataLink, "/Data/DataLinks/Orders With Errors.lnk", true},
		{model.KindFileUpload, "/Users/analyst/Regions.upl", false},
		{model.KindWorkbook, "/Analytics/Sales by Region.wbk", true},
		{model.KindWorkbook, "/Analytics/Finance/Revenue by Product.wbk", false},
		{model.KindExportJob, "/Exports/Sales by Region.exp", false},
		{model.KindInfographic, "/Visualization/Sales Dashboard.gra", true},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			all, err := admin.FilesOfKind(ctx, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(all, func(e model.FileEntry) bool { return e.Path == tc.path })
			if i < 0 {
				t.Fatalf("admin's %s list lacks %s: %v", tc.kind, tc.path, all)
			}
			entry := all[i]
			seen, err := viewer.FilesOfKind(ctx, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.ContainsFunc(seen, func(e model.FileEntry) bool { return e.Path == tc.path }); got != tc.toViewer {
				t.Fatalf("viewer lists %s: %v, want %v", tc.path, got, tc.toViewer)
			}
			cfg, err := viewer.Configuration(ctx, tc.kind, entry.ID)
			if !tc.toViewer {
				if !api.IsNotFound(err) {
					t.Fatalf("viewer reads %s: %v, want 404", tc.path, err)
				}
				return
			}
			if err != nil || cfg.File.UUID != entry.UUID {
				t.Fatalf("read %s: %+v, %v", tc.path, cfg.File, err)
			}
			f, err := viewer.File(ctx, api.UUID(entry.UUID))
			if err != nil || f.Path != tc.path || f.ID() == 0 {
				t.Fatalf("file entry of %s: %+v, %v", tc.path, f, err)
			}
		})
	}
}

// The import-job family is one list on the wire, read once for its three
// kinds and split by extension; the other kinds each have theirs.
func TestE2EListFiles(t *testing.T) {
	var mu sync.Mutex
	reads := map[string]int{}
	url := servertest.Start(t, server.Config{DemoData: true}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			reads[r.URL.Path]++
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}).URL
	files, missing, err := api.New(url, "admin", "admin").ListFiles(t.Context(), api.ListedKinds...)
	if err != nil || missing != nil {
		t.Fatalf("%v, missing %v", err, missing)
	}
	kinds := map[string]model.Kind{}
	for _, f := range files {
		if _, twice := kinds[f.Path]; twice {
			t.Errorf("%s listed twice", f.Path)
		}
		kinds[f.Path] = f.Kind
	}
	for path, want := range map[string]model.Kind{
		"/Data/ImportJobs/Orders.imp": model.KindImportJob, "/Data/DataLinks/Orders With Errors.lnk": model.KindDataLink,
		"/Users/analyst/Regions.upl": model.KindFileUpload, "/Exports/Sales by Region.exp": model.KindExportJob,
		"/Data/Connections/Warehouse.dst": model.KindConnection,
	} {
		if kinds[path] != want {
			t.Errorf("%s listed as %q, want %q", path, kinds[path], want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, path := range []string{"/rest/connections", "/rest/import-job", "/rest/workbook", "/rest/export-job", "/rest/infographics"} {
		if reads[path] != 1 {
			t.Errorf("%s read %d times, want once", path, reads[path])
		}
	}
}

func TestE2EFilePermissions(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	orders := api.Path("/Data/ImportJobs/Orders.imp").AsFile()
	hidden := api.Path("/Exports/Sales by Region.exp").AsFile()

	perm, err := admin.Permission(ctx, orders)
	if err != nil || perm.Links.Href("file") == "" || perm.Owner != "analyst" {
		t.Fatalf("permission of Orders.imp: %+v, %v", perm, err)
	}
	if _, err := admin.ChangeOthersPermission(ctx, orders, model.Flags{Readable: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.CreateGroupPermission(ctx, orders, "viewers", model.Flags{Readable: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	groups, err := viewer.GroupPermissions(ctx, orders)
	if err != nil || !slices.ContainsFunc(groups.Embedded.Groups, func(g model.GroupPermission) bool { return g.Name == "viewers" }) {
		t.Fatalf("groups %+v, %v", groups, err)
	}
	if _, err := viewer.ChangeOwner(ctx, orders, "viewer"); !api.IsForbidden(err) {
		t.Fatalf("viewer changes the owner: %v, want 403", err)
	}
	if _, err := viewer.Permission(ctx, hidden); !api.IsNotFound(err) {
		t.Fatalf("viewer reads a hidden file's permission: %v, want 404", err)
	}
}

func TestE2EFolderManagement(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := t.Context()
	made, err := analyst.CreateFolder(ctx, api.Path("/Analytics"), "Q3 Reports")
	if err != nil {
		t.Fatal(err)
	}
	q3 := api.FileID(made.ID())
	if _, err := viewer.CreateFolder(ctx, api.Path("/Analytics"), "Mine"); !api.IsForbidden(err) {
		t.Fatalf("viewer creates: %v, want 403", err)
	}
	if _, err := analyst.CreateFolder(ctx, api.Path("/Analytics"), "Q3 Reports"); !api.IsConflict(err) {
		t.Fatalf("a second Q3 Reports: %v, want 409", err)
	}
	renamed, err := analyst.RenameFolder(ctx, q3, "Q3")
	if err != nil || renamed == nil || renamed.Name != "Q3" {
		t.Fatalf("rename: %+v, %v", renamed, err)
	}
	if _, err := analyst.CreateFolder(ctx, q3, "Inner"); err != nil {
		t.Fatal(err)
	}
	moved, err := analyst.MoveFolder(ctx, q3, api.Path("/Visualization"))
	if err != nil || moved.ParentID() == 0 {
		t.Fatalf("move: %+v, %v", moved, err)
	}
	if err := analyst.DeleteFolder(ctx, q3); !api.IsConflict(err) {
		t.Fatalf("delete with contents: %v, want 409", err)
	}
	if err := viewer.DeleteFolder(ctx, api.Path("/Visualization/Q3/Inner")); !api.IsForbidden(err) {
		t.Fatalf("viewer deletes: %v, want 403", err)
	}
	if err := analyst.DeleteFolder(ctx, api.Path("/Visualization/Q3/Inner")); err != nil {
		t.Fatal(err)
	}
	if err := admin.DeleteFolder(ctx, q3); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Folder(ctx, q3); !api.IsNotFound(err) {
		t.Fatalf("read after delete: %v", err)
	}
	if _, err := admin.MoveFolder(ctx, api.Path("/Data"), api.Ref{}); !errors.Is(err, api.ErrEmptyRef) {
		t.Fatalf("move to no folder: %v", err)
	}
}

func TestE2EUsersAndGroups(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	users, err := admin.Users(ctx)
	if err != nil || len(users) != 3 {
		t.Fatalf("users %+v, %v", users, err)
	}
	groups, err := admin.Groups(ctx)
	if err != nil || len(groups) != 2 {
		t.Fatalf("groups %+v, %v", groups, err)
	}
	if _, err := viewer.Users(ctx); !api.IsForbidden(err) || errors.Is(err, api.ErrUnsupported) {
		t.Fatalf("viewer lists users: %v, want 403", err)
	}
	if _, err := viewer.Groups(ctx); !api.IsForbidden(err) {
		t.Fatalf("viewer lists groups: %v, want 403", err)
	}
	me, err := viewer.LoggedInUser(ctx)
	if err != nil || me.Username != "viewer" || !slices.Equal(me.Groups, []string{"viewers"}) {
		t.Fatalf("logged-in user %+v, %v", me, err)
	}
}

// A server without the real platform's extra endpoints (an older release,
// no REST-v2 plug-in) answers errors that say so, and the spec's endpoints go on working.
func TestE2EMissingEndpointsDegrade(t *testing.T) {
	url := servertest.Start(t, server.Config{DemoData: true},
		servertest.Lacking("/rest/import-job", "/rest/user-management/", "/api/filesystem/files/")).URL
	admin := api.New(url, "admin", "admin")
	ctx := t.Context()
	if _, err := admin.FilesOfKind(ctx, model.KindImportJob); !errors.Is(err, api.ErrUnsupported) || !api.IsNotFound(err) {
		t.Fatalf("import jobs: %v, want ErrUnsupported", err)
	}
	files, missing, err := admin.ListFiles(ctx, api.ListedKinds...)
	if err != nil || !slices.Equal(missing, []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload}) || len(files) == 0 {
		t.Fatalf("listing every kind: %d files, missing %v, %v", len(files), missing, err)
	}
	if _, err := admin.Users(ctx); !errors.Is(err, api.ErrUnsupported) {
		t.Fatalf("users: %v, want ErrUnsupported", err)
	}
	if _, err := admin.FilesOfKind(ctx, model.KindWorkbook); err != nil {
		t.Fatalf("workbooks: %v", err)
	}
	if _, err := admin.Connections(ctx); err != nil {
		t.Fatalf("connections: %v", err)
	}
}

// TestAddressedOnAPlatformThatTakesNoPaths: every way of naming a folder
// or a file becomes an address the real platform's endpoints take, so its
// owner reads there; a path nothing holds stays a missing one.
func TestAddressedOnAPlatformThatTakesNoPaths(t *testing.T) {
	p := servertest.Start(t, server.Config{DemoData: true}, servertest.TakingNoPaths)
	admin := api.New(p.URL, "admin", "admin")
	ctx := t.Context()
	file := func(path string) (api.Ref, api.Ref) {
		f, err := p.Server.Store().FileByPath(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return api.FileID(f.ID), api.UUID(f.UUID)
	}
	ordersID, ordersUUID := file("/Data/ImportJobs/Orders.imp")
	dataID, dataUUID := file("/Data")
	for _, ref := range []api.Ref{api.Path("/Data"), api.Path("/"), dataID, dataUUID,
		api.Path("/Data/ImportJobs/Orders.imp"), ordersID, ordersUUID} {
		addressed, err := admin.Addressed(ctx, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if _, err := admin.Owner(ctx, addressed); err != nil {
			t.Errorf("owner of %s as %s: %v", ref, addressed, err)
		}
	}
	if _, err := admin.Addressed(ctx, api.Path("/Data/Nowhere")); !api.IsNotFound(err) {
		t.Errorf("a missing path: %v", err)
	}
}

// TestFolderByPathWalksEveryName: a doubled or trailing slash names the
// same folder it would without; the walk never stops early at an empty
// name, where it answered the folder above (/Data for /Data//ImportJobs),
// so a permission change went to the wrong folder.
func TestFolderByPathWalksEveryName(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	for _, tc := range []struct {
		client *api.Client
		path   string
		want   string // the folder's name; "" for a missing one
	}{
		{admin, "/Data/ImportJobs", "ImportJobs"},
		{admin, "/Data//ImportJobs", "ImportJobs"},
		{admin, "//Data/ImportJobs/", "ImportJobs"},
		{admin, "/Data/Nowhere", ""},
		{admin, "/Data//Nowhere", ""},
		{viewer, "/Analytics/Finance", ""},
	} {
		f, err := tc.client.FolderByPath(ctx, tc.path)
		switch {
		case tc.want == "" && !api.IsNotFound(err):
			t.Errorf("%s: %q, %v, want not found", tc.path, f.Name, err)
		case tc.want != "" && (err != nil || f.Name != tc.want):
			t.Errorf("%s: %q, %v, want %s", tc.path, f.Name, err, tc.want)
		}
	}
}
