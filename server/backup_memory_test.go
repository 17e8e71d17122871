package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// liveHeap is the heap still referenced after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// heldDuringBackupAndRestore fills a server with files connections whose
// descriptions are descLen bytes, and returns the live heap in the middle of
// a backup of them (the client stalled after 64 KiB) and the peak heap
// during a restore of that backup, above what was live before it.
func heldDuringBackupAndRestore(t *testing.T, files, descLen int) (backup, restore uint64) {
	srv, err := New(Config{DataDir: t.TempDir(), AdminPassword: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	ctx := context.Background()
	err = srv.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/P", OwnerID: 1}); err != nil {
			return err
		}
		for i := range files {
			cfg := &model.Configuration{Version: "2.1", TypeID: "das.JdbcDataStoreType",
				File:       model.FileInfo{Description: fmt.Sprintf("%06d%s", i, strings.Repeat("d", descLen))},
				Properties: map[string][]string{model.PropConnectionURL: {fmt.Sprintf("jdbc:postgresql://db/%d", i)}}}
			if _, err := tx.CreateFile(ctx, store.NewFile{Path: fmt.Sprintf("/P/c%05d.dst", i), OwnerID: 1, Config: cfg}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, path string, body io.Reader) *http.Response {
		req, _ := http.NewRequest(method, ts.URL+path, body)
		req.SetBasicAuth("admin", "admin")
		req.Header.Set("Content-Type", "application/zip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %v %v", method, path, resp, err)
		}
		return resp
	}

	resp := send(http.MethodGet, "/api/filesystem/folders/%2FP/backup", nil)
	var archive bytes.Buffer
	if _, err := io.CopyN(&archive, resp.Body, 64<<10); err != nil {
		t.Fatal(err)
	}
	base := liveHeap() // the handler waits on the stalled client, its plan held
	backup = base - min(base, uint64(archive.Len()))
	if _, err := io.Copy(&archive, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	// A restore's files are gone by the time it commits, so its heap is
	// sampled while it runs: the peak of the heap, garbage included, is
	// bounded by twice what it holds (GOGC=100).
	base = liveHeap()
	stop, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var ms runtime.MemStats
		var high uint64
		for {
			select {
			case <-stop:
				peak <- high
				return
			case <-time.After(time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			high = max(high, ms.HeapAlloc)
		}
	}()
	send(http.MethodPut, "/api/filesystem/folders/%2FCopy/restore", bytes.NewReader(archive.Bytes())).Body.Close()
	close(stop)
	restore = <-peak
	return backup, restore - min(restore, base)
}

// TestBackupAndRestoreHoldNoBodies checks the streaming promise: what a
// backup or a restore holds while it runs does not grow with the bytes of
// the files. Twice as many files with 16 KiB descriptions (9 MiB more) must
// hold about the same; a backup holds one batch of files (exportBatch) at a
// time, and both files counts fill it.
func TestBackupAndRestoreHoldNoBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("fills two servers")
	}
	const files, descLen, slack = 600, 16 << 10, 4 << 20
	fewBackup, fewRestore := heldDuringBackupAndRestore(t, files, descLen)
	manyBackup, manyRestore := heldDuringBackupAndRestore(t, 2*files, descLen)
	t.Logf("backup holds %d KiB / %d KiB, restore peaks %d KiB / %d KiB above its start (%d / %d files of %d KiB)",
		fewBackup>>10, manyBackup>>10, fewRestore>>10, manyRestore>>10, files, 2*files, descLen>>10)
	if manyBackup > fewBackup+slack {
		t.Errorf("a backup of %d files holds %d KiB, of %d files %d KiB", 2*files, manyBackup>>10, files, fewBackup>>10)
	}
	if manyRestore > fewRestore+slack {
		t.Errorf("a restore of %d files holds %d KiB, of %d files %d KiB", 2*files, manyRestore>>10, files, fewRestore>>10)
	}
}
