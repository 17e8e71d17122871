package jobs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenRemovesExportLeftovers: a kill -9 during an export left
// .big.csv.<random>.tmp (8 MB) in files/exports forever; Open removes the
// temporary files of exports, as earlier versions and this one name them,
// below every file root, and nothing else.
func TestOpenRemovesExportLeftovers(t *testing.T) {
	fx := newFixture(t, 1)
	exports := filepath.Join(fx.files, "exports")
	if err := os.MkdirAll(exports, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{ // name -> kept
		".big.csv.2847561930.tmp":           false,
		".big.csv.dapexport-3390155561.tmp": false,
		"big.csv":                           true,
		"notes.tmp":                         true,
		".big.csv.draft.tmp":                true,
		".hidden.csv":                       true,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(exports, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fx.engine.Close()
	fx.open()
	for name, kept := range files {
		_, err := os.Stat(filepath.Join(exports, name))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists %v, want %v", name, exists, kept)
		}
	}
}
