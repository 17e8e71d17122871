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
	// opened holds a slot for each restore whose archive is open: the
	// directory archive/zip keeps (some 250 bytes an entry, within the
	// archive caps) and the restore's pages, so that what restores hold
	// in all is bounded whatever the number of uploads.
	opened chan struct{}
}

// openRestores is how many restores read and apply their archives at once;
// more wait, their uploads spooled to disk. The writes take turns anyway
// (one SQLite writer), and a machine of two cores checks two archives'
// bodies at full speed.
const openRestores = 2

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
	s := &Service{store: st, spool: cfg.SpoolDir, limits: cfg.Limits.WithDefaults(), check: cfg.CheckRestored, hooks: cfg.Hooks,
		opened: make(chan struct{}, openRestores)}
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
// crash changes nothing. At most openRestores restores are past the
// spooling at once; the others wait for one to end (or ctx). Refusals are *store.RefusedError or
// *store.DependentsError; archive.ErrTooLarge and archive.ErrInvalid tell a
// bad upload. Close the outcome once it is read.
func (s *Service) Restore(ctx context.Context, user store.User, target RestoreTarget, upload io.Reader, opt RestoreOptions) (RestoreOutcome, error) {
	if err := os.MkdirAll(s.spool, 0o700); err != nil {
		return RestoreOutcome{}, err
	}
	spooled, err := archive.Spool(upload, s.spool, s.limits)
	if err != nil {
		return RestoreOutcome{}, err
	}
	select {
	case s.opened <- struct{}{}:
	case <-ctx.Done():
		spooled.Close()
		return RestoreOutcome{}, ctx.Err()
	}
	release := closerFunc(func() error { <-s.opened; return nil })
	idx := newRestoreIndex(s.spool, s.hooks.EntriesOnDisk, s.store.AppendStoredForm)
	a, err := spooled.Open(idx)
	if err != nil {
		idx.Close()
		release()
		return RestoreOutcome{}, err
	}
	out, err := RestoreOutcome{}, idx.Link(a)
	if err == nil {
		out, err = s.apply(ctx, user, target, idx, opt)
	}
	if err != nil {
		a.Close()
		idx.Close()
		release()
		return RestoreOutcome{}, err
	}
	out.closers = []io.Closer{a, idx, release}
	return out, nil
}

// closerFunc is a function called as io.Closer.
type closerFunc func() error

func (f closerFunc) Close() error { return f() }
