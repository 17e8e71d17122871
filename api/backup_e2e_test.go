package api_test

import (
	"bytes"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestE2EBackupRestore drives the client's backup and restore against the
// real server: a folder backed up with owners and permissions, restored
// under a new path, then refused without overwrite and accepted with it.
func TestE2EBackupRestore(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()

	var archive bytes.Buffer
	var reported atomic.Int64
	flags := api.BackupIncludeOwner | api.BackupIncludeGroupPermissions | api.BackupIncludeSharing
	n, err := admin.Backup(ctx, api.Path("/Data/Connections"), flags, &archive, func(done, _ int64) { reported.Store(done) })
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(archive.Len()) || reported.Load() != n || n == 0 {
		t.Fatalf("wrote %d bytes, buffer %d, progress %d", n, archive.Len(), reported.Load())
	}

	var sent atomic.Int64
	res, err := admin.Restore(ctx, api.Path("/Migrated/Connections"), bytes.NewReader(archive.Bytes()), int64(archive.Len()),
		api.RestoreIncludeOwner|api.RestoreIncludeGroupPermissions|api.RestoreIncludeSharing,
		func(done, _ int64) { sent.Store(done) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != model.StatusSuccess || !slices.Contains(res.Restored, "/Migrated/Connections/Warehouse.dst") || len(res.Skipped) != 0 {
		t.Fatalf("restore result %+v", res)
	}
	if sent.Load() != int64(archive.Len()) {
		t.Fatalf("upload progress %d of %d", sent.Load(), archive.Len())
	}

	owner, err := admin.Owner(ctx, api.Path("/Migrated/Connections/Partner SFTP.dst"))
	if err != nil {
		t.Fatal(err)
	}
	if owner.Owner != "analyst" {
		t.Fatalf("owner %q, want analyst restored with includeOwner", owner.Owner)
	}

	_, err = admin.Restore(ctx, api.Path("/Migrated/Connections"), bytes.NewReader(archive.Bytes()), -1, 0, nil)
	var apiErr *api.Error
	if !api.IsConflict(err) || !errors.As(err, &apiErr) || !slices.Contains(apiErr.Paths, "/Migrated/Connections/Warehouse.dst") {
		t.Fatalf("restore over existing files: %v, want a 409 naming them", err)
	}
	if _, err := admin.Restore(ctx, api.Path("/Migrated/Connections"), bytes.NewReader(archive.Bytes()), -1, api.RestoreOverwrite, nil); err != nil {
		t.Fatalf("restore with overwrite: %v", err)
	}

	if _, err := viewer.Restore(ctx, api.Path("/Data"), bytes.NewReader(archive.Bytes()), int64(archive.Len()), 0, nil); !api.IsForbidden(err) {
		t.Fatalf("viewer restore into /Data: %v, want 403", err)
	}
}

func TestE2EBackupFailures(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	var sink bytes.Buffer
	_, err := admin.Backup(ctx, api.Path("/Analytics"), 0, &sink, nil)
	var apiErr *api.Error
	if !api.IsConflict(err) || !errors.As(err, &apiErr) || !slices.Contains(apiErr.Paths, "/Data/ImportJobs/Orders.imp") {
		t.Fatalf("backup with dependencies outside: %v, want a 409 naming them", err)
	}
	if _, err := viewer.Backup(ctx, api.Path("/Exports"), 0, &sink, nil); !api.IsNotFound(err) {
		t.Fatalf("viewer backup of /Exports: %v, want 404", err)
	}
	if sink.Len() != 0 {
		t.Fatalf("a failed backup wrote %d bytes", sink.Len())
	}
	if _, err := admin.Restore(ctx, api.Path("/X"), bytes.NewReader([]byte("not a zip")), 9, 0, nil); !api.IsBadRequest(err) {
		t.Fatalf("restore of a non-ZIP body: %v, want 400", err)
	}
}

func TestE2EBackupFiles(t *testing.T) {
	_, admin, _, _ := demoServer(t)
	ctx := t.Context()
	root, err := admin.RootFolder(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data, err := admin.Folder(ctx, api.FileID(childID(t, root, "Data")))
	if err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	files := []api.Ref{api.Path("/Data/Connections/Local Files.dst"), api.Path("/Data/ImportJobs/Orders.imp"), api.UUID(data.UUID)}
	_, err = admin.BackupFiles(ctx, api.Path("/Data"), files[:2], api.BackupSkipFilesWithMissingDependencies, &archive, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := admin.Restore(ctx, api.Path("/Picked"), &archive, -1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/Picked/Connections", "/Picked/Connections/Local Files.dst", "/Picked/ImportJobs", "/Picked/ImportJobs/Orders.imp"}
	if !slices.Equal(res.Restored, want) {
		t.Fatalf("restored %v, want %v", res.Restored, want)
	}
	var sink bytes.Buffer
	if _, err := admin.BackupFiles(ctx, api.Path("/Analytics"), files[2:], 0, &sink, nil); !api.IsBadRequest(err) {
		t.Fatalf("choosing a folder outside: %v, want 400", err)
	}
}

// TestE2EBackupFilesOnAnOlderPlatform: a platform before release 7.2.6 has
// no POST backup; the client says so (ErrUnsupported), where a folder that
// does not exist stays a 404 of its own, and the GET backup still works.
func TestE2EBackupFilesOnAnOlderPlatform(t *testing.T) {
	older := api.New(servertest.Start(t, server.Config{DemoData: true}, servertest.LackingPostBackup).URL, "admin", "admin")
	ctx := t.Context()
	var sink bytes.Buffer
	_, err := older.BackupFiles(ctx, api.Path("/Data"), []api.Ref{api.Path("/Data/ImportJobs/Orders.imp")}, 0, &sink, nil)
	if !errors.Is(err, api.ErrUnsupported) {
		t.Fatalf("POST backup on an older platform: %v, want ErrUnsupported", err)
	}
	if _, err := older.Backup(ctx, api.Path("/Data"), 0, &sink, nil); err != nil {
		t.Fatalf("GET backup on an older platform: %v", err)
	}
	current := api.New(servertest.Start(t, server.Config{DemoData: true}, nil).URL, "admin", "admin")
	_, err = current.BackupFiles(ctx, api.Path("/Nope"), []api.Ref{api.Path("/Nope/a.imp")}, 0, &sink, nil)
	if err == nil || errors.Is(err, api.ErrUnsupported) {
		t.Fatalf("a folder that does not exist: %v, want a failure that is not ErrUnsupported", err)
	}
}
