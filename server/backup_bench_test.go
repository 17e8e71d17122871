package server_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
)

// benchPerFolder is how many files each folder of the project the backup
// and restore benchmarks use holds; benchFiles is how many files it has
// unless a benchmark asks for another size.
const benchPerFolder, benchFiles = 100, 10_000

// fillProject creates /Project with files/benchPerFolder folders of
// benchPerFolder connections each (a realistic representation, a secret
// included) and returns the bytes of their JSON representations, as an
// archive holds them.
func fillProject(b testing.TB, st *store.Store, files int) int64 {
	b.Helper()
	ctx := context.Background()
	var total int64
	err := st.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/Project", OwnerID: 1}); err != nil {
			return err
		}
		for d := range files / benchPerFolder {
			folder := fmt.Sprintf("/Project/Team %02d", d)
			if _, err := tx.CreateFile(ctx, store.NewFile{Path: folder, OwnerID: 1}); err != nil {
				return err
			}
			for i := range benchPerFolder {
				cfg := &model.Configuration{Version: "2.1", ClassName: "datameer.dap.common.entity.DataBaseConnection", TypeID: "das.JdbcDataStoreType",
					File: model.FileInfo{Description: fmt.Sprintf("Warehouse replica %d of team %d", i, d)},
					Properties: map[string][]string{
						model.PropConnectionURL: {fmt.Sprintf("jdbc:postgresql://db%02d.example.com:5432/warehouse_%03d", d, i)},
						model.PropUserName:      {fmt.Sprintf("reader_%02d_%03d", d, i)}, model.PropPassword: {"s3cret-" + fmt.Sprint(i)},
						model.PropDataStoreTemplate: {"false"}, model.PropDataStoreUsage: {"IMPORT_EXPORT"},
					}, DBType: &model.DBType{Name: "PostgreSQL"}}
				f, err := tx.CreateFile(ctx, store.NewFile{Path: fmt.Sprintf("%s/Replica %03d.dst", folder, i), OwnerID: 1, Config: cfg})
				if err != nil {
					return err
				}
				read, _ := tx.Configuration(ctx, f)
				body, _ := json.Marshal(read)
				total += int64(len(body))
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return total
}

func BenchmarkBackup10000Files(b *testing.B) {
	srv, p := start(b, server.Config{DataDir: b.TempDir(), AdminPassword: "admin"})
	content := fillProject(b, srv.Store(), benchFiles)
	req, _ := http.NewRequest(http.MethodGet, p.base+backupURL("/Project"), nil)
	req.SetBasicAuth("admin", "admin")
	b.SetBytes(content)
	b.ReportAllocs()
	var size int64
	for b.Loop() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		size, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	b.ReportMetric(float64(size), "archive-bytes")
}

// BenchmarkRestore restores a project of 10,000 and of 100,000 files into
// a new folder each time, and reports files/s and the heap's peak above
// what it held before the restore (the server runs in the benchmark's
// process): that peak should not grow with the number of files.
func BenchmarkRestore(b *testing.B) {
	for _, files := range []int{benchFiles, 100_000} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			srv, p := start(b, server.Config{DataDir: b.TempDir(), AdminPassword: "admin"})
			content := fillProject(b, srv.Store(), files)
			// The archive waits on disk: held in this process's heap, it
			// would let the collector leave as much garbage again in the
			// heap the benchmark measures.
			archivePath := filepath.Join(b.TempDir(), "project.zip")
			if err := os.WriteFile(archivePath, p.backup("admin", "/Project"), 0o600); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(content)
			b.ReportAllocs()
			var peak uint64
			var cpu time.Duration
			i := 0
			for b.Loop() {
				i++
				body, err := os.Open(archivePath)
				if err != nil {
					b.Fatal(err)
				}
				req, _ := http.NewRequest(http.MethodPut, p.base+restoreURL(fmt.Sprintf("/Copy %d", i)), body)
				req.SetBasicAuth("admin", "admin")
				req.Header.Set("Content-Type", "application/zip")
				var resp *http.Response
				cpuBefore := cpuTime()
				peak = max(peak, peakHeap(func() { resp, err = http.DefaultClient.Do(req) }))
				cpu += cpuTime() - cpuBefore
				body.Close()
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			b.ReportMetric(float64(files)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the processor time this process has used, user and system:
// on a machine other processes share, what a restore costs is told better
// by it than by the clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakHeap runs run and returns the most the heap held above what it held
// before, sampled every few milliseconds.
func peakHeap(run func()) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	sampled := make(chan uint64)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				sampled <- peak
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	run()
	close(done)
	return <-sampled - base
}

// TestBackupMemoryProbe is run by hand under `/usr/bin/time -v` to measure
// peak memory (see the README's figures); it does nothing in a normal run.
// DAP_PROBE=setup fills DAP_PROBE_DIR with the 10,000-file project, writes
// its backup to DAP_PROBE_DIR/project.zip and the files to DAP_PROBE_DIR/tree
// (for zip/unzip to compare with); DAP_PROBE=open only opens the data
// directory; backup and restore do one each, streaming from and to disk:
// backup of DAP_PROBE_FOLDER (default /Project) to DAP_PROBE_DIR/out.zip,
// restore of DAP_PROBE_ARCHIVE (default DAP_PROBE_DIR/project.zip) to /Restored.
func TestBackupMemoryProbe(t *testing.T) {
	mode, dir := os.Getenv("DAP_PROBE"), os.Getenv("DAP_PROBE_DIR")
	if mode == "" || dir == "" {
		t.Skip("a measuring aid: set DAP_PROBE and DAP_PROBE_DIR")
	}
	dataDir := filepath.Join(dir, "data")
	srv, err := server.New(servertest.TestConfig(server.Config{DataDir: dataDir, AdminPassword: "admin"}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	send := func(method, url string, body io.Reader, out io.Writer) {
		req, _ := http.NewRequest(method, ts.URL+url, body)
		req.SetBasicAuth("admin", "admin")
		req.Header.Set("Content-Type", "application/zip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if _, err := io.Copy(out, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %v", method, url, resp.StatusCode, err)
		}
	}
	switch mode {
	case "setup":
		fillProject(t, srv.Store(), benchFiles)
		zipFile, _ := os.Create(filepath.Join(dir, "project.zip"))
		send(http.MethodGet, backupURL("/Project"), nil, zipFile)
		zipFile.Close()
		writeTree(t, srv, filepath.Join(dir, "tree"))
	case "open":
	case "backup":
		folder := cmp.Or(os.Getenv("DAP_PROBE_FOLDER"), "/Project")
		out, err := os.Create(filepath.Join(dir, "out.zip"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		send(http.MethodGet, backupURL(folder), nil, out)
	case "restore":
		f, err := os.Open(cmp.Or(os.Getenv("DAP_PROBE_ARCHIVE"), filepath.Join(dir, "project.zip")))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		send(http.MethodPut, restoreURL("/Restored"), f, io.Discard)
	default:
		t.Fatalf("DAP_PROBE=%s: want setup, open, backup or restore", mode)
	}
}

// writeTree writes /Project's files to disk as the archive holds them.
func writeTree(t *testing.T, srv *server.Server, dir string) {
	ctx := context.Background()
	st := srv.Store()
	project := storeFile(t, srv, "/Project")
	below, err := st.Descendants(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range below {
		path := filepath.Join(dir, filepath.FromSlash(f.Path))
		if f.IsFolder() {
			os.MkdirAll(path, 0o755)
			continue
		}
		cfg, err := st.Configuration(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(cfg)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
