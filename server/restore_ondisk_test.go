package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
	"github.com/dapconsole/dapconsole/server/backup"
	"github.com/dapconsole/dapconsole/server/store"
)

// TestRestoresOnDisk runs the restore tests again with every restore's
// entries kept on disk, as an archive past the threshold has them, in
// pages of two entries with three in memory, so that every check and
// every write reads and writes pages: each must answer as it does with
// the entries in memory. (TestRestoreSurvivesSIGKILL runs its server in
// another process, which the hook does not reach.)
func TestRestoresOnDisk(t *testing.T) {
	entriesOnDisk = true
	t.Cleanup(func() { entriesOnDisk = false })
	for _, test := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"RoundTrip", TestBackupRestoreRoundTrip},
		{"FileConnectionAdminOnly", TestRestoreOfAFileConnectionOverAnotherIsAdminOnly},
		{"CreatesMissingTarget", TestRestoreCreatesAMissingTargetByPath},
		{"Conflicts", TestRestoreConflictsWithoutOverwrite},
		{"OverwriteReplaces", TestRestoreOverwriteReplacesNeverMerges},
		{"OverwriteRefusesDependents", TestRestoreOverwriteRefusesDownstreamDependents},
		{"OverwriteHidesInvisibleDependents", TestRestoreOverwriteHidesInvisibleDependents},
		{"Owners", TestRestoreOwners},
		{"Sharing", TestRestoreSharing},
		{"GroupPermissions", TestRestoreGroupPermissions},
		{"SkipMissingDependencies", TestRestoreSkipFilesWithMissingDependencies},
		{"NeedsWritePermission", TestRestoreNeedsWritePermission},
		{"HostileArchives", TestRestoreRefusesHostileArchives},
		{"AllOrNothing", TestRestoreIsAllOrNothing},
		{"InfoZip", TestRestoreInfoZipArchive},
		{"CommittedInfoZip", TestRestoreCommittedInfoZipArchive},
		{"SecretsOfAnotherServer", TestRestoreSecretsOfAnotherServer},
		{"InheritsPermissions", TestRestoreInheritsTheTargetsPermissions},
		{"NoConfiguration", TestRestoreRefusesEntriesThatAreNoConfiguration},
		{"PermissionEndpoints", TestRestoreChangesOnlyWhatThePermissionEndpointsAllow},
		{"HiddenAndMissing", TestRestoreAnswersTheSameForHiddenAndMissing},
		{"PlatformRoundTrip", TestPlatformArchiveRoundTrip},
		{"OverwriteKeepsIdentity", TestRestoreOverwriteKeepsIdentityHistoryAndPermissions},
		{"OverwriteRefusesDependentsInArchive", TestRestoreOverwriteRefusesDependentsInTheArchive},
		{"HiddenLinks", TestLinksToHiddenFilesTellNothing},
		{"LegacySources", TestRestoreLegacySourcesBecomeRealLinks},
		{"LinksByUUIDOrPath", TestRestoreLinksEntriesByUUIDOrPath},
		{"SharedUUIDOnce", TestRestoreGivesASharedUUIDOnce},
		{"ChecksBeforeWriteLock", TestRestoreChecksBeforeWriteLock},
		{"RechecksAfterConcurrentChange", TestRestoreRechecksAfterConcurrentChange},
	} {
		t.Run(test.name, test.run)
	}
}

// TestRestoreLeavesNoIndex: a restore whose entries are on disk removes
// its database, and the spooled upload, when it succeeds, when its checks
// refuse it and when the archive is refused as it is read.
func TestRestoreLeavesNoIndex(t *testing.T) {
	dataDir := t.TempDir()
	_, p := start(t, server.Config{DataDir: dataDir, DemoData: true, ArchiveLimits: archivetest.Limits,
		BackupHooks: backup.Hooks{EntriesOnDisk: true}})
	spooled := func() []string {
		var left []string
		for _, pattern := range []string{backup.IndexPattern, archive.SpoolPattern} {
			found, _ := filepath.Glob(filepath.Join(dataDir, "tmp", pattern))
			left = append(left, found...)
		}
		return left
	}
	body := p.backup("admin", "/Data")
	p.restore("admin", "/Copy", body)
	p.wantFailure(p.upload("admin", restoreURL("/Copy"), "application/zip", body), http.StatusConflict, "already exist")
	p.wantFailure(p.upload("viewer", restoreURL("/Data"), "application/zip", body), http.StatusForbidden, "")
	for _, c := range archivetest.Hostile() { // refused while the archive is read, its entries on disk
		if a := p.upload("admin", restoreURL("/Hostile"), "application/zip", c.Body); a.code == http.StatusOK {
			t.Errorf("%s: restored", c.Name)
		}
	}
	if left := spooled(); len(left) > 0 {
		t.Errorf("restores left %v behind", left)
	}
}

// TestRestoreOnDiskAnswersAsInMemory restores the same 300 files and 3
// folders with the entries in memory and on disk (on a second server),
// where the archive's
// directory and the identities fill whole batches of inserts: the answers
// name the same paths, in the same order.
func TestRestoreOnDiskAnswersAsInMemory(t *testing.T) {
	dataDir := t.TempDir()
	srv, p := start(t, server.Config{DataDir: dataDir, AdminPassword: "admin"})
	fillProject(t, srv.Store(), 300)
	body := p.backup("admin", "/Project")
	inMemory := p.restore("admin", "/InMemory", body)
	// The second server has the first's key: the archive's secrets open.
	onDiskDir := t.TempDir()
	key, err := os.ReadFile(filepath.Join(dataDir, store.KeyFile))
	if err == nil {
		err = os.WriteFile(filepath.Join(onDiskDir, store.KeyFile), key, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, onDiskServer := start(t, server.Config{DataDir: onDiskDir, AdminPassword: "admin", BackupHooks: backup.Hooks{EntriesOnDisk: true}})
	onDisk := onDiskServer.restore("admin", "/OnDisk", body)
	if len(onDisk.Restored) != 303 || len(onDisk.Restored) != len(inMemory.Restored) || len(onDisk.Skipped) != 0 {
		t.Fatalf("%d restored on disk, %d in memory; skipped %v", len(onDisk.Restored), len(inMemory.Restored), onDisk.Skipped)
	}
	for k, path := range onDisk.Restored {
		if strings.TrimPrefix(path, "/OnDisk") != strings.TrimPrefix(inMemory.Restored[k], "/InMemory") {
			t.Fatalf("restored %d: %s on disk, %s in memory", k, path, inMemory.Restored[k])
		}
	}
}
