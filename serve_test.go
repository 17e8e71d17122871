package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/server/archive/archivetest"
	"github.com/dapconsole/dapconsole/server/store"
)

// childArgsEnv carries the arguments of a dapconsole run in a child process:
// the test binary runs itself with them, so serve meets real signals.
const childArgsEnv = "DAPCONSOLE_TEST_CHILD_ARGS"

func TestMainInChild(t *testing.T) {
	raw := os.Getenv(childArgsEnv)
	if raw == "" {
		t.Skip("runs only as a child of the serve tests")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		t.Fatal(err)
	}
	if err := run(args); err != nil {
		fmt.Fprintln(os.Stderr, "dapconsole:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// dapconsole returns a command running `dapconsole args...` in a child process.
func dapconsole(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainInChild$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(raw), "DAP_ADMIN_PASSWORD=")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

var listeningLine = regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[1-9][0-9]*)$`)

// serve starts `dapconsole serve` on a free port and returns its base URL
// once it accepts connections, and the running command.
func serve(t *testing.T, env []string, args ...string) (string, *exec.Cmd) {
	t.Helper()
	cmd := dapconsole(t, env, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the first line: %v", err)
	}
	m := listeningLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	if m == nil {
		t.Fatalf("first line %q, want `listening on http://127.0.0.1:PORT`", line)
	}
	return m[1], cmd
}

func getAs(t *testing.T, url, user, password string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// stop sends sig and wants a clean exit.
func stop(t *testing.T, cmd *exec.Cmd, sig syscall.Signal) {
	t.Helper()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after %v: %v", sig, err)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("still running 15s after %v", sig)
	}
}

func TestServe(t *testing.T) {
	dir := t.TempDir()
	base, cmd := serve(t, nil, "--data", dir, "--demo-data", "--file-root", t.TempDir())
	if code := getAs(t, base+"/api/filesystem/root-folder", "admin", "admin"); code != http.StatusOK {
		t.Fatalf("root as admin: %d", code)
	}
	if code := getAs(t, base+"/rest/connections", "viewer", "wrong"); code != http.StatusUnauthorized {
		t.Fatalf("wrong password: %d", code)
	}
	stop(t, cmd, syscall.SIGTERM)
	if _, err := http.Get(base); err == nil {
		t.Fatal("still accepting after SIGTERM")
	}
	// Same data directory, no demo flag, no admin password: it is not empty, so it starts.
	base, cmd = serve(t, nil, "--data", dir)
	if code := getAs(t, base+"/api/filesystem/root-folder", "analyst", "analyst"); code != http.StatusOK {
		t.Fatalf("root after restart: %d", code)
	}
	stop(t, cmd, syscall.SIGINT)
}

// TestServeRestoreCaps: the archive caps of a restore and a user's spool
// allowance are set on the command line; an archive past them is refused
// with 413.
func TestServeRestoreCaps(t *testing.T) {
	base, cmd := serve(t, nil, "--data", t.TempDir(), "--demo-data", "--restore-max-entries", "2", "--max-spool-per-user", "4096")
	defer stop(t, cmd, syscall.SIGTERM)
	restore := func(body []byte) (int, string) {
		req, _ := http.NewRequest(http.MethodPut, base+"/api/filesystem/folders/%2FCapped/restore", bytes.NewReader(body))
		req.SetBasicAuth("admin", "admin")
		req.Header.Set("Content-Type", "application/zip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		reason, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(reason)
	}
	if code, reason := restore(archivetest.Build(archivetest.Entry{Name: "a/"}, archivetest.Entry{Name: "b/"})); code != http.StatusOK {
		t.Fatalf("two entries: %d %s", code, reason)
	}
	three := archivetest.Build(archivetest.Entry{Name: "c/"}, archivetest.Entry{Name: "d/"}, archivetest.Entry{Name: "e/"})
	if code, reason := restore(three); code != http.StatusRequestEntityTooLarge || !strings.Contains(reason, "at most 2") {
		t.Fatalf("three entries: %d %s", code, reason)
	}
	if code, reason := restore(bytes.Repeat([]byte("PK"), 4096)); code != http.StatusRequestEntityTooLarge || !strings.Contains(reason, "spool") {
		t.Fatalf("8 KiB past a spool of 4 KiB: %d %s", code, reason)
	}
}

func TestServeAdminPassword(t *testing.T) {
	base, cmd := serve(t, []string{"DAP_ADMIN_PASSWORD=correct horse"}, "--data", t.TempDir())
	if code := getAs(t, base+"/api/filesystem/root-folder", "admin", "correct horse"); code != http.StatusOK {
		t.Fatalf("admin with the password from the environment: %d", code)
	}
	if code := getAs(t, base+"/api/filesystem/root-folder", "admin", "admin"); code != http.StatusUnauthorized {
		t.Fatalf("admin with the demo password: %d", code)
	}
	stop(t, cmd, syscall.SIGTERM)
}

func TestServeRefuses(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"empty data directory without password", []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, "DAP_ADMIN_PASSWORD"},
		{"no data directory", []string{"serve", "--addr", "127.0.0.1:0"}, "--data"},
		{"bad address", []string{"serve", "--addr", "127.0.0.1:99999", "--data", t.TempDir(), "--demo-data"}, "listen"},
		{"stray argument", []string{"serve", "--data", t.TempDir(), "now"}, "now"},
		{"a file root that does not exist", []string{"serve", "--data", t.TempDir(), "--demo-data", "--file-root", "/nonexistent/dap-root"}, "/nonexistent/dap-root"},
		{"a cap of zero", []string{"serve", "--data", t.TempDir(), "--demo-data", "--restore-max-entries", "0"}, "positive"},
		{"a timeout of zero", []string{"serve", "--data", t.TempDir(), "--demo-data", "--read-header-timeout", "0s"}, "positive"},
		{"no uploads", []string{"serve", "--data", t.TempDir(), "--demo-data", "--max-uploads-per-user", "0"}, "positive"},
		{"a negative spool", []string{"serve", "--data", t.TempDir(), "--demo-data", "--max-spool-per-user", "-1"}, "positive"},
		{"encrypt without value", []string{"encrypt", "--data", t.TempDir()}, "usage"},
		{"encrypt takes no serve flags", []string{"encrypt", "-v", "x", "--data", t.TempDir(), "--read-timeout", "1s"}, "flag provided but not defined"},
		{"encrypt for a directory with no server's key", []string{"encrypt", "-v", "x", "--data", filepath.Join(t.TempDir(), "mistyped")}, "holds no secret.key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := dapconsole(t, nil, tc.args...).CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.stderr) {
				t.Fatalf("err %v, output %q; want a failure mentioning %q", err, out, tc.stderr)
			}
		})
	}
}

func TestEncrypt(t *testing.T) {
	dir := t.TempDir()
	if _, err := store.OpenSecrets(dir); err != nil { // the key a server makes on its first start
		t.Fatal(err)
	}
	out, err := dapconsole(t, nil, "encrypt", "-v", "p@ss word", "--data", dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	sealed := strings.TrimSpace(string(out))
	if !regexp.MustCompile(`^SECURE:0:[A-Za-z0-9+/=]+$`).MatchString(sealed) {
		t.Fatalf("printed %q", sealed)
	}
	fromStdin := dapconsole(t, nil, "encrypt", "-v", "-", "--data", dir)
	fromStdin.Stdin = strings.NewReader("from stdin\n")
	out, err = fromStdin.Output()
	if err != nil {
		t.Fatal(err)
	}
	secrets, err := store.OpenSecrets(dir)
	if err != nil {
		t.Fatal(err)
	}
	for sealed, want := range map[string]string{sealed: "p@ss word", strings.TrimSpace(string(out)): "from stdin"} {
		if plain, err := secrets.Reveal(sealed); err != nil || plain != want {
			t.Fatalf("%s opens to %q, %v; want %q", sealed, plain, err, want)
		}
	}
}

// TestServeSurvivesKill commits a change over HTTP, kills the server without
// warning and finds the change after a restart.
func TestServeSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	base, cmd := serve(t, nil, "--data", dir, "--demo-data")
	body := `{"version":"2.1","file":{"path":"/Data/Connections/Survivor.dst","description":"kept"},"properties":{}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/rest/connections", strings.NewReader(body))
	req.SetBasicAuth("admin", "admin")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID int64 `json:"configuration-id"`
	}
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || created.ID == 0 {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	cmd.Process.Kill()
	cmd.Wait()

	base, cmd = serve(t, nil, "--data", dir)
	if code := getAs(t, fmt.Sprintf("%s/rest/connections/%d", base, created.ID), "admin", "admin"); code != http.StatusOK {
		t.Fatalf("after kill and restart: %d", code)
	}
	stop(t, cmd, syscall.SIGTERM)
}
