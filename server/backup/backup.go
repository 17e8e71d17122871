package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
)

// Plan is what a backup writes: folders and files below the folder
// backed up, by path, each with its path inside the archive.
type Plan struct {
	folder  store.File
	files   []store.File
	sources map[int64][]store.File // by file id, as store.SourcesBelow gives them
	flags   map[string]bool
	// hidden are the sources the user may not see, which the archive names
	// by UUID alone (ignoreMissingDependencies keeps files reading from them).
	hidden map[int64]bool
}

// PlanBackup resolves the files to back up (all the user may read below
// the folder, or with chosen, those files with the folders between), and
// applies the dependency rule: a file whose sources are not in the archive
// is an error naming them (*store.RefusedError, 409), unless
// skipFilesWithMissingDependencies leaves it out (and whatever reads from
// it) or ignoreMissingDependencies keeps it. The folder is one the user
// may read; flags are the backup's (model.BackupFlags) that were set.
func (s *Service) PlanBackup(ctx context.Context, user store.User, folder store.File, chosen []store.File, flags map[string]bool) (Plan, error) {
	vis, err := s.store.NewVisibility(ctx, user)
	if err != nil {
		return Plan{}, err
	}
	vis.KnownVisible(folder) // the caller found it visible
	below, err := s.store.DescendantsOutline(ctx, folder)
	if err != nil {
		return Plan{}, err
	}
	if chosen != nil {
		if below, err = choose(folder, below, chosen); err != nil {
			return Plan{}, err
		}
	}
	plan := Plan{folder: folder, flags: flags}
	if plan.files, err = vis.Filter(ctx, below); err != nil {
		return Plan{}, err
	}
	if plan.sources, err = s.store.SourcesBelow(ctx, folder); err != nil {
		return Plan{}, err
	}
	if err := plan.applyDependencyRule(ctx, vis); err != nil {
		return Plan{}, err
	}
	if plan.hidden, err = vis.HiddenSources(ctx, plan.files, plan.sources); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// Name is the archive's file name: the folder's, "root" for the root.
func (p Plan) Name() string {
	if p.folder.ID == store.RootID {
		return "root.zip"
	}
	return p.folder.Name + ".zip"
}

// choose returns the chosen files, the folders between them and the
// folder backed up, and everything inside chosen folders, by path. Every
// chosen file must lie inside the folder.
func choose(folder store.File, below, chosen []store.File) ([]store.File, error) {
	picked := map[string]bool{}
	var pickedFolders []string
	for i, f := range chosen {
		if !isBelow(f.Path, folder.Path) {
			return nil, fmt.Errorf("%w: ids[%d] = %s is not inside %s", store.ErrBadInput, i, f.Path, folder.Path)
		}
		picked[f.Path] = true
		for p := store.ParentPath(f.Path); p != folder.Path && p != "/"; p = store.ParentPath(p) {
			picked[p] = true
		}
		if f.IsFolder() {
			pickedFolders = append(pickedFolders, f.Path)
		}
	}
	var out []store.File
	for _, f := range below {
		keep := picked[f.Path]
		for _, p := range pickedFolders {
			keep = keep || isBelow(f.Path, p)
		}
		if keep {
			out = append(out, f)
		}
	}
	return out, nil
}

// isBelow reports whether path lies strictly inside folder.
func isBelow(path, folder string) bool {
	if folder == "/" {
		return path != "/"
	}
	return strings.HasPrefix(path, folder+"/")
}

// applyDependencyRule enforces the backup rule of spec 4.2 on the plan: a
// file's sources must lie within the folder backed up, and be readable by
// the user. A backup of chosen files (POST) is judged against the folder
// too, not the selection: a source in the folder that was not chosen is
// within it.
func (p *Plan) applyDependencyRule(ctx context.Context, vis *store.Visibility) error {
	inArchive := map[int64]bool{}
	for _, f := range p.files {
		inArchive[f.ID] = true
	}
	leftOut := map[int64]bool{} // by skipFilesWithMissingDependencies
	within := func(src store.File) (bool, error) {
		switch {
		case leftOut[src.ID] || !isBelow(src.Path, p.folder.Path):
			return false, nil
		case inArchive[src.ID]:
			return true, nil
		}
		return vis.Visible(ctx, src)
	}
	outside := func(f store.File) ([]store.File, error) {
		var out []store.File
		for _, src := range p.sources[f.ID] {
			ok, err := within(src)
			if err != nil {
				return nil, err
			}
			if !ok {
				out = append(out, src)
			}
		}
		return out, nil
	}
	switch {
	case p.flags[model.FlagSkipFilesWithMissingDependencies]:
		for changed := true; changed; { // leaving a file out may strand what reads from it
			changed = false
			kept := p.files[:0]
			for _, f := range p.files {
				out, err := outside(f)
				if err != nil {
					return err
				}
				if len(out) > 0 {
					leftOut[f.ID] = true
					changed = true
					continue
				}
				kept = append(kept, f)
			}
			p.files = kept
		}
		return nil
	case p.flags[model.FlagIgnoreMissingDependencies]:
		return nil
	}
	var dependents, reasons, missing []string
	named := map[string]bool{}
	for _, f := range p.files {
		out, err := outside(f)
		if err != nil {
			return err
		}
		if len(out) > 0 {
			dependents = append(dependents, f.Path)
		}
		for _, src := range out {
			visible, err := vis.Visible(ctx, src)
			if err != nil {
				return err
			}
			if !visible { // named as missing, never by path
				reasons = append(reasons, f.Path+" reads from a file you cannot read")
				continue
			}
			reasons = append(reasons, fmt.Sprintf("%s reads from %s", f.Path, src.Path))
			if !named[src.Path] {
				named[src.Path] = true
				missing = append(missing, src.Path)
			}
		}
	}
	if len(dependents) == 0 {
		return nil
	}
	if len(reasons) > 10 {
		reasons = append(reasons[:10], fmt.Sprintf("and %d more", len(reasons)-10))
	}
	return &store.RefusedError{Err: store.ErrConflict, Paths: missing,
		Reason: fmt.Sprintf("%d file(s) depend on files outside the backup (back up with ignoreMissingDependencies to include them anyway, or skipFilesWithMissingDependencies to leave them out): %s",
			len(dependents), strings.Join(reasons, "; "))}
}

// metaSections are the metadata sections the flags ask for. includeOwner
// records owners and includeSharing the others' flags, as restore reads
// them back (the spec's backup table crosses the two descriptions).
func metaSections(flags map[string]bool) []string {
	var sections []string
	for _, fs := range []struct{ flag, section string }{
		{model.FlagIncludeOwner, archive.SectionOwner},
		{model.FlagIncludeSharing, archive.SectionSharing},
		{model.FlagIncludeGroupPermissions, archive.SectionGroupPermissions},
		{model.FlagIncludeDataPermissions, archive.SectionDataPermissions},
	} {
		if flags[fs.flag] {
			sections = append(sections, fs.section)
		}
	}
	return sections
}

// WriteBackup streams the plan's archive to w: folders as directories,
// each file as <name>.<extension> with the JSON a read of it returns, and
// the asked-for owners and permissions in archive.MetadataName. Reading,
// compressing and writing overlap; an error leaves the archive cut short.
func (s *Service) WriteBackup(ctx context.Context, w io.Writer, plan Plan) error {
	zw := archive.NewWriter(w, metaSections(plan.flags))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a failed write stops the reading ahead
	for batch := range s.prepareBatches(ctx, plan) {
		err := batch.err
		if err == nil {
			err = plan.write(zw, batch)
		}
		if err != nil {
			return err
		}
	}
	return zw.Close()
}

// exportBatch is how many files a backup reads from the store at once; a
// backup holds two batches at most, the one written and the one prepared.
const exportBatch = 250

// preparedBatch is files read from the store, their configurations
// encoded and compressed (compressed[i] for files[i]; folders have none).
type preparedBatch struct {
	files      []store.Exported
	compressed []archive.Compressed
	err        error
}

// prepareBatches reads the plan's files a batch at a time and compresses
// each batch on every core, one batch ahead of the writer, so that reading,
// compressing and sending overlap; the batches come in the plan's order.
func (s *Service) prepareBatches(ctx context.Context, plan Plan) <-chan preparedBatch {
	withGroups := plan.flags[model.FlagIncludeGroupPermissions] || plan.flags[model.FlagIncludeDataPermissions]
	out := make(chan preparedBatch) // unbuffered: one batch prepared ahead, no more
	go func() {
		defer close(out)
		for start := 0; start < len(plan.files); start += exportBatch {
			files, err := s.store.ExportBatch(ctx, plan.files[start:min(start+exportBatch, len(plan.files))], plan.sources, withGroups)
			var compressed []archive.Compressed
			if err == nil {
				compressed, err = plan.compress(files)
			}
			select {
			case out <- preparedBatch{files: files, compressed: compressed, err: err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// compress encodes and compresses the configurations of a batch, on as
// many goroutines as there are cores.
func (p Plan) compress(files []store.Exported) ([]archive.Compressed, error) {
	out := make([]archive.Compressed, len(files))
	errs := make([]error, len(files))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for first := range workers {
		wg.Go(func() {
			for i := first; i < len(files); i += workers {
				e := files[i]
				if !e.HasConfiguration() {
					continue
				}
				body, err := e.Representation(func(cfg *model.Configuration) {
					store.MaskHiddenLinks(cfg, p.sources[e.File.ID], p.hidden)
				})
				if err != nil {
					errs[i] = fmt.Errorf("%s: %w", e.File.Path, err)
					continue
				}
				out[i], errs[i] = archive.Compress(p.relPath(e.File), body)
			}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// relPath is a file's path in the archive: below the folder backed up.
func (p Plan) relPath(f store.File) string {
	return strings.TrimPrefix(strings.TrimPrefix(f.Path, p.folder.Path), "/")
}

// write adds a prepared batch of files to the archive, in order.
func (p Plan) write(zw *archive.Writer, batch preparedBatch) error {
	for i, e := range batch.files {
		meta := p.fileMeta(e)
		if !e.HasConfiguration() {
			if err := zw.AddFolder(p.relPath(e.File), meta); err != nil {
				return err
			}
			continue
		}
		if err := zw.AddCompressed(batch.compressed[i], meta); err != nil {
			return err
		}
	}
	return nil
}

// fileMeta is what the metadata records of a file for the flags given (nil with none).
func (p Plan) fileMeta(e store.Exported) *archive.FileMeta {
	if len(metaSections(p.flags)) == 0 {
		return nil
	}
	f := e.File
	meta := &archive.FileMeta{}
	if p.flags[model.FlagIncludeOwner] {
		meta.Owner = f.Owner
	}
	if p.flags[model.FlagIncludeSharing] {
		others := f.Others
		meta.Others = &others
	}
	if p.flags[model.FlagIncludeGroupPermissions] {
		for _, g := range e.Groups {
			meta.Groups = append(meta.Groups, model.GroupPermission{Name: g.Group.Name, Flags: g.Flags})
		}
	}
	if p.flags[model.FlagIncludeDataPermissions] && f.Kind == model.KindWorkbook {
		meta.Data = &archive.DataPermissions{OthersReadable: f.Others.Readable}
		for _, g := range e.Groups {
			if g.Flags.Readable {
				meta.Data.ReadableGroups = append(meta.Data.ReadableGroups, g.Group.Name)
			}
		}
	}
	return meta
}
