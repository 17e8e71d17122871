package credentials

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenFilesHoldNoPassword scans every golden file of the module, those
// of the login screen included, for the passwords the tests type.
func TestGoldenFilesHoldNoPassword(t *testing.T) {
	root := ".." // the module root
	scanned := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".golden" || !strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return nil
		}
		scanned++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(testPasswordPrefix)) {
			t.Errorf("%s holds a test password", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned == 0 { // a scan of nothing passes whatever the goldens hold
		t.Fatalf("no golden file under %s/**/testdata/", root)
	}
	t.Logf("scanned %d golden files", scanned)
}
