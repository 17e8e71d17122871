package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/backup"
	"golang.org/x/crypto/bcrypt"
)

// killHelperEnv names the data directory a helper process serves from.
const killHelperEnv = "DAP_RESTORE_KILL_HELPER_DIR"

// restoreApplied is what the helper prints when a restore has made all its
// changes and waits, uncommitted, to be killed.
const restoreApplied = "RESTORE-APPLIED"

// TestRestoreKillHelper is the server process TestRestoreSurvivesSIGKILL
// kills; it does nothing in a normal run.
func TestRestoreKillHelper(t *testing.T) {
	dir := os.Getenv(killHelperEnv)
	if dir == "" {
		t.Skip("runs only as the helper process of TestRestoreSurvivesSIGKILL")
	}
	srv, err := New(Config{DataDir: dir, BackupHooks: backup.Hooks{BeforeCommit: func() {
		fmt.Println(restoreApplied)
		time.Sleep(time.Minute) // killed long before
	}}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("listening on http://" + ln.Addr().String())
	http.Serve(ln, srv.Handler())
}

// TestRestoreSurvivesSIGKILL kills a server process with SIGKILL while a
// restore's changes are made but not committed: the data directory opens
// again with the tree exactly as it was before.
func TestRestoreSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	dir := t.TempDir()
	before, dataArchive := func() ([]byte, []byte) {
		srv, err := New(Config{DataDir: dir, DemoData: true, PasswordCost: bcrypt.MinCost})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		return download(t, ts.URL, "/api/filesystem/folders/1/backup"), download(t, ts.URL, "/api/filesystem/folders/%2FData/backup")
	}()

	cmd, lines := StartHelperProcess(t, "TestRestoreKillHelper", killHelperEnv, dir)
	// answered holds the restore's answer, or why none came: once it is
	// there the helper is stopped (if the test has not killed it already),
	// so that waitFor fails rather than wait for a line that will not come.
	answered := make(chan string, 1)
	waitFor := func(prefix string) string {
		for lines.Scan() {
			if strings.HasPrefix(lines.Text(), prefix) {
				return lines.Text()
			}
		}
		select {
		case answer := <-answered:
			t.Fatalf("the restore ended (%s) before the helper printed %q", answer, prefix)
		default:
			t.Fatalf("helper ended before printing %q", prefix)
		}
		return ""
	}
	base := strings.TrimPrefix(waitFor("listening on "), "listening on ")
	go func() { // the answer never comes: the server dies first
		req, _ := http.NewRequest(http.MethodPut, base+"/api/filesystem/folders/%2FKilled%2FData/restore?includeOwner", bytes.NewReader(dataArchive))
		req.SetBasicAuth("admin", "admin")
		req.Header.Set("Content-Type", "application/zip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- err.Error()
		} else {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			answered <- fmt.Sprintf("%s %s", resp.Status, body)
		}
		cmd.Process.Kill()
	}()
	waitFor(restoreApplied)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	spooled := filepath.Join(spoolDir(dir), archive.SpoolPattern)
	if left, _ := filepath.Glob(spooled); len(left) != 1 {
		t.Fatalf("the killed restore's upload: %v, want one file left behind", left)
	}

	srv, err := New(Config{DataDir: dir})
	if err != nil {
		t.Fatalf("the data directory does not open after the kill: %v", err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	if after := download(t, ts.URL, "/api/filesystem/folders/1/backup"); !bytes.Equal(before, after) {
		t.Fatal("the tree after the kill differs from the tree before the restore")
	}
	if left, _ := filepath.Glob(spooled); len(left) != 0 {
		t.Fatalf("uploads left behind after the restart: %v", left)
	}
}

func download(t *testing.T, base, path string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.SetBasicAuth("admin", "admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %s", path, resp.StatusCode, err, body)
	}
	return body
}

// StartHelperProcess runs this test binary again with only the test named
// helper, which acts when env names a data directory: the server process a
// kill test kills. The process is killed at the end of the test; its
// standard output comes line by line.
func StartHelperProcess(t *testing.T, helper, env, dir string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(stdout)
}
