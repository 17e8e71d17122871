package api_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// demoServer starts the embedded platform with demo data on a loopback
// httptest server and returns a client per demo user.
func demoServer(t *testing.T) (url string, admin, analyst, viewer *api.Client) {
	t.Helper()
	url = servertest.Start(t, server.Config{DemoData: true}, nil).URL
	return url, api.New(url, "admin", "admin"), api.New(url, "analyst", "analyst"), api.New(url, "viewer", "viewer")
}

func childNames(f model.Folder) []string {
	var names []string
	for _, e := range f.Embedded.Folders {
		names = append(names, e.Name)
	}
	return names
}

func childID(t *testing.T, f model.Folder, name string) int64 {
	t.Helper()
	for _, e := range f.Embedded.Folders {
		if e.Name == name {
			return e.ID()
		}
	}
	t.Fatalf("%s has no child %q (has %q)", f.Name, name, childNames(f))
	return 0
}

func TestE2EFolderReads(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := t.Context()

	root, err := admin.RootFolder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != "/" || root.UUID == "" || root.ID() != 1 || root.Links.Href("self") != "/api/filesystem/root-folder" {
		t.Errorf("root = %+v", root)
	}
	for _, name := range []string{"Users", "Data", "Analytics", "Visualization", "Exports", ".system"} {
		if !slices.Contains(childNames(root), name) {
			t.Errorf("admin's root lacks %q: %q", name, childNames(root))
		}
	}
	dataID := childID(t, root, "Data")

	byID, err := admin.Folder(ctx, api.FileID(dataID))
	if err != nil {
		t.Fatal(err)
	}
	if byID.Name != "Data" || byID.ID() != dataID || byID.ParentID() != 1 {
		t.Errorf("Data by id = %+v", byID)
	}
	for _, name := range []string{"Connections", "ImportJobs", "DataLinks"} {
		if !slices.Contains(childNames(byID), name) {
			t.Errorf("Data lacks %q: %q", name, childNames(byID))
		}
	}

	refs := []struct {
		name string
		ref  api.Ref
		want string
	}{
		{"by UUID", api.UUID(byID.UUID), "Data"},
		{"by path", api.Path("/Data"), "Data"},
		{"by path, two levels", api.Path("/Data/Connections"), "Connections"},
		{"by path, a home folder", api.Path("/Users/analyst"), "analyst"},
		{"the root as %2F", api.Path("/"), "/"},
		{"the root by id", api.FileID(1), "/"},
	}
	for _, tt := range refs {
		t.Run(tt.name, func(t *testing.T) {
			f, err := admin.Folder(ctx, tt.ref)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name != tt.want {
				t.Errorf("Folder(%s).Name = %q, want %q", tt.ref, f.Name, tt.want)
			}
		})
	}

	t.Run("viewer sees less, and hidden folders answer like missing ones", func(t *testing.T) {
		vroot, err := viewer.RootFolder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(childNames(vroot), "Exports") {
			t.Errorf("viewer's root shows Exports: %q", childNames(vroot))
		}
		exportsID := childID(t, root, "Exports")
		hidden := []api.Ref{api.FileID(exportsID), api.Path("/Exports"), api.Path("/Analytics/Finance"), api.Path("/Users/analyst")}
		for _, ref := range hidden {
			_, hiddenErr := viewer.Folder(ctx, ref)
			if !api.IsNotFound(hiddenErr) {
				t.Errorf("viewer reads %s: %v, want 404", ref, hiddenErr)
			}
			_, missingErr := viewer.Folder(ctx, api.Path(ref.String()+"-missing"))
			if !api.IsNotFound(missingErr) {
				t.Errorf("viewer reads a missing folder: %v, want 404", missingErr)
			}
		}
		if _, err := viewer.Folder(ctx, api.Path("/Users/viewer")); err != nil {
			t.Errorf("viewer cannot read its own home: %v", err)
		}
		if _, err := analyst.Folder(ctx, api.Path("/Analytics/Finance")); err != nil {
			t.Errorf("analyst cannot read /Analytics/Finance: %v", err)
		}
	})

	t.Run("unknown refs", func(t *testing.T) {
		for _, ref := range []api.Ref{api.FileID(999999), api.UUID("00000000-0000-4000-8000-000000000000"), api.Path("/No Such/Folder")} {
			if _, err := admin.Folder(ctx, ref); !api.IsNotFound(err) {
				t.Errorf("Folder(%s): %v, want 404", ref, err)
			}
		}
	})
}

func TestE2EPermissionReads(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := t.Context()

	perm, err := admin.Permission(ctx, api.Path("/Data"))
	if err != nil {
		t.Fatal(err)
	}
	if perm.Owner != "admin" || perm.Others != (model.Flags{Readable: true}) {
		t.Errorf("permission of /Data = %+v", perm)
	}
	for _, link := range []string{"folder", "others", "owner", "self", "groups"} {
		if perm.Links.Href(link) == "" {
			t.Errorf("permission of /Data lacks the %q link: %v", link, perm.Links)
		}
	}

	// A file by path, with spaces and three levels: its permission links `file`.
	filePerm, err := analyst.Permission(ctx, api.Path("/Data/Connections/Local Files.dst"))
	if err != nil {
		t.Fatal(err)
	}
	if filePerm.Links.Href("file") == "" || filePerm.Owner != "admin" {
		t.Errorf("permission of Local Files.dst = %+v", filePerm)
	}

	groups, err := viewer.GroupPermissions(ctx, api.Path("/Data"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Flags{}
	for _, g := range groups.Embedded.Groups {
		got[g.Name] = g.Flags
	}
	if got["analysts"] != (model.Flags{Readable: true, Executable: true}) || got["viewers"] != (model.Flags{Readable: true}) {
		t.Errorf("groups of /Data = %+v", got)
	}

	others, err := analyst.OthersPermission(ctx, api.Path("/Data/Connections"))
	if err != nil {
		t.Fatal(err)
	}
	if !others.Readable || others.Writable {
		t.Errorf("others of /Data/Connections = %+v", others)
	}
	owner, err := analyst.Owner(ctx, api.Path("/Analytics/Finance"))
	if err != nil {
		t.Fatal(err)
	}
	if owner.Owner != "analyst" {
		t.Errorf("owner of /Analytics/Finance = %q", owner.Owner)
	}
	deep, err := analyst.Owner(ctx, api.Path("/Analytics/Finance/Finance PostgreSQL.dst"))
	if err != nil || deep.Owner != "analyst" {
		t.Errorf("owner of a file three levels down with spaces = %+v, %v", deep, err)
	}
	if _, err := viewer.Owner(ctx, api.Path("/Analytics/Finance/Finance PostgreSQL.dst")); !api.IsNotFound(err) {
		t.Errorf("viewer reads the owner of a file in a hidden folder: %v, want 404", err)
	}

	t.Run("viewer cannot read permissions of a hidden folder", func(t *testing.T) {
		calls := map[string]func() error{
			"permission": func() error { _, err := viewer.Permission(ctx, api.Path("/Exports")); return err },
			"groups":     func() error { _, err := viewer.GroupPermissions(ctx, api.Path("/Exports")); return err },
			"others":     func() error { _, err := viewer.OthersPermission(ctx, api.Path("/Exports")); return err },
			"owner":      func() error { _, err := viewer.Owner(ctx, api.Path("/Analytics/Finance")); return err },
		}
		for name, call := range calls {
			if err := call(); !api.IsNotFound(err) {
				t.Errorf("%s: %v, want 404", name, err)
			}
		}
	})
}

func TestE2EPermissionWrites(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := t.Context()
	exports := api.Path("/Exports")

	// Granting the viewers group a read makes /Exports visible to viewer.
	created, err := admin.CreateGroupPermission(ctx, exports, "viewers", model.Flags{Readable: true})
	if err != nil {
		t.Fatal(err)
	}
	if created == nil || !slices.ContainsFunc(created.Embedded.Groups, func(g model.GroupPermission) bool {
		return g.Name == "viewers" && g.Flags == model.Flags{Readable: true}
	}) {
		t.Errorf("create answered %+v, want the groups with viewers", created)
	}
	if _, err := viewer.Folder(ctx, exports); err != nil {
		t.Errorf("viewer cannot read /Exports after the grant: %v", err)
	}

	changed, err := admin.ChangeGroupPermission(ctx, exports, "viewers", model.Flags{})
	if err != nil {
		t.Fatal(err)
	}
	if changed == nil || !slices.ContainsFunc(changed.Embedded.Groups, func(g model.GroupPermission) bool {
		return g.Name == "viewers" && g.Flags == model.Flags{}
	}) {
		t.Errorf("change answered %+v", changed)
	}
	if _, err := viewer.Folder(ctx, exports); !api.IsNotFound(err) {
		t.Errorf("viewer reads /Exports after the revoke: %v, want 404", err)
	}

	deleted, err := admin.DeleteGroupPermission(ctx, exports, "viewers")
	if err != nil {
		t.Fatal(err)
	}
	if deleted == nil || slices.ContainsFunc(deleted.Embedded.Groups, func(g model.GroupPermission) bool { return g.Name == "viewers" }) {
		t.Errorf("delete answered %+v, want the groups without viewers", deleted)
	}

	others, err := admin.ChangeOthersPermission(ctx, exports, model.Flags{Readable: true})
	if err != nil {
		t.Fatal(err)
	}
	if others == nil || !others.Readable || others.Writable {
		t.Errorf("others change answered %+v", others)
	}
	if _, err := viewer.Folder(ctx, exports); err != nil {
		t.Errorf("viewer cannot read /Exports readable by others: %v", err)
	}

	owner, err := admin.ChangeOwner(ctx, api.Path("/Visualization"), "analyst")
	if err != nil {
		t.Fatal(err)
	}
	if owner == nil || owner.Owner != "analyst" {
		t.Errorf("owner change answered %+v", owner)
	}
	if read, err := viewer.Owner(ctx, api.Path("/Visualization")); err != nil || read.Owner != "analyst" {
		t.Errorf("owner read after the change = %+v, %v", read, err)
	}

	refused := []struct {
		name string
		call func() error
		is   func(error) bool
	}{
		{"viewer changes the owner of a folder it sees", func() error {
			_, err := viewer.ChangeOwner(ctx, api.Path("/Data"), "viewer")
			return err
		}, api.IsForbidden},
		{"viewer changes the owner of a folder it cannot see", func() error {
			_, err := viewer.ChangeOwner(ctx, api.Path("/Analytics/Finance"), "viewer")
			return err
		}, api.IsNotFound},
		{"analyst changes others on a folder it may only read", func() error {
			_, err := analyst.ChangeOthersPermission(ctx, api.Path("/Data"), model.Flags{Readable: true, Writable: true})
			return err
		}, api.IsForbidden},
		{"analyst grants a group on a folder it may only read", func() error {
			_, err := analyst.CreateGroupPermission(ctx, api.Path("/Data"), "viewers", model.Flags{Readable: true})
			return err
		}, api.IsForbidden},
		{"owner change to an unknown user", func() error {
			_, err := admin.ChangeOwner(ctx, api.Path("/Data"), "ghost")
			return err
		}, func(err error) bool { return api.IsBadRequest(err) || api.IsNotFound(err) }},
		{"delete the permission of a group that has none", func() error {
			_, err := admin.DeleteGroupPermission(ctx, api.Path("/Data"), "nobody")
			return err
		}, api.IsNotFound},
		{"grant an unknown group", func() error {
			_, err := admin.CreateGroupPermission(ctx, api.Path("/Data"), "nobody", model.Flags{Readable: true})
			return err
		}, api.IsBadRequest},
		{"grant a group that already has an entry", func() error {
			_, err := admin.CreateGroupPermission(ctx, api.Path("/Data"), "analysts", model.Flags{Readable: true})
			return err
		}, api.IsConflict},
		{"change a group's entry on a missing folder", func() error {
			_, err := admin.ChangeGroupPermission(ctx, api.FileID(999999), "analysts", model.Flags{})
			return err
		}, api.IsNotFound},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !tt.is(err) {
				t.Fatalf("error = %v", err)
			}
			var e *api.Error
			if !errors.As(err, &e) || e.Reason == "" {
				t.Errorf("error %v carries no reason", err)
			}
		})
	}
	if read, err := admin.Owner(ctx, api.Path("/Data")); err != nil || read.Owner != "admin" {
		t.Errorf("a refused change changed the owner: %+v, %v", read, err)
	}
}

func TestE2EAuthentication(t *testing.T) {
	url, _, _, _ := demoServer(t)
	const wrong = "not-the-password"
	// One unknown user only: the server spends a full-cost bcrypt on it, slow under -race.
	for _, c := range []*api.Client{api.New(url, "admin", wrong), api.New(url, "viewer", "admin"), api.New(url, "ghost", wrong)} {
		_, err := c.RootFolder(t.Context())
		if !api.IsUnauthorized(err) {
			t.Errorf("%s: %v, want 401", c, err)
		}
		if err != nil && strings.Contains(err.Error(), wrong) {
			t.Errorf("error shows the password: %v", err)
		}
	}
}

func TestE2EConnections(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := t.Context()

	list, err := admin.Connections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]model.ConnectionEntry{}
	for _, e := range list {
		byPath[e.Path] = e
	}
	if len(list) < 6 {
		t.Errorf("admin lists %d connections, want the demo's 6 or more", len(list))
	}
	for _, p := range []string{"/.system/FileUploadDataStore.dst", "/Data/Connections/MYSQL_QA1.dst", "/Data/Connections/Local Files.dst"} {
		if _, ok := byPath[p]; !ok {
			t.Errorf("list lacks %s", p)
		}
	}
	finance := byPath["/Analytics/Finance/Finance PostgreSQL.dst"]

	t.Run("viewer's list hides what it cannot see", func(t *testing.T) {
		vlist, err := viewer.Connections(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range vlist {
			if e.Path == finance.Path {
				t.Errorf("viewer lists %s", e.Path)
			}
		}
		if _, err := viewer.Connection(ctx, finance.ID); !api.IsNotFound(err) {
			t.Errorf("viewer reads %s: %v, want 404", finance.Path, err)
		}
	})

	mysql, err := analyst.Connection(ctx, byPath["/Data/Connections/MYSQL_QA1.dst"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if mysql.File.Path != "/Data/Connections/MYSQL_QA1.dst" || mysql.DBType == nil || mysql.DBType.Name != "MySQL" ||
		mysql.Property(model.PropUserName) != "extuser" {
		t.Errorf("MYSQL_QA1 = %+v", mysql)
	}
	if pw := mysql.Property(model.PropPassword); pw == "" || strings.Contains(pw, "qa1-secret") {
		t.Errorf("password comes back as %q, want it encoded", pw)
	}

	// Create, read back, update and delete a connection in a folder with spaces in its file name.
	conn := model.Connection{ClassName: mysql.ClassName, TypeID: mysql.TypeID, DBType: &model.DBType{Name: "MySQL"},
		File: model.FileInfo{Path: "/Data/Connections/QA Copy.dst", Description: "copy for tests"},
		Properties: map[string][]string{model.PropUserName: {"tester"}, model.PropPassword: {"plain-secret"},
			model.PropConnectionURL: {"jdbc:mysql://qa2.example.com:3306/world"}}}
	id, err := analyst.CreateConnection(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	if id <= 0 {
		t.Fatalf("create returned configuration id %d", id)
	}
	back, err := analyst.Connection(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if back.File.Path != "/Data/Connections/QA Copy.dst" || back.Property(model.PropUserName) != "tester" ||
		strings.Contains(back.Property(model.PropPassword), "plain-secret") {
		t.Errorf("read back %+v", back)
	}
	back.File.Description = "changed"
	if err := analyst.UpdateConnection(ctx, id, back); err != nil {
		t.Fatal(err)
	}
	if again, err := analyst.Connection(ctx, id); err != nil || again.File.Description != "changed" {
		t.Errorf("after update: %+v, %v", again.File, err)
	}
	if _, err := analyst.CreateConnection(ctx, conn); !api.IsConflict(err) {
		t.Errorf("creating it twice: %v, want 409", err)
	}
	if err := analyst.DeleteConnection(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := analyst.Connection(ctx, id); !api.IsNotFound(err) {
		t.Errorf("read after delete: %v, want 404", err)
	}

	refused := []struct {
		name string
		call func() error
		is   func(error) bool
	}{
		{"viewer creates in a folder it may only read", func() error {
			c := conn
			c.File.Path = "/Data/Connections/Viewer.dst"
			_, err := viewer.CreateConnection(ctx, c)
			return err
		}, api.IsForbidden},
		{"viewer updates", func() error { return viewer.UpdateConnection(ctx, byPath["/Data/Connections/MYSQL_QA1.dst"].ID, mysql) }, api.IsForbidden},
		{"viewer deletes", func() error { return viewer.DeleteConnection(ctx, byPath["/Data/Connections/MYSQL_QA1.dst"].ID) }, api.IsForbidden},
		{"create outside a .dst path", func() error {
			c := conn
			c.File.Path = "/Data/Connections/QA.txt"
			_, err := admin.CreateConnection(ctx, c)
			return err
		}, api.IsBadRequest},
		{"read an unknown id", func() error { _, err := admin.Connection(ctx, 999999); return err }, api.IsNotFound},
		{"update an unknown id", func() error { return admin.UpdateConnection(ctx, 999999, mysql) }, api.IsNotFound},
		{"delete an unknown id", func() error { return admin.DeleteConnection(ctx, 999999) }, api.IsNotFound},
		{"dependencies with a bad direction", func() error {
			_, err := admin.ConnectionDependencies(ctx, byPath["/Data/Connections/Local Files.dst"].ID, api.DependencyQuery{Direction: "sideways"})
			return err
		}, api.IsBadRequest},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !tt.is(err) {
				t.Fatalf("error = %v", err)
			}
		})
	}

	t.Run("a connection in use is not deleted, and the error names its dependents", func(t *testing.T) {
		err := admin.DeleteConnection(ctx, byPath["/Data/Connections/Local Files.dst"].ID)
		var e *api.Error
		if !api.IsConflict(err) || !errors.As(err, &e) || !slices.Contains(e.Paths, "/Data/ImportJobs/Orders.imp") {
			t.Fatalf("error = %v, want 409 naming /Data/ImportJobs/Orders.imp", err)
		}
		if _, err := admin.Connection(ctx, byPath["/Data/Connections/Local Files.dst"].ID); err != nil {
			t.Errorf("the refused delete removed it: %v", err)
		}
	})
}

func TestE2EDependencies(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	list, err := admin.Connections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var localFiles int64
	for _, e := range list {
		if e.Path == "/Data/Connections/Local Files.dst" {
			localFiles = e.ID
		}
	}

	direct, err := admin.ConnectionDependencies(ctx, localFiles, api.DependencyQuery{Direction: model.DirectionDownstream, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	all, err := admin.ConnectionDependencies(ctx, localFiles, api.DependencyQuery{})
	if err != nil {
		t.Fatal(err)
	}
	paths := func(deps []model.Dependency) []string {
		var out []string
		for _, d := range deps {
			out = append(out, d.File.Path)
		}
		return out
	}
	if !slices.Contains(paths(direct), "/Data/ImportJobs/Orders.imp") || slices.Contains(paths(direct), "/Analytics/Sales.wbk") {
		t.Errorf("direct downstream = %q, want the import jobs only", paths(direct))
	}
	for _, p := range []string{"/Data/ImportJobs/Orders.imp", "/Analytics/Sales.wbk", "/Analytics/Sales by Region.wbk", "/Visualization/Sales Dashboard.gra"} {
		if !slices.Contains(paths(all), p) {
			t.Errorf("all levels lack %s: %q", p, paths(all))
		}
	}
	upstream, err := admin.ConnectionDependencies(ctx, localFiles, api.DependencyQuery{Direction: model.DirectionUpstream})
	if err != nil || len(upstream) != 0 {
		t.Errorf("a connection's upstream = %q, %v; want none", paths(upstream), err)
	}

	// Walk one more level through the import job's own endpoint, by the kind the entry names.
	var orders model.Dependency
	for _, d := range direct {
		if d.File.Path == "/Data/ImportJobs/Orders.imp" {
			orders = d
		}
	}
	next, err := admin.Dependencies(ctx, model.Kind(orders.File.Type), orders.ID, api.DependencyQuery{Direction: model.DirectionDownstream, Level: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(paths(next), "/Analytics/Sales.wbk") {
		t.Errorf("downstream of Orders.imp = %q, want Sales.wbk", paths(next))
	}
	back, err := admin.Dependencies(ctx, model.Kind(orders.File.Type), orders.ID, api.DependencyQuery{Direction: model.DirectionUpstream})
	if err != nil || !slices.Equal(paths(back), []string{"/Data/Connections/Local Files.dst"}) {
		t.Errorf("upstream of Orders.imp = %q, %v", paths(back), err)
	}

	// A file upload walks on through the import-job family's endpoint, as a data link does.
	uploads, err := admin.FilesOfKind(ctx, model.KindFileUpload)
	if err != nil || len(uploads) != 1 {
		t.Fatalf("uploads %+v, %v", uploads, err)
	}
	store, err := admin.Dependencies(ctx, model.KindFileUpload, uploads[0].ID, api.DependencyQuery{Direction: model.DirectionUpstream})
	if err != nil || !slices.Equal(paths(store), []string{"/.system/FileUploadDataStore.dst"}) {
		t.Errorf("upstream of %s = %q, %v", uploads[0].Path, paths(store), err)
	}

	// The viewer does not see what lies in folders hidden from it.
	vall, err := viewer.ConnectionDependencies(ctx, localFiles, api.DependencyQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths(vall) {
		if strings.HasPrefix(p, "/Exports/") || strings.HasPrefix(p, "/Analytics/Finance/") {
			t.Errorf("viewer sees %s", p)
		}
	}
}

// TestE2EConcurrentUse shares one client among goroutines, as the console's
// panes do; -race checks the client.
func TestE2EConcurrentUse(t *testing.T) {
	_, admin, _, _ := demoServer(t)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			var err error
			switch i % 4 {
			case 0:
				_, err = admin.RootFolder(t.Context())
			case 1:
				_, err = admin.Connections(t.Context())
			case 2:
				_, err = admin.GroupPermissions(t.Context(), api.Path("/Data"))
			case 3:
				_, err = admin.Folder(t.Context(), api.Path("/No Such Folder"))
				if api.IsNotFound(err) {
					err = nil
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
