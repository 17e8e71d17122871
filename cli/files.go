package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomically writes a file under a temporary name beside path and
// renames it only when write succeeded: a refusal, a failure or Ctrl-C
// leaves no file, and an existing one untouched.
func writeAtomically(ctx context.Context, path string, write func(*os.File) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return failed(fmt.Errorf("create %s: %w", path, err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return failed(fmt.Errorf("write %s: %w", path, err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return failed(fmt.Errorf("write %s: %w", path, errors.Unwrap(err)))
	}
	return nil
}
