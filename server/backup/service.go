package backup

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"time"

	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
)

// Service backs up and restores the tree of one store.
type Service struct {
	store  database
	spool  string
	limits archive.Limits
	check  func(ctx context.Context, q store.Queries, user store.User, restored iter.Seq[string]) error
	hooks  Hooks
}

// Config sets up a Service.
type Config struct {
	// SpoolDir is where restore uploads wait, as temporary files, to be applied.
	SpoolDir string
	// Limits caps restore uploads; zero fields take archive.DefaultLimits.
	Limits archive.Limits
	// CheckRestored, when set, judges the paths a restore made, in its
	// transaction before the commit: an error refuses the restore (the
	// server's rule on file connections lives with connections).
	CheckRestored func(ctx context.Context, q store.Queries, user store.User, restored iter.Seq[string]) error
	// Hooks let tests see and steer a restore's phases; production leaves them zero.
	Hooks Hooks
}

// Hooks see a restore's phases, for tests: Checked after each run of its
// checks (underLock tells whether it held the write lock), BeforeCommit
// inside its transaction after every change, Committed after its commit
// with how long the write lock was held. EntriesOnDisk makes every
// restore keep its entries on disk, as one of many entries does, in pages
// of two entries with three in memory.
type Hooks struct {
	Checked       func(underLock bool)
	BeforeCommit  func()
	Committed     func(held time.Duration)
	EntriesOnDisk bool
}

func (h Hooks) checked(underLock bool) {
	if h.Checked != nil {
		h.Checked(underLock)
	}
}

// New returns the service over st. It removes the uploads and the indexes
// of their entries that a server killed during a restore left behind (up
// to the upload cap each): call it before any restore runs.
func New(st *store.Store, cfg Config) (*Service, error) {
	s := &Service{store: st, spool: cfg.SpoolDir, limits: cfg.Limits.WithDefaults(), check: cfg.CheckRestored, hooks: cfg.Hooks}
	if err := s.removeLeftovers(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Service) removeLeftovers() error {
	var leftovers []string
	for _, pattern := range []string{archive.SpoolPattern, IndexPattern} {
		found, err := filepath.Glob(filepath.Join(s.spool, pattern))
		if err != nil {
			return err
		}
		leftovers = append(leftovers, found...)
	}
	for _, f := range leftovers {
		if err := os.Remove(f); err != nil {
			return fmt.Errorf("remove restore upload left behind: %w", err)
		}
	}
	return nil
}

// Restore takes an uploaded ZIP archive into the target (spec 4.3): the
// upload is spooled to a temporary file within the archive caps, every
// entry validated, and then applied in one transaction, so a refusal or a
// crash changes nothing. Refusals are *store.RefusedError or
// *store.DependentsError; archive.ErrTooLarge and archive.ErrInvalid tell a
// bad upload. Close the outcome once it is read.
func (s *Service) Restore(ctx context.Context, user store.User, target RestoreTarget, upload io.Reader, opt RestoreOptions) (RestoreOutcome, error) {
	if err := os.MkdirAll(s.spool, 0o700); err != nil {
		return RestoreOutcome{}, err
	}
	idx := newRestoreIndex(s.spool, s.hooks.EntriesOnDisk)
	a, err := archive.Read(upload, s.spool, s.limits, idx)
	if err != nil {
		idx.Close()
		return RestoreOutcome{}, err
	}
	out, err := RestoreOutcome{}, idx.Link(a)
	if err == nil {
		out, err = s.apply(ctx, user, target, idx, opt)
	}
	if err != nil {
		a.Close()
		idx.Close()
		return RestoreOutcome{}, err
	}
	out.closers = []io.Closer{a, idx}
	return out, nil
}
