package cli

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/restoreplan"
)

// TestReadsAsTables holds the table of every read whose answer the demo
// data fixes (the jobs' states and times move with its scheduler).
func TestReadsAsTables(t *testing.T) {
	p := startPlatform(t)
	archive := filepath.Join(t.TempDir(), "data.zip")
	p.run(t, "folder", "backup", "/Data/ImportJobs", "-o", archive, "--ignore-missing-dependencies").want(t, ExitOK)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"folder-ls-root", []string{"folder", "ls"}, ExitOK},
		{"folder-ls-connections", []string{"folder", "ls", "/Data/Connections"}, ExitOK},
		{"folder-perm", []string{"folder", "perm", "/Data"}, ExitOK},
		{"conn-ls", []string{"conn", "ls"}, ExitOK},
		{"conn-deps", []string{"conn", "deps", "2", "--direction", "down", "--level", "1"}, ExitOK},
		{"restore-dry-run-refused", []string{"folder", "restore", "/Data/ImportJobs", archive, "--dry-run"}, ExitFailed},
		{"restore-dry-run-overwrite", []string{"folder", "restore", "/Data/ImportJobs", archive, "--dry-run", "--overwrite"}, ExitFailed},
		{"restore-dry-run-skip-unchanged", []string{"folder", "restore", "/Data/ImportJobs", archive, "--dry-run", "--skip-unchanged"}, ExitOK},
		{"restore-dry-run-elsewhere", []string{"folder", "restore", "/Elsewhere", archive, "--dry-run"}, ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := p.run(t, tt.args...).want(t, tt.code)
			if strings.Contains(r.stdout, "\x1b") {
				t.Errorf("colour without a terminal: %q", r.stdout)
			}
			golden.RequireEqual(t, anyUUID.ReplaceAllString(r.stdout, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"))
		})
	}
}

// anyUUID is a UUID, which the demo data draws anew on every start.
var anyUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// The REF and CONF that folder ls shows for a row name that row to the
// commands that take them. It showed a file's configuration id as ID, and
// a REF reads a number as a file id: `folder backup /Data --ids 8` with
// Orders.imp's 8 named the /Analytics folder, and a job trigger with it
// could have started another job.
func TestFolderLsShowsWhatCommandsTake(t *testing.T) {
	p := startPlatform(t)
	ls := p.run(t, "folder", "ls", "/Data/ImportJobs").want(t, ExitOK)
	var ref string
	for _, line := range strings.Split(ls.stdout, "\n") {
		if f := strings.Fields(line); len(f) >= 4 && f[3] == "Orders.imp" {
			ref = f[1]
		}
	}
	if ref == "" {
		t.Fatalf("no Orders.imp row:\n%s", ls.stdout)
	}
	status := decode[model.JobStatus](t, p.run(t, "job", "status", ref, "-o", "json").want(t, ExitOK))
	byPath := decode[model.JobStatus](t, p.run(t, "job", "status", "/Data/ImportJobs/Orders.imp", "-o", "json").want(t, ExitOK))
	if status.FileID == nil || byPath.FileID == nil || *status.FileID != *byPath.FileID {
		t.Errorf("job status %s answered file %v, /Data/ImportJobs/Orders.imp file %v", ref, status.FileID, byPath.FileID)
	}
	conns := p.run(t, "folder", "ls", "/Data/Connections").want(t, ExitOK)
	for _, line := range strings.Split(conns.stdout, "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		got := decode[model.Configuration](t, p.run(t, "conn", "get", f[2], "-o", "json").want(t, ExitOK))
		if got.File.Name+".dst" != strings.Join(f[3:], " ") {
			t.Errorf("conn get %s (CONF of %q) answered %q", f[2], strings.Join(f[3:], " "), got.File.Name)
		}
	}
}

// TestReadsAsJSON: every read answers -o json in the platform's shapes.
func TestReadsAsJSON(t *testing.T) {
	p := startPlatform(t)
	r := p.run(t, "job", "trigger", "/Data/ImportJobs/Orders.imp", "--wait", "-o", "json").want(t, ExitOK)
	if d := decode[model.JobDetails](t, r); d.JobStatus.Canonical() != model.StateCompleted {
		t.Fatalf("trigger --wait -o json: %s", r.stdout)
	}
	status := decode[model.JobStatus](t, p.run(t, "job", "status", "/Data/ImportJobs/Orders.imp", "-o", "json").want(t, ExitOK))
	if status.JobExecutionID == nil || status.JobStatus.Canonical() != model.StateCompleted {
		t.Fatalf("job status: %+v", status)
	}
	execID := strconv.FormatInt(*status.JobExecutionID, 10)
	archive := filepath.Join(t.TempDir(), "jobs.zip")
	p.run(t, "folder", "backup", "/Data/ImportJobs", "-o", archive, "--ignore-missing-dependencies").want(t, ExitOK)

	checks := []struct {
		args  []string
		check func(t *testing.T, r result)
	}{
		{[]string{"folder", "ls", "/Data/ImportJobs"}, func(t *testing.T, r result) {
			l := decode[folderListing](t, r)
			if l.Folder.Name != "ImportJobs" || len(l.Files) != 5 || l.Files[0].Status == nil {
				t.Errorf("folder ls: %+v", l)
			}
		}},
		{[]string{"folder", "perm", "/Data"}, func(t *testing.T, r result) {
			if p := decode[folderPermissions](t, r); p.Permission.Owner != "admin" || len(p.Groups.Embedded.Groups) == 0 {
				t.Errorf("folder perm: %+v", p)
			}
		}},
		{[]string{"job", "ls"}, func(t *testing.T, r result) {
			if jobs := decode[[]jobEntry](t, r); len(jobs) < 10 || jobs[0].Status.Status == "" {
				t.Errorf("job ls: %+v", jobs)
			}
		}},
		{[]string{"job", "ls", "--running"}, func(t *testing.T, r result) { decode[[]model.RunningJob](t, r) }},
		{[]string{"job", "history", "/Data/ImportJobs/Orders.imp"}, func(t *testing.T, r result) {
			if h := decode[[]model.HistoryEntry](t, r); len(h) == 0 || h[0].ID != *status.JobExecutionID {
				t.Errorf("history: %+v", h)
			}
		}},
		{[]string{"job", "details", execID}, func(t *testing.T, r result) {
			if d := decode[model.JobDetails](t, r); d.SuccessCount == 0 || d.JobStatus.Canonical() != model.StateCompleted {
				t.Errorf("details: %+v", d)
			}
		}},
		{[]string{"conn", "ls"}, func(t *testing.T, r result) {
			if c := decode[[]model.ConnectionEntry](t, r); len(c) < 3 || c[1].Path != "/Data/Connections/Local Files.dst" {
				t.Errorf("conn ls: %+v", c)
			}
		}},
		{[]string{"conn", "get", "2"}, func(t *testing.T, r result) {
			if c := decode[model.Connection](t, r); c.File.Name != "Local Files" {
				t.Errorf("conn get: %+v", c)
			}
		}},
		{[]string{"conn", "deps", "2"}, func(t *testing.T, r result) {
			if d := decode[model.Dependencies](t, r); len(d.Dependencies) < 5 {
				t.Errorf("conn deps: %+v", d)
			}
		}},
		{[]string{"folder", "restore", "/Data/ImportJobs", archive, "--dry-run", "--overwrite", "--skip-unchanged"}, func(t *testing.T, r result) {
			plan := decode[restoreplan.Plan](t, r)
			if plan.Outcome != restoreplan.OutcomeOK || len(plan.Files) != 5 || plan.Count(restoreplan.Unchanged) != 5 {
				t.Errorf("dry run: %+v", plan)
			}
		}},
	}
	for _, c := range checks {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := p.run(t, append(c.args, "-o", "json")...).want(t, ExitOK)
			c.check(t, r)
			r = p.run(t, c.args...).want(t, ExitOK)
			if r.stdout == "" || !strings.HasSuffix(r.stdout, "\n") {
				t.Errorf("table: %q", r.stdout)
			}
		})
	}

	t.Run("log", func(t *testing.T) {
		r := p.run(t, "job", "log", execID).want(t, ExitOK)
		if !strings.Contains(r.stdout, "ended: COMPLETED") {
			t.Errorf("log: %s", r.stdout)
		}
	})
}
