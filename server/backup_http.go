package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log"
	"math"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
)

// registerBackupRoutes adds the backup and restore endpoints (spec 4.2, 4.3).
func (s *Server) registerBackupRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+foldersPath+"{ref}/backup", s.backupFolder)
	mux.HandleFunc("POST "+foldersPath+"{ref}/backup", s.backupFiles)
	mux.HandleFunc("PUT "+foldersPath+"{ref}/restore", s.restore)
}

// beforeRestoreCommit, when set (by a test), runs inside the restore's
// transaction after every change and before the commit.
var beforeRestoreCommit func()

// flagSet reads query flags sent without values (`?overwrite&includeOwner`).
// A name outside allowed is refused, so a misspelt flag is not ignored, and
// so is a value other than "true": `?overwrite=false` must not overwrite.
func flagSet(r *http.Request, allowed []string) (map[string]bool, error) {
	query := r.URL.Query()
	for name := range query {
		if !slices.Contains(allowed, name) {
			return nil, fmt.Errorf("unknown flag %q; this operation takes %s", name, strings.Join(allowed, ", "))
		}
	}
	set := map[string]bool{}
	for name, values := range query {
		for _, v := range values {
			if v != "" && v != "true" {
				return nil, fmt.Errorf("flag %s=%s: flags take no value; send ?%s to set it, leave it out otherwise", name, v, name)
			}
		}
		set[name] = true
	}
	return set, nil
}

// backupPlan is what a backup writes: folders and files below the folder
// backed up, by path, each with its path inside the archive.
type backupPlan struct {
	folder  store.File
	files   []store.File
	sources map[int64][]store.File // by file id, as store.SourcesBelow gives them
	flags   map[string]bool
	// hidden are the sources the user may not see, which the archive names
	// by UUID alone (ignoreMissingDependencies keeps files reading from them).
	hidden map[int64]bool
}

func (s *Server) backupFolder(w http.ResponseWriter, r *http.Request) {
	plan, ok := s.planBackup(w, r, nil)
	if ok {
		s.writeBackup(w, r, plan)
	}
}

func (s *Server) backupFiles(w http.ResponseWriter, r *http.Request) {
	var sel model.BackupSelection
	if !s.decodeJSON(w, r, &sel) {
		return
	}
	if len(sel.IDs) == 0 {
		writeFailure(w, http.StatusBadRequest, "ids is empty; name the files to back up")
		return
	}
	plan, ok := s.planBackup(w, r, sel.IDs)
	if ok {
		s.writeBackup(w, r, plan)
	}
}

// planBackup resolves the folder and the files to back up (all the user may
// read below the folder, or the chosen ids with the folders between), and
// applies the dependency rule: a file whose sources are not in the archive
// is an error naming them (409), unless skipFilesWithMissingDependencies
// leaves it out (and whatever reads from it) or ignoreMissingDependencies
// keeps it. On failure it answers and returns false.
func (s *Server) planBackup(w http.ResponseWriter, r *http.Request, ids []any) (backupPlan, bool) {
	flags, err := flagSet(r, model.BackupFlags)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, err.Error())
		return backupPlan{}, false
	}
	folder, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead)
	if !ok {
		return backupPlan{}, false
	}
	if !folder.IsFolder() {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("folder %s: %s is not a folder", r.PathValue("ref"), folder.Path))
		return backupPlan{}, false
	}
	ctx := r.Context()
	vis, err := s.store.NewVisibility(ctx, userFrom(r))
	if err != nil {
		writeError(w, err)
		return backupPlan{}, false
	}
	vis.KnownVisible(folder) // fileFor found it visible
	below, err := s.store.DescendantsOutline(ctx, folder)
	if err != nil {
		writeError(w, err)
		return backupPlan{}, false
	}
	chosen := below
	if ids != nil {
		if chosen, err = s.chooseFiles(r, folder, below, ids); err != nil {
			writeError(w, err)
			return backupPlan{}, false
		}
	}
	plan := backupPlan{folder: folder, flags: flags}
	if plan.files, err = vis.Filter(ctx, chosen); err != nil {
		writeError(w, err)
		return backupPlan{}, false
	}
	sources, err := s.store.SourcesBelow(ctx, folder)
	if err != nil {
		writeError(w, err)
		return backupPlan{}, false
	}
	plan.sources = sources
	if err := plan.applyDependencyRule(ctx, vis); err != nil {
		writeArchiveError(w, err)
		return backupPlan{}, false
	}
	if plan.hidden, err = hiddenSources(ctx, vis, plan.files, sources); err != nil {
		writeError(w, err)
		return backupPlan{}, false
	}
	return plan, true
}

// hiddenSources returns the sources of files that vis's user may not see.
func hiddenSources(ctx context.Context, vis *store.Visibility, files []store.File, sources map[int64][]store.File) (map[int64]bool, error) {
	hidden := map[int64]bool{}
	for _, f := range files {
		for _, src := range sources[f.ID] {
			if _, judged := hidden[src.ID]; judged {
				continue
			}
			visible, err := vis.Visible(ctx, src)
			if err != nil {
				return nil, err
			}
			hidden[src.ID] = !visible
		}
	}
	return hidden, nil
}

// maskHiddenLinks names the links to hidden sources by UUID alone, so that a
// read or a backup tells nothing of the names and folders of files the
// user may not see. sources are the configuration's, in link order.
func maskHiddenLinks(cfg *model.Configuration, sources []store.File, hidden map[int64]bool) {
	links := cfg.Links()
	if len(links) != len(sources) {
		return
	}
	masked := false
	for i, src := range sources {
		if hidden[src.ID] {
			links[i], masked = model.SourceRef{UUID: src.UUID}, true
		}
	}
	if masked {
		cfg.SetLinks(links)
	}
}

// chooseFiles returns the chosen files, the folders between them and the
// folder backed up, and everything inside chosen folders, by path. Every id
// must name a file inside the folder.
func (s *Server) chooseFiles(r *http.Request, folder store.File, below []store.File, ids []any) ([]store.File, error) {
	picked := map[string]bool{}
	var pickedFolders []string
	for i, id := range ids {
		var ref string
		switch v := id.(type) {
		case float64:
			if v != math.Trunc(v) || v <= 0 {
				return nil, fmt.Errorf("%w: ids[%d] = %v is not a file id", store.ErrBadInput, i, v)
			}
			ref = strconv.FormatInt(int64(v), 10)
		case string:
			ref = v
		default:
			return nil, fmt.Errorf("%w: ids[%d] is neither a path, a file id nor a UUID", store.ErrBadInput, i)
		}
		f, _, err := s.resolve(r, ref)
		if err != nil {
			return nil, err
		}
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
func (p *backupPlan) applyDependencyRule(ctx context.Context, vis *store.Visibility) error {
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

// writeBackup streams the archive: folders as directories, each file as
// <name>.<extension> with the JSON a read of it returns, and the asked-for
// owners and permissions in archive.MetadataName. Once the first byte is
// sent the status cannot change, so a later failure cuts the answer short
// (the client sees a broken archive, never a wrong but valid one).
func (s *Server) writeBackup(w http.ResponseWriter, r *http.Request, plan backupPlan) {
	name := plan.folder.Name
	if plan.folder.ID == store.RootID {
		name = "root"
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name + ".zip"}))
	w.WriteHeader(http.StatusOK)
	buf := bufio.NewWriterSize(w, 64<<10)
	zw := archive.NewWriter(buf, metaSections(plan.flags))
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel() // a failed write stops the reading ahead
	for batch := range s.prepareBatches(ctx, plan) {
		err := batch.err
		if err == nil {
			err = plan.write(zw, batch)
		}
		if err != nil {
			log.Printf("backup %s: %v", plan.folder.Path, err)
			panic(http.ErrAbortHandler)
		}
	}
	if err := zw.Close(); err != nil {
		log.Printf("backup %s: %v", plan.folder.Path, err)
		panic(http.ErrAbortHandler)
	}
	if err := buf.Flush(); err != nil {
		log.Printf("backup %s: %v", plan.folder.Path, err)
	}
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
func (s *Server) prepareBatches(ctx context.Context, plan backupPlan) <-chan preparedBatch {
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
func (p backupPlan) compress(files []store.Exported) ([]archive.Compressed, error) {
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
					maskHiddenLinks(cfg, p.sources[e.File.ID], p.hidden)
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
func (p backupPlan) relPath(f store.File) string {
	return strings.TrimPrefix(strings.TrimPrefix(f.Path, p.folder.Path), "/")
}

// write adds a prepared batch of files to the archive, in order.
func (p backupPlan) write(zw *archive.Writer, batch preparedBatch) error {
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
func (p backupPlan) fileMeta(e store.Exported) *archive.FileMeta {
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

// restore takes a ZIP upload into a folder (spec 4.3): the upload is spooled
// to a temporary file within the archive caps, every entry validated, and
// then applied in one transaction, so a refusal or a crash changes nothing.
func (s *Server) restore(w http.ResponseWriter, r *http.Request) {
	flags, err := flagSet(r, model.RestoreFlags)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, err.Error())
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || (mt != "application/zip" && mt != "application/x-zip-compressed") {
		writeFailure(w, http.StatusUnsupportedMediaType, fmt.Sprintf("restore takes Content-Type application/zip, not %q", r.Header.Get("Content-Type")))
		return
	}
	limits := s.cfg.ArchiveLimits.WithDefaults()
	if r.ContentLength > limits.MaxUploadBytes {
		writeFailure(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the archive (%d bytes) exceeds %d bytes", r.ContentLength, limits.MaxUploadBytes))
		return
	}
	target, ok := s.restoreTarget(w, r)
	if !ok {
		return
	}
	dir := spoolDir(s.cfg.DataDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		writeError(w, err)
		return
	}
	idx := store.NewRestoreIndex(dir)
	defer idx.Close()
	a, err := archive.Read(r.Body, dir, limits, idx)
	if err != nil {
		writeArchiveError(w, err)
		return
	}
	defer a.Close()
	if err := idx.Link(a); err != nil {
		writeArchiveError(w, err)
		return
	}
	opt := store.RestoreOptions{
		Overwrite:                        flags[model.FlagOverwrite],
		SkipFilesWithMissingDependencies: flags[model.FlagSkipFilesWithMissingDependencies],
		IncludeDataPermissions:           flags[model.FlagIncludeDataPermissions],
		IncludeGroupPermissions:          flags[model.FlagIncludeGroupPermissions],
		IgnoreUnknownGroups:              flags[model.FlagIgnoreUnknownGroups],
		IncludeSharing:                   flags[model.FlagIncludeSharing],
		IncludeOwner:                     flags[model.FlagIncludeOwner],
		SubstituteMissingUser:            flags[model.FlagSubstituteMissingUser],
	}
	out, err := s.store.RestoreArchive(r.Context(), userFrom(r), target, idx, opt, func(tx *store.Tx, out store.RestoreOutcome) error {
		if err := checkFileConnections(r.Context(), tx.Queries, userFrom(r), out.Restored()); err != nil {
			return err
		}
		if beforeRestoreCommit != nil {
			beforeRestoreCommit()
		}
		return nil
	})
	var dependents *store.DependentsError
	switch {
	case errors.As(err, &dependents): // named only as far as the uploader may see them
		s.refuseDependents(w, r, dependents)
		return
	case err != nil:
		writeArchiveError(w, err)
		return
	}
	writeRestoreOutcome(w, out)
}

// writeRestoreOutcome answers a restore that succeeded with what it made
// of each entry, a model.RestoreResult, written as its lists are read from
// the restore's index: a restore of many files does not hold its answer.
// The restore is committed by then; should the index no longer read, the
// answer is cut off, so that the client sees an error and not a list
// with files left out.
func writeRestoreOutcome(w http.ResponseWriter, out store.RestoreOutcome) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString(`{"status":` + strconv.Quote(model.StatusSuccess))
	writeJSONList(bw, "restored", out.Restored())
	writeJSONList(bw, "skipped", out.Skipped())
	if kept := out.KeptHidden(); len(kept) > 0 {
		writeJSONList(bw, "keptHiddenProperties", slices.Values(kept))
	}
	bw.WriteByte('}')
	if err := out.Err(); err != nil {
		log.Printf("restore answer: %v", err)
		panic(http.ErrAbortHandler)
	}
	bw.Flush()
}

// writeJSONList writes `,"name":[items]`, each item as json.Marshal writes it.
func writeJSONList[T any](bw *bufio.Writer, name string, items iter.Seq[T]) {
	bw.WriteString(`,"` + name + `":[`)
	first := true
	for item := range items {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		text, _ := json.Marshal(item) // strings and model.SkippedFile: no error
		bw.Write(text)
	}
	bw.WriteByte(']')
}

// spoolDir is where restore uploads wait, as temporary files, to be applied.
func spoolDir(dataDir string) string { return filepath.Join(dataDir, "tmp") }

// removeSpoolLeftovers deletes the uploads and the indexes of their
// entries a server killed during a restore left behind (up to the upload
// cap each); no restore runs before New returns.
func removeSpoolLeftovers(dataDir string) error {
	var leftovers []string
	for _, pattern := range []string{archive.SpoolPattern, store.RestoreIndexPattern} {
		found, err := filepath.Glob(filepath.Join(spoolDir(dataDir), pattern))
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

// restoreTarget resolves the folder to restore into. A path that does not
// exist is returned to be created (spec 4.3 rule 4), with "+" read as a
// space (spec section 1); an id or UUID must name
// a folder the user sees. On failure it answers and returns false.
func (s *Server) restoreTarget(w http.ResponseWriter, r *http.Request) (store.RestoreTarget, bool) {
	ref := r.PathValue("ref")
	f, _, err := s.resolve(r, ref)
	switch {
	case err == nil && !f.IsFolder():
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("restore target %s is not a folder", f.Path))
		return store.RestoreTarget{}, false
	case err == nil:
		return store.RestoreTarget{Folder: f}, true
	case errors.Is(err, store.ErrNotFound) && isPathRef(ref):
		// "+" is a space, as lookupRef reads it: %2FPlus+Folder makes "Plus Folder".
		path := strings.ReplaceAll(ref, "+", " ")
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		return store.RestoreTarget{Path: path}, true
	}
	writeError(w, err)
	return store.RestoreTarget{}, false
}

// writeArchiveError answers a refused restore or backup: 413 past a cap,
// 400 a bad archive, 403 missing write permission, 409 an archive that does
// not fit the target (with the paths), else as writeError.
func writeArchiveError(w http.ResponseWriter, err error) {
	var refused *store.RefusedError
	switch {
	case errors.Is(err, archive.ErrTooLarge):
		writeFailure(w, http.StatusRequestEntityTooLarge, err.Error())
	case errors.Is(err, archive.ErrInvalid):
		writeFailure(w, http.StatusBadRequest, err.Error())
	case errors.As(err, &refused):
		code := http.StatusConflict
		switch {
		case errors.Is(err, store.ErrForbidden):
			code = http.StatusForbidden
		case errors.Is(err, store.ErrBadInput):
			code = http.StatusBadRequest
		}
		writeJSON(w, code, model.Failure{Status: model.StatusFailure, Reason: refused.Reason, Paths: refused.Paths})
	default:
		writeError(w, err)
	}
}
