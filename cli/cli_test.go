package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

func TestMain(m *testing.M) {
	// The credentials' lookup asks the OS keyring after DAP_PASSWORD: an
	// empty mock keeps the host's keyring out of the tests.
	keyring.MockInit()
	pollEvery = 20 * time.Millisecond
	os.Exit(m.Run())
}

// platform is the embedded platform with the demo data, for one test.
type platform struct {
	*servertest.Platform
	profiles string
}

func startPlatform(t *testing.T) *platform {
	t.Helper()
	return startPlatformWith(t, nil)
}

// startPlatformWith starts the demo platform behind wrap (an older release).
func startPlatformWith(t *testing.T, wrap func(http.Handler) http.Handler) *platform {
	t.Helper()
	return &platform{
		Platform: servertest.Start(t, server.Config{DemoData: true}, wrap),
		profiles: filepath.Join(t.TempDir(), "profiles.json"),
	}
}

// result is what a command line printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
}

// invocation is one run of the tree, as a script would make it.
type invocation struct {
	env      map[string]string // besides DAP_PASSWORD=admin, unless it is given
	stdin    string
	terminal bool // stdin, stdout and stderr are terminals
	ctx      context.Context
}

// run runs args as admin against p (--server and --user first).
func (p *platform) run(t *testing.T, args ...string) result {
	t.Helper()
	return p.runWith(t, invocation{}, append([]string{"--server", p.URL, "--user", "admin"}, args...)...)
}

func (p *platform) runWith(t *testing.T, in invocation, args ...string) result {
	t.Helper()
	var stdout, stderr strings.Builder
	env := map[string]string{"DAP_PASSWORD": "admin"}
	for k, v := range in.env {
		env[k] = v
	}
	ctx := in.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	sys := System{
		Stdin: strings.NewReader(in.stdin), Stdout: &stdout, Stderr: &stderr,
		Getenv:        func(k string) string { return env[k] },
		ProfilesPath:  p.profiles,
		StdinTerminal: in.terminal, StdoutTerminal: in.terminal, StderrTerminal: in.terminal,
		Timeout: 2 * time.Minute, // under -race on a loaded machine a write can take seconds
	}
	err := Execute(ctx, Options{System: sys}, args)
	code := Report(err, &stderr)
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

func (r result) want(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	return r
}

func decode[T any](t *testing.T, r result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("-o json does not decode as %T: %v\n%s", v, err, r.stdout)
	}
	return v
}
