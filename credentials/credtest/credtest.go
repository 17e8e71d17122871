// Package credtest holds what the tests of credentials and of the
// console's login share: the mark of the passwords they type and the scan
// that no file kept one.
package credtest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// PasswordPrefix starts every password the tests type, so that a scan
// finds any that leaked into a file.
const PasswordPrefix = "dap-test-pw-"

// NoPasswordUnder fails t for every file under dir that holds a test
// password.
func NoPasswordUnder(t testing.TB, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(PasswordPrefix)) {
			t.Errorf("%s holds a password", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
