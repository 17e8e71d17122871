package cli

import (
	"archive/zip"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestUsageErrorsExitTwo: a wrong command line exits 2 before anything is
// sent (the platform would otherwise answer, and the run exit 0 or 1).
func TestUsageErrorsExitTwo(t *testing.T) {
	p := startPlatform(t)
	for _, args := range [][]string{
		{"folder", "bogus"},
		{"folder", "ls", "-o", "yaml"},
		{"folder", "ls", "Data"},
		{"folder", "ls", "/", "/Data"},
		{"folder", "backup", "/Data"},
		{"folder", "perm", "/Data", "--others", "rwz"},
		{"folder", "perm", "/Data", "--group", "viewers"},
		{"job", "details", "x"},
		{"job", "seq", "/Data/ImportJobs/Orders.imp", "--var", "novalue"},
		{"job", "trigger"},
		{"conn", "deps", "2", "--direction", "sideways"},
		{"conn", "get", "2", "--bogus"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := p.run(t, args...).want(t, ExitUsage)
			if !strings.HasPrefix(r.stderr, "dapconsole: ") || r.stdout != "" {
				t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
			}
		})
	}
	// Nothing changed: the others' permission is still the demo's.
	if r := p.run(t, "folder", "perm", "/Data"); !strings.Contains(r.stdout, "others            r--") {
		t.Errorf("a usage error changed the permission:\n%s", r.stdout)
	}
}

// TestRefusalsExitOne: what the platform refuses exits 1 with its reason.
func TestRefusalsExitOne(t *testing.T) {
	p := startPlatform(t)
	archive := filepath.Join(t.TempDir(), "data.zip")
	p.run(t, "folder", "backup", "/Data", "-o", archive).want(t, ExitOK)
	for _, tt := range []struct {
		args   []string
		reason string
	}{
		{[]string{"folder", "ls", "/Nowhere"}, "404"},
		// A file id that names nothing, a doubled slash before a missing
		// name (it changed /Data): refused before anything is sent.
		{[]string{"folder", "perm", "999999", "--others", "rwx"}, "404"},
		{[]string{"folder", "perm", "/Data//Nowhere", "--others", "rwx"}, "no folder /Data/Nowhere"},
		{[]string{"job", "stop", "/Data/ImportJobs/Customer List.imp"}, "no queued or running execution"},
		{[]string{"conn", "delete", "2"}, "still used by"},
		{[]string{"folder", "restore", "/Data", archive}, "already exist in the target"},
		{[]string{"folder", "restore", "/Data", archive, "--overwrite"}, "Local Files.dst is still used by"},
		{[]string{"job", "trigger", "/Exports/Sales by Region.exp", "--wait"}, "ended ERROR: /Exports/Sales by Region.exp: input /Analytics/Sales by Region.wbk has no data"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := p.run(t, tt.args...).want(t, ExitFailed)
			if !strings.Contains(r.stderr, tt.reason) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.reason)
			}
		})
	}
}

// TestTriggerWaitWarns: COMPLETED_WITH_WARNINGS exits 0 and says so.
func TestTriggerWaitWarns(t *testing.T) {
	p := startPlatform(t)
	r := p.run(t, "job", "trigger", "/Data/DataLinks/Orders With Errors.lnk", "--wait").want(t, ExitOK)
	if !strings.Contains(r.stdout, "COMPLETED_WITH_WARNINGS") || !strings.Contains(r.stderr, "warning: execution") {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
	r = p.run(t, "job", "trigger", "/Data/ImportJobs/Products.imp").want(t, ExitOK)
	if !strings.Contains(r.stdout, "EXECUTION") {
		t.Errorf("trigger without --wait: %q", r.stdout)
	}
}

// TestCredentials: a wrong password, a server that is down and a run
// without a terminal or a password each exit 1 at once with a sentence.
func TestCredentials(t *testing.T) {
	p := startPlatform(t)
	r := p.runWith(t, invocation{env: map[string]string{"DAP_PASSWORD": "wrong"}}, "--server", p.URL, "--user", "admin", "conn", "ls").want(t, ExitFailed)
	if !strings.Contains(r.stderr, "401") || strings.Contains(r.stderr, "wrong") {
		t.Errorf("wrong password: %q", r.stderr)
	}

	down := startPlatform(t)
	down.Close()
	start := time.Now()
	r = down.run(t, "job", "ls").want(t, ExitFailed)
	if !strings.Contains(r.stderr, "unreachable") || time.Since(start) > 5*time.Second {
		t.Errorf("server down: %q after %v", r.stderr, time.Since(start))
	}

	// No terminal, no password: the stdin holds a line that a prompt would
	// take for the password, and is not read.
	r = p.runWith(t, invocation{env: map[string]string{"DAP_PASSWORD": ""}, stdin: "admin\n"}, "--server", p.URL, "--user", "admin", "conn", "ls").want(t, ExitFailed)
	if !strings.Contains(r.stderr, "no terminal to ask on: set DAP_PASSWORD, or store it with dapconsole login") || r.stdout != "" {
		t.Errorf("no terminal: %q", r.stderr)
	}
	r = p.runWith(t, invocation{}, "conn", "ls").want(t, ExitFailed)
	if !strings.Contains(r.stderr, "no server: give --server URL or --profile NAME") {
		t.Errorf("nothing given: %q", r.stderr)
	}
	// On a terminal the password is asked (here read from the stand-in).
	r = p.runWith(t, invocation{env: map[string]string{"DAP_PASSWORD": ""}, stdin: "admin\n", terminal: true}, "--server", p.URL, "--user", "admin", "conn", "ls").want(t, ExitOK)
	if !strings.Contains(r.stderr, "Password for admin@"+p.URL) {
		t.Errorf("terminal: %q", r.stderr)
	}
}

// TestReadOnly: --read-only refuses every write before it is sent, and
// reads still work.
func TestReadOnly(t *testing.T) {
	p := startPlatform(t)
	archive := filepath.Join(t.TempDir(), "data.zip")
	p.run(t, "--read-only", "folder", "backup", "/Data", "-o", archive).want(t, ExitOK)
	for _, args := range [][]string{
		{"job", "trigger", "/Data/ImportJobs/Orders.imp"},
		{"conn", "delete", "7"},
		{"folder", "perm", "/Data", "--others", "rwx"},
		{"folder", "restore", "/Elsewhere", archive},
	} {
		r := p.run(t, append([]string{"--read-only"}, args...)...).want(t, ExitFailed)
		if !strings.Contains(r.stderr, "read-only") {
			t.Errorf("%v: %q", args, r.stderr)
		}
	}
	p.run(t, "--read-only", "folder", "restore", "/Elsewhere", archive, "--dry-run").want(t, ExitOK)
	p.run(t, "folder", "ls", "/Elsewhere").want(t, ExitFailed) // nothing was created
	p.run(t, "conn", "get", "7").want(t, ExitOK)
}

// TestBackupWritesNoPartialFile: a refused or cancelled backup leaves no
// file and an existing one as it was; a backup that arrived is a ZIP that
// restores elsewhere.
func TestBackupWritesNoPartialFile(t *testing.T) {
	p := startPlatform(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "nightly.zip")
	p.run(t, "folder", "backup", "/Nowhere", "-o", file).want(t, ExitFailed)
	r := p.run(t, "folder", "backup", "/Data/ImportJobs", "-o", file).want(t, ExitFailed) // depends on files outside
	if !strings.Contains(r.stderr, "--ignore-missing-dependencies or --skip-files-with-missing-dependencies") {
		t.Errorf("a backup refused for its dependencies does not name this command's flags: %q", r.stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a refused backup left %v", entries)
	}
	if err := os.WriteFile(file, []byte("yesterday"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.runWith(t, invocation{ctx: ctx}, "--server", p.URL, "--user", "admin", "folder", "backup", "/Data", "-o", file).want(t, ExitFailed)
	if b, _ := os.ReadFile(file); string(b) != "yesterday" {
		t.Fatalf("a cancelled backup changed the file: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("a cancelled backup left %v", entries)
	}

	r = p.run(t, "folder", "backup", "/Data", "-o", file, "--include-owner").want(t, ExitOK)
	if !strings.Contains(r.stderr, "bytes") {
		t.Errorf("backup said %q", r.stderr)
	}
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatalf("the backup is no ZIP: %v", err)
	}
	zr.Close()
	r = p.run(t, "folder", "restore", "/Copy", file, "-o", "json").want(t, ExitOK)
	if res := decode[model.RestoreResult](t, r); len(res.Restored) < 10 {
		t.Errorf("restore: %+v", res)
	}
	p.run(t, "folder", "ls", "/Copy/Connections").want(t, ExitOK)

	r = p.run(t, "folder", "backup", "/Data", "-o", file, "--ids", "/Data/Connections/Warehouse.dst", "--ignore-missing-dependencies").want(t, ExitOK)
	zr, err = zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		if !f.FileInfo().IsDir() {
			names = append(names, f.Name)
		}
	}
	if strings.Join(names, ",") != "Connections/Warehouse.dst" {
		t.Errorf("--ids backed up %v", names)
	}
}

// TestWrites: perm changes, connection create and delete, stop, seq, log -f.
func TestWrites(t *testing.T) {
	p := startPlatform(t)
	r := p.run(t, "folder", "perm", "/Data", "--others", "-", "--group", "viewers=rwx", "--remove-group", "analysts", "--owner", "analyst").want(t, ExitOK)
	for _, want := range []string{"owner analyst", "others ---", "group viewers rwx"} {
		if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), want) {
			t.Errorf("perm lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "analysts") {
		t.Errorf("analysts kept:\n%s", r.stdout)
	}
	r = p.run(t, "folder", "perm", "/Data", "--group", "analysts=r").want(t, ExitOK) // granted anew
	if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), "group analysts r--") {
		t.Errorf("analysts not granted:\n%s", r.stdout)
	}

	conn := p.run(t, "conn", "get", "3", "-o", "json").want(t, ExitOK).stdout
	conn = strings.ReplaceAll(conn, "/Data/Connections/Warehouse.dst", "/Data/Connections/Warehouse Copy.dst")
	conn = strings.ReplaceAll(conn, `"uuid": "`, `"uuid-was": "`)
	r = p.runWith(t, invocation{stdin: conn}, "--server", p.URL, "--user", "admin", "conn", "create", "-f", "-").want(t, ExitOK)
	id := strings.TrimSpace(r.stdout)
	if !strings.Contains(p.run(t, "conn", "get", id).want(t, ExitOK).stdout, "Warehouse Copy.dst") {
		t.Errorf("created connection %s is not the copy", id)
	}
	p.run(t, "conn", "delete", id).want(t, ExitOK)
	p.run(t, "conn", "get", id).want(t, ExitFailed)

	r = p.run(t, "job", "seq", "/Data/ImportJobs/Customer List.imp", "--var", "region=EU").want(t, ExitOK)
	if !strings.Contains(r.stdout, "Customers per Region") {
		t.Errorf("seq: %s", r.stdout)
	}
	exec := strings.Fields(strings.Split(p.run(t, "job", "status", "/Data/ImportJobs/Customer List.imp").stdout, "\n")[1])[1]
	r = p.run(t, "job", "log", exec, "-f").want(t, ExitOK)
	if !strings.Contains(r.stdout, "ended: COMPLETED") || strings.Count(r.stdout, "started") != 1 {
		t.Errorf("log -f:\n%s", r.stdout)
	}
}

// TestCompletion: the shells' scripts name the program.
func TestCompletion(t *testing.T) {
	p := startPlatform(t)
	for _, shell := range []string{"bash", "zsh", "fish"} {
		if r := p.run(t, "completion", shell).want(t, ExitOK); !strings.Contains(r.stdout, "dapconsole") {
			t.Errorf("%s: %.200s", shell, r.stdout)
		}
	}
	if r := p.run(t, "completion", "tcsh").want(t, ExitUsage); !strings.Contains(r.stderr, `unknown command "tcsh"`) {
		t.Errorf("an unknown shell: %q", r.stderr)
	}
	r := p.run(t, "__complete", "folder", "ls", "-o", "").want(t, ExitOK)
	if !strings.Contains(r.stdout, "table\njson\n") {
		t.Errorf("completion of -o: %q", r.stdout)
	}
}

// TestTableForPeople: colour only on a terminal without NO_COLOR; every
// cell a server sent is cleaned; columns align by display width.
func TestTableForPeople(t *testing.T) {
	p := startPlatform(t)
	if r := p.runWith(t, invocation{terminal: true}, "--server", p.URL, "--user", "admin", "conn", "ls"); !strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("no colour on a terminal: %q", r.stdout)
	}
	if r := p.runWith(t, invocation{terminal: true, env: map[string]string{"NO_COLOR": "1"}}, "--server", p.URL, "--user", "admin", "conn", "ls"); strings.Contains(r.stdout, "\x1b") {
		t.Errorf("colour with NO_COLOR: %q", r.stdout)
	}
	tb := newTable("NAME", "X")
	tb.add("\x1b]0;owned\x07日本", "1")
	tb.add("a", "2")
	var b strings.Builder
	if err := tb.write(&b, false); err != nil {
		t.Fatal(err)
	}
	want := "NAME              X\n^[]0;owned^G日本  1\na                 2\n"
	if b.String() != want {
		t.Errorf("table\n%q\nwant\n%q", b.String(), want)
	}
}

// TestRecoverInPlace: restoring a backup of /Data onto /Data with overwrite
// is refused (its connections are in use); with --skip-unchanged only the
// one file changed since the backup is sent, and it is restored (issue 29).
func TestRecoverInPlace(t *testing.T) {
	p := startPlatform(t)
	file := filepath.Join(t.TempDir(), "data.zip")
	p.run(t, "folder", "backup", "/Data", "-o", file).want(t, ExitOK)
	r := p.run(t, "folder", "restore", "/Data", file, "--skip-unchanged").want(t, ExitOK)
	if !strings.Contains(r.stderr, "unchanged: nothing sent") {
		t.Errorf("nothing changed: %q", r.stderr)
	}

	client := api.New(p.URL, "admin", "admin")
	conn, err := client.Connection(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	was := conn.File.Description
	conn.File.Description = "changed since the backup"
	if err := client.UpdateConnection(context.Background(), 4, conn); err != nil {
		t.Fatal(err)
	}
	p.run(t, "folder", "restore", "/Data", file, "--overwrite").want(t, ExitFailed)
	r = p.run(t, "folder", "restore", "/Data", file, "--overwrite", "--skip-unchanged", "-o", "json").want(t, ExitOK)
	if res := decode[model.RestoreResult](t, r); len(res.Restored) == 0 || slices.ContainsFunc(res.Restored, func(p string) bool {
		return strings.HasSuffix(p, ".dst") && p != "/Data/Connections/MYSQL_QA1.dst"
	}) {
		t.Errorf("restored %v, want MYSQL_QA1.dst alone among the files", res.Restored)
	}
	if !strings.Contains(r.stderr, "unchanged file(s) left out") {
		t.Errorf("stderr %q", r.stderr)
	}
	if conn, _ = client.Connection(context.Background(), 4); conn.File.Description != was {
		t.Errorf("description %q after the restore, want %q", conn.File.Description, was)
	}
}

// TestFolderDiff: exit 0 when the folder is as backed up, 1 when it is not,
// with the changed fields in both outputs.
func TestFolderDiff(t *testing.T) {
	p := startPlatform(t)
	file := filepath.Join(t.TempDir(), "conns.zip")
	p.run(t, "folder", "backup", "/Data/Connections", "-o", file).want(t, ExitOK)
	p.run(t, "folder", "diff", "/Data/Connections", file).want(t, ExitOK)

	client := api.New(p.URL, "admin", "admin")
	conn, err := client.Connection(context.Background(), 4)
	if err != nil {
		t.Fatal(err)
	}
	conn.File.Description = "changed since the backup"
	if err := client.UpdateConnection(context.Background(), 4, conn); err != nil {
		t.Fatal(err)
	}
	r := p.run(t, "folder", "diff", "/Data/Connections", file).want(t, ExitFailed)
	if !strings.Contains(r.stdout, "changed  /Data/Connections/MYSQL_QA1.dst") || !strings.Contains(r.stdout, `"changed since the backup"`) {
		t.Errorf("diff:\n%s", r.stdout)
	}
	r = p.run(t, "folder", "diff", "/Data/Connections", file, "-o", "json").want(t, ExitFailed)
	if c := decode[[]restoreplan.Change](t, r); len(c) != 1 || c[0].Fields[0].Field != "file.description" {
		t.Errorf("diff -o json: %+v", c)
	}
}

// TestFolderCopy copies /Data/Connections to another platform named by a
// saved profile: the plan names the connections whose secrets only the
// source opens (needs-secret, exit 1, nothing written); with --secrets
// they are given and the copy is restored there.
func TestFolderCopy(t *testing.T) {
	p := startPlatform(t)
	q := startPlatform(t)
	profiles, err := credentials.LoadProfiles(p.profiles)
	if err != nil {
		t.Fatal(err)
	}
	profiles.Put(credentials.Profile{Name: "other", Server: q.URL, User: "admin"})
	if err := profiles.Save(); err != nil {
		t.Fatal(err)
	}
	r := p.run(t, "folder", "copy", "/Data/Connections", "other:/Copied", "--dry-run", "-o", "json").want(t, ExitFailed)
	plan := decode[restoreplan.Plan](t, r)
	conns := decode[[]model.ConnectionEntry](t, p.run(t, "conn", "ls", "-o", "json"))
	secrets := restoreplan.Secrets{}
	for _, f := range plan.Files {
		if f.Action != restoreplan.NeedsSecret {
			continue
		}
		source := strings.Replace(f.Path, "/Copied", "/Data/Connections", 1)
		i := slices.IndexFunc(conns, func(c model.ConnectionEntry) bool { return c.Path == source })
		conn := decode[model.Connection](t, p.run(t, "conn", "get", strconv.FormatInt(conns[i].ID, 10), "-o", "json"))
		secrets[source] = map[string]string{}
		for key := range conn.Properties {
			if model.IsSecretProperty(key) {
				secrets[source][key] = "dap-test-pw-copied"
			}
		}
	}
	if plan.Outcome != restoreplan.OutcomeRefused || len(secrets) == 0 || plan.Count(restoreplan.Create) == 0 {
		t.Fatalf("plan %+v", plan)
	}
	p.run(t, "folder", "copy", "/Data/Connections", "other:/Copied").want(t, ExitFailed)
	q.run(t, "folder", "ls", "/Copied").want(t, ExitFailed) // nothing written

	file := filepath.Join(t.TempDir(), "secrets.json")
	body, _ := json.Marshal(secrets)
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	r = p.run(t, "folder", "copy", "/Data/Connections", "other:/Copied", "--secrets", file, "-o", "json").want(t, ExitOK)
	if res := decode[model.RestoreResult](t, r); len(res.Restored) < 5 {
		t.Errorf("copied %+v", res)
	}
	if r := q.run(t, "folder", "ls", "/Copied").want(t, ExitOK); !strings.Contains(r.stdout, "MYSQL_QA1.dst") {
		t.Errorf("the target holds:\n%s", r.stdout)
	}
	p.run(t, "folder", "copy", "/Data/Connections", "nobody:/Copied").want(t, ExitFailed)
	p.run(t, "folder", "copy", "/Data/Connections", "/Copied").want(t, ExitUsage)
}

// TestFlagsSayWhatTheyDo: every flag of backup, restore and copy has help
// of its own, not only its wire name.
func TestFlagsSayWhatTheyDo(t *testing.T) {
	p := startPlatform(t)
	for _, cmd := range []string{"backup", "restore", "copy"} {
		r := p.run(t, "folder", cmd, "--help").want(t, ExitOK)
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "--") && strings.Contains(line, " (") && strings.Contains(line, "  (") {
				t.Errorf("%s: a flag without help: %q", cmd, line)
			}
		}
	}
}

// TestOlderPlatform: against a release before 7.2.6 (no POST backup) a
// backup of chosen files fails saying what the platform lacks and that the
// whole folder can be backed up; the whole folder's backup, the plan of its
// restore and the restore of only what changed work as on a newer one.
func TestOlderPlatform(t *testing.T) {
	p := startPlatformWith(t, servertest.LackingPostBackup)
	dir := t.TempDir()
	r := p.run(t, "folder", "backup", "/Data", "--ids", "/Data/ImportJobs/Orders.imp", "-o", filepath.Join(dir, "chosen.zip")).want(t, ExitFailed)
	if !strings.Contains(r.stderr, "7.2.6") || !strings.Contains(r.stderr, "whole folder instead") {
		t.Errorf("stderr %q", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "chosen.zip")); err == nil {
		t.Error("a failed backup left a file")
	}
	file := filepath.Join(dir, "data.zip")
	p.run(t, "folder", "backup", "/Data", "-o", file).want(t, ExitOK)
	r = p.run(t, "folder", "restore", "/Data", file, "--dry-run", "--overwrite", "--skip-unchanged", "-o", "json").want(t, ExitOK)
	if plan := decode[restoreplan.Plan](t, r); plan.Count(restoreplan.Unchanged) == 0 || plan.Outcome != restoreplan.OutcomeOK {
		t.Errorf("plan %+v", plan)
	}
	p.run(t, "folder", "restore", "/Data", file, "--overwrite", "--skip-unchanged").want(t, ExitOK)
}

// TestPathsOnAPlatformThatTakesNone: the commands that take a REF take a
// path on a platform whose folder and file endpoints take none (the real
// one): the folder is walked to from the root, a file found by its UUID.
func TestPathsOnAPlatformThatTakesNone(t *testing.T) {
	p := startPlatformWith(t, servertest.TakingNoPaths)
	// A doubled or trailing slash lists the same files (they were left out).
	for _, dir := range []string{"/Data/ImportJobs", "/Data//ImportJobs/"} {
		if r := p.run(t, "folder", "ls", dir).want(t, ExitOK); !strings.Contains(r.stdout, "Orders.imp") {
			t.Errorf("folder ls %s: %q", dir, r.stdout)
		}
	}
	if r := p.run(t, "folder", "perm", "/Data/ImportJobs", "--others", "r-x").want(t, ExitOK); !strings.Contains(r.stdout, "r-x") {
		t.Errorf("folder perm of a folder: %q", r.stdout)
	}
	if r := p.run(t, "folder", "perm", "/Data/ImportJobs/Orders.imp", "--group", "viewers=r--").want(t, ExitOK); !strings.Contains(r.stdout, "viewers") {
		t.Errorf("folder perm of a file: %q", r.stdout)
	}
	orders, err := p.Server.Store().FileByPath(t.Context(), "/Data/ImportJobs/Orders.imp")
	if err != nil {
		t.Fatal(err)
	}
	// A file named by file id or UUID: its permissions are under files/.
	for _, ref := range []string{strconv.FormatInt(orders.ID, 10), orders.UUID} {
		if r := p.run(t, "folder", "perm", ref, "--group", "analysts=r-x").want(t, ExitOK); !strings.Contains(r.stdout, "analysts") {
			t.Errorf("folder perm of a file by %s: %q", ref, r.stdout)
		}
	}
	p.run(t, "job", "seq", "/Data/ImportJobs/Customer List.imp").want(t, ExitOK)
	if r := p.run(t, "folder", "ls", "/Data/Nowhere").want(t, ExitFailed); !strings.Contains(r.stderr, "no folder /Data/Nowhere") {
		t.Errorf("folder ls of a missing folder: %q", r.stderr)
	}
}

// TestSeqReadsTheFileListsOnce: job seq finds every path it is given in
// one reading of the per-kind lists; it read them, and walked the folders,
// once per path.
func TestSeqReadsTheFileListsOnce(t *testing.T) {
	var lists atomic.Int32
	count := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/rest/import-job" {
				lists.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}
	p := startPlatformWith(t, func(next http.Handler) http.Handler { return count(servertest.TakingNoPaths(next)) })
	job := "/Data/ImportJobs/Customer List.imp"
	r := p.run(t, "job", "seq", job, job).want(t, ExitOK)
	if !strings.Contains(r.stdout, "Customer List") {
		t.Errorf("seq: %s", r.stdout)
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("the file lists were read %d times, want 1", n)
	}
}

// TestFolderLsSaysWhatFailedOnce: a folder the walk cannot read (here the
// server fails) is named once in the error, with the server's answer.
func TestFolderLsSaysWhatFailedOnce(t *testing.T) {
	p := startPlatformWith(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/api/filesystem/folders/") {
				http.Error(w, "down", http.StatusInternalServerError)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	for _, dir := range []string{"/Data/ImportJobs", "/Data/Nowhere"} {
		r := p.run(t, "folder", "ls", dir).want(t, ExitFailed)
		if strings.Count(r.stderr, "read folder") != 1 || !strings.Contains(r.stderr, "read folder /Data: ") || !strings.Contains(r.stderr, "500") {
			t.Errorf("folder ls %s: %q", dir, r.stderr)
		}
	}
	r := p.run(t, "folder", "ls", "/Nowhere").want(t, ExitFailed)
	if strings.Count(r.stderr, "read folder") != 1 || !strings.Contains(r.stderr, "no folder /Nowhere") {
		t.Errorf("folder ls /Nowhere: %q", r.stderr)
	}
}
