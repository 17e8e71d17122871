package jobs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestPathsOutsideTheRootsAnswerAlike: a connection to a path outside the
// file roots fails with one answer whatever is there — a file on the way
// (/etc/passwd/x answered "not a directory"), nothing at all, a directory,
// a file that cannot be read — so the reason tells nothing of the machine.
func TestPathsOutsideTheRootsAnswerAlike(t *testing.T) {
	fx := newFixture(t, 2)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	locked := filepath.Join(outside, "locked")
	if err := os.Mkdir(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o700) })
	paths := []string{
		filepath.Join(secret, "x"),             // a file on the way
		filepath.Join(outside, "missing", "x"), // nothing there
		outside,                                // a directory
		filepath.Join(locked, "inner", "x"),    // a directory that cannot be read
	}
	var reasons []string
	for i, dir := range paths {
		conn := fx.cat.add("/Data/Connections/c"+string(rune('a'+i))+".dst", map[string]string{model.PropConnectionURL: "file://" + dir})
		job := fx.cat.add("/Data/ImportJobs/j"+string(rune('a'+i))+".imp", map[string]string{propPath: "data.csv"}, conn)
		fx.trigger(job)
		st := fx.waitFinal(job)
		if st.JobStatus != model.StateError {
			t.Fatalf("%s: %+v", dir, st)
		}
		// The job and connection names differ; what follows them must not.
		reason := strings.ReplaceAll(st.Reason, dir, "DIR")
		reasons = append(reasons, reason[strings.Index(reason, "/Data/Connections/c")+len("/Data/Connections/ca.dst"):])
	}
	for i, r := range reasons[1:] {
		if r != reasons[0] {
			t.Errorf("%s answers %q, %s answers %q", paths[0], reasons[0], paths[i+1], r)
		}
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct {
		url, path string
		ok        bool
	}{
		{"file:///srv/data/", "/srv/data", true},
		{"file://localhost/srv/data", "/srv/data", true},
		{"file://other/srv/data", "", false},
		{"jdbc:sqlite:/srv/w.db", "/srv/w.db", true},
		{"jdbc:sqlite:file:/srv/w.db?mode=ro", "/srv/w.db", true},
		{"jdbc:sqlite:/srv/a/../w.db", "/srv/w.db", true},
		{"jdbc:sqlite:", "", false},
		{"jdbc:postgresql://db.example.com/x", "", false},
		{"s3://bucket/x", "", false},
	}
	for _, tt := range tests {
		if path, ok := LocalPath(tt.url); path != tt.path || ok != tt.ok {
			t.Errorf("LocalPath(%q) = %q, %v; want %q, %v", tt.url, path, ok, tt.path, tt.ok)
		}
	}
}
