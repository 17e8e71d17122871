package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/backup"
	"github.com/dapconsole/dapconsole/server/store"
)

// socketBuffer is the kernel buffer of each end of a backup's connection.
const socketBuffer = 64 << 10

// liveHeap is the heap still referenced after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// memoryServer is a server whose connections have small socket buffers on
// both ends, so that a backup stalls a few files after the 64 KiB the
// client reads, whatever the kernel's autotuning would buffer (tens of
// MiB on loopback): the stall then comes in the first batch, with the
// pipeline full, for any tree.
type memoryServer struct {
	t      *testing.T
	srv    *Server
	url    string
	client *http.Client
}

func newMemoryServer(t *testing.T, hooks backup.Hooks) *memoryServer {
	srv, err := New(Config{DataDir: t.TempDir(), AdminPassword: "admin", BackupHooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		c.(*net.TCPConn).SetWriteBuffer(socketBuffer)
		return ctx
	}
	ts.Start()
	t.Cleanup(ts.Close)
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			c.(*net.TCPConn).SetReadBuffer(socketBuffer)
		}
		return c, err
	}}}
	t.Cleanup(client.CloseIdleConnections)
	return &memoryServer{t: t, srv: srv, url: ts.URL, client: client}
}

func (m *memoryServer) send(method, path string, body io.Reader) *http.Response {
	req, _ := http.NewRequest(method, m.url+path, body)
	req.SetBasicAuth("admin", "admin")
	req.Header.Set("Content-Type", "application/zip")
	resp, err := m.client.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		m.t.Fatalf("%s %s: %v %v", method, path, resp, err)
	}
	return resp
}

// restorePeak restores the archive in the file into /Copy and returns the
// peak heap during the restore, above what was live before it. A
// restore's files are gone by the time it commits, so its heap is sampled
// while it runs: the peak of the heap, garbage included, is bounded by
// twice what it holds (GOGC=100).
func (m *memoryServer) restorePeak(archive *os.File) uint64 {
	if _, err := archive.Seek(0, io.SeekStart); err != nil {
		m.t.Fatal(err)
	}
	base := liveHeap()
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
	m.send(http.MethodPut, "/api/filesystem/folders/%2FCopy/restore", archive).Body.Close()
	close(stop)
	restore := <-peak
	return restore - min(restore, base)
}

// heldDuringBackupAndRestore fills a server with files connections whose
// descriptions are descLen random bytes, and returns the live heap in the
// middle of a backup of them (the client stalled after 64 KiB, the reading
// ahead done) and the peak heap during a restore of that backup, above
// what was live before it.
func heldDuringBackupAndRestore(t *testing.T, files, descLen int, hooks backup.Hooks) (held, restore uint64) {
	m := newMemoryServer(t, hooks)
	ctx := context.Background()
	err := m.srv.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/P", OwnerID: 1}); err != nil {
			return err
		}
		random := rand.NewChaCha8([32]byte{})
		body := make([]byte, descLen*3/4)
		for i := range files {
			random.Read(body) // incompressible: the archive is as big as the bodies
			cfg := &model.Configuration{Version: "2.1", TypeID: "das.JdbcDataStoreType",
				File:       model.FileInfo{Description: base64.StdEncoding.EncodeToString(body)},
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
	resp := m.send(http.MethodGet, "/api/filesystem/folders/%2FP/backup", nil)
	// The archive goes to a file: held by the test, it would count in the
	// heap and let a restore's garbage grow with it (GOGC=100).
	archive, err := os.Create(filepath.Join(t.TempDir(), "backup.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer archive.Close()
	if _, err := io.CopyN(archive, resp.Body, 64<<10); err != nil {
		t.Fatal(err)
	}
	waitForReadingAhead(t)
	held = liveHeap() // the handler waits on the stalled client, its pipeline full
	if _, err := io.Copy(archive, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return held, m.restorePeak(archive)
}

// waitForReadingAhead waits until a backup's reading ahead is done: its
// batch prepared and waiting for the writer, or every batch sent. What the
// backup holds then no longer depends on how far the reading got.
func waitForReadingAhead(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		stacks := make([]byte, 1<<20)
		stacks = stacks[:runtime.Stack(stacks, true)]
		reading := false
		for g := range strings.SplitSeq(string(stacks), "\n\n") {
			reading = reading || strings.Contains(g, "backup.(*Service).prepareBatches.func") && !strings.Contains(g, "[select")
		}
		if !reading {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the backup's reading ahead never stopped:\n%s", stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestBackupAndRestoreHoldNoBodies checks the streaming promise: what a
// backup or a restore holds while it runs does not grow with the bytes of
// the files. Twice as many files with 16 KiB descriptions (9 MiB more) must
// hold about the same. A backup holds two batches (exportBatch) at most, the
// one written and the one read ahead; both counts exceed them, and the
// backup is measured stalled in its first batch with the next one read, so
// both hold exactly two. A backup that held every body holds twice as much
// for twice the files (checked with exportBatch above both counts).
func TestBackupAndRestoreHoldNoBodies(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("fills two servers; measures the heap, so .ci/run runs it without -race")
	}
	const files, descLen, slack = 600, 16 << 10, 4 << 20
	fewBackup, fewRestore := heldDuringBackupAndRestore(t, files, descLen, backup.Hooks{})
	manyBackup, manyRestore := heldDuringBackupAndRestore(t, 2*files, descLen, backup.Hooks{})
	t.Logf("backup holds %d KiB / %d KiB, restore peaks %d KiB / %d KiB above its start (%d / %d files of %d KiB)",
		fewBackup>>10, manyBackup>>10, fewRestore>>10, manyRestore>>10, files, 2*files, descLen>>10)
	if manyBackup > fewBackup+slack {
		t.Errorf("a backup of %d files holds %d KiB, of %d files %d KiB", 2*files, manyBackup>>10, files, fewBackup>>10)
	}
	if manyRestore > fewRestore+slack {
		t.Errorf("a restore of %d files holds %d KiB, of %d files %d KiB", 2*files, manyRestore>>10, files, fewRestore>>10)
	}
}

// TestRestoreOf100000FilesPeaksUnder64MiB holds a restore to the issue's
// promise: its peak heap, garbage included, at most 64 MiB above where it
// started for an archive of 100,000 files. The archive's directory is in
// memory (archive/zip keeps some 250 bytes an entry, 25 MB here); the
// restore's entries wait on disk past spillPast. The archive is written
// here, not backed up from a server: filling one took a minute.
func TestRestoreOf100000FilesPeaksUnder64MiB(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("restores 100,000 files; measures the heap, so .ci/run runs it without -race")
	}
	const files, limit = 100_000, 64 << 20
	f, err := os.Create(filepath.Join(t.TempDir(), "many.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := archive.NewWriter(f, nil)
	for i := range files {
		body := fmt.Sprintf(`{"version":"2.1","className":"datameer.dap.common.entity.DataStore","typeId":"das.JdbcDataStoreType",`+
			`"file":{"name":"c%06d"},"properties":{"connectionUrl":["jdbc:postgresql://db/%d"]}}`, i, i)
		if err := w.AddFile(fmt.Sprintf("Team %02d/c%06d.dst", i/1000, i), []byte(body), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	peak := newMemoryServer(t, backup.Hooks{}).restorePeak(f)
	t.Logf("a restore of %d files peaks %d KiB above its start", files, peak>>10)
	if peak > limit {
		t.Errorf("a restore of %d files peaks at %d KiB, more than %d KiB", files, peak>>10, limit>>10)
	}
}
