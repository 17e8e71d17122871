package backup

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
	"github.com/google/uuid"
)

// RestoreOptions are the flags of a restore, spec section 4.3.
type RestoreOptions struct {
	Overwrite                        bool
	SkipFilesWithMissingDependencies bool
	IncludeDataPermissions           bool
	IncludeGroupPermissions          bool
	IgnoreUnknownGroups              bool
	IncludeSharing                   bool
	IncludeOwner                     bool
	SubstituteMissingUser            bool
}

// RestoreTarget is where a restore goes: an existing folder, or (Folder.ID
// 0) a path to create, with the folders above it that are missing.
type RestoreTarget struct {
	Folder store.File
	Path   string
}

// restoreEntry is an archive entry on its way into the tree; its path
// there, the target, is restorer.target's. An entryTable holds them, in
// pages that wait on disk for an archive of many entries.
type restoreEntry struct {
	archive.Entry
	origUUID entryUUID // file.uuid of its representation
	sources  []sourceLink
	existing *existingFile // what the target holds before the restore
	skipped  string
	rights   store.Rights // the uploader's rights on existing
	// uuidShared tells that other entries of the archive have origUUID
	// too; uuidTaken that a file of the tree holds it.
	uuidShared, uuidTaken bool
	// linkedTo tells that other entries read from this one: the restorer
	// keeps the UUID of the file made from it (createdUUID).
	linkedTo bool
	// createdID and createdUUID are the file made from the entry, for the
	// entries that read from it.
	createdID   int64
	createdUUID string
	// formAt and formLen are where the index's forms file holds the
	// entry's representation as stored, made when its body was checked,
	// for a new file without links (formLen 0: none, the body is read
	// again).
	formAt  int64
	formLen int
}

// entryUUID is a representation's file.uuid, lower-cased as the tree keeps
// UUIDs: the 16 bytes of one written the usual way (36 characters, not
// the nil UUID), which a restore of many files keeps without a string
// each, or any other text. The zero value is no UUID.
type entryUUID struct {
	bytes [16]byte
	other *string // nil for the usual ones
}

func newEntryUUID(text string) entryUUID {
	text = strings.ToLower(text)
	if u, err := uuid.Parse(text); err == nil && len(text) == 36 && u != uuid.Nil {
		return entryUUID{bytes: u}
	}
	if text == "" {
		return entryUUID{}
	}
	text = strings.Clone(text)
	return entryUUID{other: &text}
}

func (u entryUUID) usual() bool { return u.other == nil && u.bytes != uuid.Nil }

func (u entryUUID) none() bool { return u == entryUUID{} }

func (u entryUUID) String() string {
	switch {
	case u.usual():
		return uuid.UUID(u.bytes).String()
	case u.none():
		return ""
	}
	return *u.other
}

// existingFile is what the restore needs of the file or folder an entry's
// target holds already; its path is the target, its kind the entry's (a
// folder where the archive has a file, or the reverse, refuses the restore).
type existingFile struct {
	id, parentID, ownerID int64
	uuid                  string
}

// file is the existing file of entry e at target.
func (x *existingFile) file(e *restoreEntry, target string) store.File {
	return store.File{ID: x.id, ParentID: x.parentID, Path: target, Name: target[strings.LastIndexByte(target, '/')+1:],
		Kind: e.Kind, UUID: x.uuid, OwnerID: x.ownerID}
}

// sourceLink is one source of a file: another entry of the archive
// (internal >= 0) or a file already in the tree.
type sourceLink struct {
	ref      model.SourceRef
	internal int
	external store.File
}

type restorer struct {
	q       tree
	root    string // the path of the folder restored into
	user    store.User
	opt     RestoreOptions
	archive *archive.Archive
	entries *entryTable
	index   *restoreIndex // for the stored forms it made
	users   map[string]int64
	groups  map[string]int64
	folders map[string]store.File // folders restored into, by path
	// inherited are the permissions files take from their folder, by folder id.
	inherited map[int64]*store.Permissions
	// newTarget is set when the restore created its target folder: then
	// nothing exists below it, and no path needs looking up.
	newTarget bool
	// keptHidden are the overwritten files whose hidden properties stayed.
	keptHidden []model.SkippedFile
	// vis judges what the uploader may see and do, once per folder.
	vis *store.Visibility
	// claimed are the UUIDs entries share that a file made by the restore
	// took: the others that have it get new ones.
	claimed map[string]bool
}

// restoreIndex is an archive read for a restore: every file's identity and
// sources, decoded while the archive's Open checks the bodies (it is the
// archive.Inspector given to it) and linked by Link, all before the restore
// takes the write lock, so the transaction holds it only for the work that
// needs the tree. A restoreIndex serves one restore.
type restoreIndex struct {
	dir     string // where a database of many entries goes
	onDisk  bool   // every entry kept on disk (Hooks.EntriesOnDisk)
	archive *archive.Archive
	few     archive.Entries // the entries while they are few
	entries *entryTable
	// storedForm makes a body's stored form (store.Queries.AppendStoredForm).
	storedForm func(b, representation []byte) ([]byte, model.FileInfo, bool)
	// forms holds the stored forms Inspect made, for the writes: read
	// from there, a body is not inflated and read a second time (a
	// restore of 10,000 files took a fifth less processor time), and
	// kept on disk, the forms cost no memory. formsEnd is its length,
	// of which formsTail waits to be written, formsTailLen at a time: a
	// write each took a fiftieth of a restore's processor time.
	forms     *os.File
	formsEnd  int64
	formsTail []byte
	mu        sync.Mutex // Inspect runs on several goroutines
}

// formsTailLen is how many bytes of stored forms are written to the forms
// file at once.
const formsTailLen = 256 << 10

// apply puts an indexed archive's folders and files under the target, as
// spec 4.3 says, with user as the uploader, in one transaction of its own:
// on any error nothing it did stays. Refusals are *store.RefusedError
// (conflicts, unknown owners or groups, missing dependencies, missing write
// permission) or *store.DependentsError (overwriting a file others read
// from). The service's CheckRestored judges what it made before the
// commit. It holds the write lock only for the writes when it can: for a target folder that
// exists, the checks (which entries exist, the uploader's rights, sources,
// dependents, owners) read the tree before the transaction
// (store.CheckedWrite); if another connection committed before the write
// lock was taken, the checks run again under the lock, so no change slips
// between check and write.
func (s *Service) apply(ctx context.Context, user store.User, target RestoreTarget, idx *restoreIndex, opt RestoreOptions) (RestoreOutcome, error) {
	var early, r *restorer
	var root store.File
	var checkErr error
	var checkEarly func(q store.Queries)
	if target.Folder.ID != 0 { // a target to create is a write: its checks wait for the lock
		checkEarly = func(q store.Queries) {
			early = newRestorer(ctx, q, user, opt, idx)
			root, checkErr = early.check(ctx, target)
			s.hooks.checked(false)
		}
	}
	held, err := s.store.CheckedWrite(ctx, checkEarly, func(tx *store.Tx, changed bool) error {
		r = early
		if changed {
			if early != nil {
				forgetFindings(idx.entries)
			}
			r = newRestorer(ctx, tx.Queries, user, opt, idx)
			root, checkErr = r.check(ctx, target)
			s.hooks.checked(true)
		} else {
			r.q = tx.Queries // what the checks found holds: nothing was committed since
		}
		if checkErr != nil {
			return checkErr
		}
		if err := r.create(ctx, root); err != nil {
			return err
		}
		if err := r.entries.err; err != nil { // a page that did not read or write
			return err
		}
		out := RestoreOutcome{r: r}
		if s.check != nil {
			if err := s.check(ctx, tx.Queries, user, out.Restored()); err != nil {
				return err
			}
		}
		if err := out.Err(); err != nil {
			return err
		}
		if s.hooks.BeforeCommit != nil {
			s.hooks.BeforeCommit()
		}
		return nil
	})
	if err != nil {
		return RestoreOutcome{}, err
	}
	if s.hooks.Committed != nil {
		s.hooks.Committed(held)
	}
	return RestoreOutcome{r: r}, nil
}

// forgetFindings clears what checks wrote into the entries and their
// sources, for checks to run again: the tree changed since.
func forgetFindings(entries *entryTable) {
	for i := range entries.n {
		e := entries.change(i)
		e.existing, e.rights, e.skipped, e.uuidTaken = nil, store.Rights{}, "", false
		for k := range e.sources {
			e.sources[k].external = store.File{}
		}
	}
}

func newRestorer(ctx context.Context, q tree, user store.User, opt RestoreOptions, idx *restoreIndex) *restorer {
	r := &restorer{q: q, user: user, opt: opt, archive: idx.archive, entries: idx.entries, index: idx,
		users: map[string]int64{}, groups: map[string]int64{}, folders: map[string]store.File{},
		inherited: map[int64]*store.Permissions{}, claimed: map[string]bool{}}
	r.vis, _ = q.NewVisibility(ctx, user)
	return r
}

// check finds (or makes) the target folder and runs every check that reads
// the tree, recording in the entries what the writes need.
func (r *restorer) check(ctx context.Context, target RestoreTarget) (store.File, error) {
	root, err := r.targetFolder(ctx, target)
	if err != nil {
		return root, err
	}
	r.root = root.Path
	r.folders[root.Path] = root
	r.vis.KnownVisible(root)
	for _, step := range []func(context.Context, store.File) error{r.resolveSources, r.checkExisting,
		r.resolveOwnersAndGroups, r.checkOwnerChanges, r.checkOverwrites, r.checkUUIDs} {
		if err := step(ctx, root); err != nil {
			return root, err
		}
	}
	return root, r.entries.err
}

// target is where an entry goes in the tree.
func (r *restorer) target(e *restoreEntry) string { return joinPath(r.root, e.Path) }

// RestoreOutcome is what a restore made of each entry of its archive,
// read from the restore's index as it is asked, so that the answer to a
// restore of many files is written without being held: ask it before the
// index is closed.
type RestoreOutcome struct {
	r       *restorer
	closers []io.Closer // the spooled upload and the index
}

// Close removes the spooled upload and the index of its entries.
func (o RestoreOutcome) Close() error {
	var errs []error
	for _, c := range o.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Restored yields the paths the restore made or kept, in the archive's order.
func (o RestoreOutcome) Restored() iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := range o.r.entries.n {
			if e := o.r.entries.at(i); e.skipped == "" && !yield(o.r.target(e)) {
				return
			}
		}
	}
}

// Skipped yields the files the restore left out and why, in the archive's order.
func (o RestoreOutcome) Skipped() iter.Seq[model.SkippedFile] {
	return func(yield func(model.SkippedFile) bool) {
		for i := range o.r.entries.n {
			if e := o.r.entries.at(i); e.skipped != "" && !yield(model.SkippedFile{Path: o.r.target(e), Reason: e.skipped}) {
				return
			}
		}
	}
}

// KeptHidden are the overwritten files whose hidden properties stayed.
func (o RestoreOutcome) KeptHidden() []model.SkippedFile { return o.r.keptHidden }

// Err tells why a part of the index did not read while the outcome was
// read (what it yielded then is not to be trusted).
func (o RestoreOutcome) Err() error { return o.r.entries.err }

// targetFolder returns the folder to restore into, creating it (and the
// folders above it) when it is given by a path that does not exist. The
// user needs write permission on it, or on the folder it is created in.
func (r *restorer) targetFolder(ctx context.Context, target RestoreTarget) (store.File, error) {
	if target.Folder.ID != 0 {
		return target.Folder, r.q.MayWrite(ctx, r.user, target.Folder)
	}
	folder, created, err := r.q.EnsureFolder(ctx, r.user, target.Path)
	r.newTarget = created
	return folder, err
}

// newRestoreIndex returns an index to give the upload's Open; call Link
// with the archive Open returns, and Close when the restore is done. Each body
// is inflated once before the restore, for the checks and the identity
// together, and one in the form a backup writes made into its stored
// form, which waits in a file in dir for the writes; the other bodies are
// read again when the files are created, so the archive is never held in
// memory. An archive of many entries has them kept in a temporary
// database in dir. storedForm is store.Queries.AppendStoredForm. It reads no tree.
func newRestoreIndex(dir string, onDisk bool, storedForm func(b, representation []byte) ([]byte, model.FileInfo, bool)) *restoreIndex {
	return &restoreIndex{dir: dir, onDisk: onDisk, storedForm: storedForm}
}

// Close removes what the index kept on disk.
func (idx *restoreIndex) Close() error {
	var errs []error
	if idx.forms != nil {
		errs = append(errs, idx.forms.Close(), os.Remove(idx.forms.Name()))
	}
	if idx.entries != nil {
		errs = append(errs, idx.entries.close())
	}
	return errors.Join(errs...)
}

// Add keeps an entry of the archive (archive.Inspector): in memory up to
// spillPast of them, then in a database in the index's directory.
func (idx *restoreIndex) Add(e archive.Entry) error {
	if t := idx.entries; t != nil && t.onDisk() {
		t.addToDirectory(e)
		return t.err
	}
	if idx.few = append(idx.few, e); len(idx.few) <= spillPast && !idx.onDisk {
		return nil
	}
	if idx.entries != nil { // made in memory by a Sorted before the folders implied were added
		idx.entries.close()
	}
	t, err := newEntryTable(idx.dir, true, idx.onDisk)
	if idx.entries = t; err != nil {
		return err
	}
	for _, e := range idx.few {
		t.addToDirectory(e)
	}
	idx.few = nil
	return t.err
}

// Sorted numbers the entries by path, as the restore holds them, and calls
// fn with each (archive.Inspector).
func (idx *restoreIndex) Sorted(fn func(e archive.Entry) error) error {
	t := idx.entries
	if t == nil {
		var err error
		if t, err = newEntryTable(idx.dir, false, false); err != nil {
			return err
		}
		idx.entries = t
	}
	t.reset()
	each := func(e archive.Entry) error {
		t.append(e)
		return cmp.Or(t.err, fn(e))
	}
	if t.onDisk() {
		return t.sortedDirectory(each)
	}
	return idx.few.Sorted(each)
}

// Find returns the entry at path (archive.Inspector).
func (idx *restoreIndex) Find(path string) (archive.Entry, bool, error) {
	if t := idx.entries; t != nil && t.onDisk() {
		return t.findInDirectory(path)
	}
	return idx.few.Find(path)
}

// Entry returns entry i (archive.Inspector).
func (idx *restoreIndex) Entry(i int) archive.Entry {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return idx.entries.at(i).Entry
}

// Inspect decodes the identity of a file entry from its body: its UUID, its
// links and where it was backed up (archive.Inspector). A body in the form
// a backup writes is read without decoding it, and made into its stored
// form at once (store.AppendStoredForm), which waits in the index's forms file
// for the writes; one whose secrets are plain is read without decoding it
// too (store.StoredIdentity), as the restore reads it again.
func (idx *restoreIndex) Inspect(i int, body []byte) error {
	idx.mu.Lock()
	entry := idx.entries.at(i).Entry
	idx.mu.Unlock()
	var id entryIdentity
	buf := formBuffers.Get().(*[]byte)
	defer formBuffers.Put(buf)
	form, file, ok := idx.storedForm((*buf)[:0], body)
	*buf = form
	if !ok {
		file, ok = store.StoredIdentity(body)
	}
	if ok { // no links
		id.File.UUID, id.File.Path = file.UUID, file.Path
	} else if err := unmarshalEntry(entry, body, &id); err != nil {
		return err
	}
	origUUID := newEntryUUID(id.File.UUID)
	var sources []sourceLink
	for _, src := range id.links(entry.Kind) {
		sources = append(sources, sourceLink{ref: src, internal: -1})
	}
	// The path it had, for the links that name it by path: its own path
	// must end it, after a folder.
	orig := ""
	if strings.HasSuffix(id.File.Path, "/"+entry.Path) {
		orig = strings.Clone(id.File.Path) // not the body it is part of
	}
	idx.mu.Lock()
	defer idx.mu.Unlock()
	re := idx.entries.change(i)
	re.origUUID, re.sources = origUUID, sources
	re.formAt, re.formLen = idx.formsEnd, len(form)
	idx.formsEnd += int64(len(form))
	idx.formsTail = append(idx.formsTail, form...)
	if len(sources) > 0 {
		idx.entries.linking++
	}
	idx.entries.addIdentity(i, origUUID.String(), orig)
	if len(idx.formsTail) >= formsTailLen {
		idx.writeForms()
	}
	return idx.entries.err
}

// writeForms writes the stored forms that wait to the forms file, making
// it if not made yet; a failure is the entry table's (entryTable.fail).
func (idx *restoreIndex) writeForms() {
	if len(idx.formsTail) == 0 {
		return
	}
	if idx.forms == nil {
		f, err := os.CreateTemp(idx.dir, IndexPattern)
		if err != nil {
			idx.entries.fail(err)
			return
		}
		idx.forms = f
	}
	if _, err := idx.forms.WriteAt(idx.formsTail, idx.formsEnd-int64(len(idx.formsTail))); err != nil {
		idx.entries.fail(err)
	}
	idx.formsTail = idx.formsTail[:0]
}

// formBuffers hold a stored form on its way to the forms file, or back.
var formBuffers = sync.Pool{New: func() any { return new([]byte) }}

// storedFormOf reads back the stored form Inspect made of entry e.
func (idx *restoreIndex) storedFormOf(e *restoreEntry) (*store.StoredConfig, error) {
	buf := formBuffers.Get().(*[]byte)
	defer formBuffers.Put(buf)
	*buf = slices.Grow((*buf)[:0], e.formLen)[:e.formLen]
	if _, err := idx.forms.ReadAt(*buf, e.formAt); err != nil {
		return nil, fmt.Errorf("restore index: %w", err)
	}
	return store.StoredFormOf(*buf)
}

// Link takes the archive Read made with the index, and finds the entry
// each link of its files names, by UUID or by the path it had: of several,
// the last in the archive.
func (idx *restoreIndex) Link(a *archive.Archive) error {
	idx.archive, idx.few = a, nil
	idx.writeForms()
	t := idx.entries
	t.indexIdentities()
	t.eachSharingUUID(func(i int) { t.change(i).uuidShared = true })
	// Entries read from are marked after, in order: marking each as its
	// link is found would load their pages in no order.
	if t.linking == 0 {
		return t.err
	}
	var linked []int32
	for i := range t.n {
		e := t.at(i)
		for k := range e.sources {
			link := &e.sources[k]
			target := -1
			if id := newEntryUUID(link.ref.UUID); !id.none() {
				target = t.lastWith("uuid", id.String())
			}
			if target < 0 && link.ref.Path != "" {
				target = t.lastWith("orig", link.ref.Path)
			}
			if target >= 0 {
				t.change(i).sources[k].internal = target
				linked = append(linked, int32(target))
			}
		}
	}
	slices.Sort(linked)
	for _, i := range linked {
		t.change(int(i)).linkedTo = true
	}
	return t.err
}

// entryIdentity is what a restoreIndex needs of a representation: its identity and
// its links. Decoding only this skips the properties and the fields kept
// verbatim, which createFile decodes when it needs them.
type entryIdentity struct {
	File struct {
		UUID string `json:"uuid"`
		Path string `json:"path"`
	} `json:"file"`
	DataStore  *model.SourceRef      `json:"dataStore"`
	Connection *model.ConnectionPath `json:"connection"`
	Sheet      *struct {
		Workbook *model.PathRef `json:"workbook"`
	} `json:"sheet"`
	Sheets []struct {
		Datasource      *model.SourceRef `json:"datasource"`
		ReferencedSheet *struct {
			Workbook *model.SourceRef `json:"workbook"`
		} `json:"referencedSheet"`
	} `json:"sheets"`
	Sources []model.SourceRef `json:"sources"` // archives of earlier versions
}

// links are the entry's links in the order model.Configuration.Links gives them.
func (id entryIdentity) links(kind model.Kind) []model.SourceRef {
	cfg := model.Configuration{DataStore: id.DataStore, Connection: id.Connection, Sources: id.Sources}
	if id.Sheet != nil {
		cfg.Sheet = &model.ExportSheet{Workbook: id.Sheet.Workbook}
	}
	for _, sheet := range id.Sheets {
		s := model.Sheet{Datasource: sheet.Datasource}
		if sheet.ReferencedSheet != nil {
			s.ReferencedSheet = &model.ReferencedSheet{Workbook: sheet.ReferencedSheet.Workbook}
		}
		cfg.Sheets = append(cfg.Sheets, s)
	}
	cfg.AdoptSources(kind)
	return cfg.Links()
}

// readEntry reads an entry's body.
func readEntry(a *archive.Archive, e archive.Entry) ([]byte, error) {
	body, err := a.ReadFile(e)
	if err != nil {
		return nil, &store.RefusedError{Err: store.ErrBadInput, Reason: err.Error(), Paths: []string{e.Path}}
	}
	return body, nil
}

// unmarshalEntry decodes an entry's JSON body into into.
func unmarshalEntry(e archive.Entry, body []byte, into any) error {
	if err := json.Unmarshal(body, into); err != nil {
		return &store.RefusedError{Err: store.ErrBadInput,
			Reason: fmt.Sprintf("entry %s is not a configuration's JSON: %v", e.Path, err), Paths: []string{e.Path}}
	}
	return nil
}

// checkExisting finds what the target paths hold: folders are reused,
// files conflict unless overwrite is given, a folder where a file is (or
// the reverse) always conflicts. Reused folders and overwritten files need
// write permission. A path held by a file the uploader may not see is
// refused as taken, and nothing below it is looked at, so the answer tells
// nothing of what a closed folder holds. Rights are judged once per folder;
// the target paths are looked up existingBatch at a time.
func (r *restorer) checkExisting(ctx context.Context, root store.File) error {
	if r.newTarget {
		return nil
	}
	var conflicts, clashes, forbidden, hidden []string
	closed := map[string]bool{} // targets behind a file the uploader may not see
	var found map[string]store.File
	for k := range r.entries.n {
		if k%existingBatch == 0 {
			var err error
			if found, err = r.filesAtTargets(ctx, k, min(k+existingBatch, r.entries.n)); err != nil {
				return err
			}
		}
		e := r.entries.at(k)
		if e.skipped != "" {
			continue
		}
		target := r.target(e)
		if closed[store.ParentPath(target)] {
			closed[target] = true
			continue
		}
		f, ok := found[target]
		if !ok {
			continue
		}
		visible, err := r.vis.Visible(ctx, f)
		if err != nil {
			return err
		}
		if !visible {
			closed[target] = true
			hidden = append(hidden, target)
			continue
		}
		e = r.entries.change(k)
		e.existing = &existingFile{id: f.ID, parentID: f.ParentID, ownerID: f.OwnerID, uuid: f.UUID}
		switch {
		case f.IsFolder() != e.IsFolder():
			clashes = append(clashes, target)
			continue
		case !f.IsFolder() && !r.opt.Overwrite:
			conflicts = append(conflicts, target)
			continue
		}
		if e.rights, err = r.vis.Rights(ctx, f); err != nil {
			return err
		}
		if !e.rights.Write {
			forbidden = append(forbidden, target)
		}
	}
	switch {
	case len(hidden) > 0:
		return store.TakenByHidden(hidden)
	case len(clashes) > 0:
		return &store.RefusedError{Err: store.ErrConflict, Paths: clashes,
			Reason: fmt.Sprintf("%d path(s) hold a folder where the archive has a file, or the reverse: %s", len(clashes), store.Listed(clashes))}
	case len(conflicts) > 0:
		return &store.RefusedError{Err: store.ErrConflict, Paths: conflicts,
			Reason: fmt.Sprintf("%d file(s) already exist in the target (restore with overwrite to replace them): %s", len(conflicts), store.Listed(conflicts))}
	case len(forbidden) > 0:
		return &store.RefusedError{Err: store.ErrForbidden, Paths: forbidden,
			Reason: fmt.Sprintf("write permission required on %d existing file(s) or folder(s): %s", len(forbidden), store.Listed(forbidden))}
	}
	return nil
}

// existingBatch is how many target paths (or files) one query looks up.
const existingBatch = 500

// checkUUIDs finds the new files whose UUIDs files of the tree hold (a
// copy restored beside its original): those get new UUIDs. It asks
// existingBatch UUIDs at a time.
func (r *restorer) checkUUIDs(ctx context.Context, _ store.File) error {
	var asked []int
	var ids []any
	ask := func() error {
		taken, err := r.q.TakenUUIDs(ctx, ids)
		for k, i := range asked {
			if taken[ids[k].(string)] {
				r.entries.change(i).uuidTaken = true
			}
		}
		asked, ids = asked[:0], ids[:0]
		return err
	}
	for i := range r.entries.n {
		e := r.entries.at(i)
		if e.IsFolder() || e.existing != nil || e.skipped != "" || e.origUUID.none() {
			continue
		}
		asked, ids = append(asked, i), append(ids, e.origUUID.String())
		if len(ids) == existingBatch {
			if err := ask(); err != nil {
				return err
			}
		}
	}
	return ask()
}

// filesAtTargets returns the files the tree holds at the entries' target
// paths, by path, without their descriptions: identity and permissions
// are all the restore needs of them.
func (r *restorer) filesAtTargets(ctx context.Context, from, to int) (map[string]store.File, error) {
	paths := make([]any, 0, to-from)
	for i := from; i < to; i++ {
		if e := r.entries.at(i); e.skipped == "" {
			paths = append(paths, r.target(e))
		}
	}
	return r.q.FilesAtPaths(ctx, paths)
}

// checkOwnerChanges refuses a restore that would give an existing file or
// folder another owner when the uploader could not do that through the
// owner endpoint (only the owner or an administrator may): restore changes
// nothing the permission endpoints would refuse. Groups and sharing need
// write permission, which checkExisting already asked of every existing entry.
func (r *restorer) checkOwnerChanges(ctx context.Context, _ store.File) error {
	if !r.opt.IncludeOwner || !r.archive.Metadata.Includes(archive.SectionOwner) {
		return nil
	}
	var forbidden []string
	for i := range r.entries.n {
		e := r.entries.at(i)
		if e.existing == nil || e.skipped != "" || (e.IsFolder() && !r.opt.Overwrite) {
			continue
		}
		if r.owner(e) != e.existing.ownerID && !e.rights.Own {
			forbidden = append(forbidden, r.target(e))
		}
	}
	if len(forbidden) > 0 {
		return &store.RefusedError{Err: store.ErrForbidden, Paths: forbidden,
			Reason: fmt.Sprintf("only the owner or an administrator may change the owner of %d existing file(s) or folder(s) (restore without includeOwner to keep their owners): %s",
				len(forbidden), store.Listed(forbidden))}
	}
	return nil
}

// resolveSources finds every source outside the archive in the tree (by
// UUID, then by path, among the files the user may see). A file whose
// sources do not resolve is skipped with skipFilesWithMissingDependencies,
// and so is every file that reads from a skipped one; otherwise the restore
// fails naming them.
func (r *restorer) resolveSources(ctx context.Context, _ store.File) error {
	if r.entries.linking == 0 {
		return nil
	}
	var unresolved []string
	var reasons []string
	for i := range r.entries.n {
		for k := range r.entries.at(i).sources {
			e := r.entries.at(i)
			link := e.sources[k]
			if link.internal >= 0 {
				continue
			}
			f, ok, err := r.findSource(ctx, link.ref)
			if err != nil {
				return err
			}
			e = r.entries.change(i)
			if ok {
				e.sources[k].external = f
				continue
			}
			name := link.ref.Path
			if name == "" {
				name = link.ref.UUID
			}
			if e.skipped == "" {
				e.skipped = "source " + name + " cannot be resolved"
				unresolved = append(unresolved, r.target(e))
				reasons = append(reasons, fmt.Sprintf("%s reads from %s", r.target(e), name))
			}
		}
	}
	if len(unresolved) > 0 && !r.opt.SkipFilesWithMissingDependencies {
		return &store.RefusedError{Err: store.ErrConflict, Paths: unresolved,
			Reason: fmt.Sprintf("%d file(s) have dependencies that are neither in the archive nor in the tree (restore with skipFilesWithMissingDependencies to leave them out): %s",
				len(unresolved), store.Listed(reasons))}
	}
	for changed := len(unresolved) > 0; changed; {
		changed = false
		for i := range r.entries.n {
			e := r.entries.at(i)
			if e.skipped != "" {
				continue
			}
			for _, link := range e.sources {
				if link.internal < 0 {
					continue
				}
				if src := r.entries.at(link.internal); src.skipped != "" {
					reason := "depends on skipped " + r.target(src)
					r.entries.change(i).skipped = reason
					changed = true
					break
				}
			}
		}
	}
	return nil
}

func (r *restorer) findSource(ctx context.Context, ref model.SourceRef) (store.File, bool, error) {
	for _, try := range []model.SourceRef{{UUID: ref.UUID}, {Path: ref.Path}} {
		if try == (model.SourceRef{}) {
			continue
		}
		f, err := r.q.ResolveSource(ctx, try)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return store.File{}, false, err
		}
		if visible, err := r.vis.Visible(ctx, f); err != nil || !visible {
			return store.File{}, false, err
		}
		return f, true, nil
	}
	return store.File{}, false, nil
}

// resolveOwnersAndGroups looks up the users and groups the metadata names,
// for the flags that use them: an unknown owner aborts unless
// substituteMissingUser (then the uploader owns the file); an unknown group
// fails unless ignoreUnknownGroups (then its entry is dropped).
func (r *restorer) resolveOwnersAndGroups(ctx context.Context, _ store.File) error {
	m := r.archive.Metadata
	useOwners := r.opt.IncludeOwner && m.Includes(archive.SectionOwner)
	useGroups := r.opt.IncludeGroupPermissions && m.Includes(archive.SectionGroupPermissions)
	useData := r.opt.IncludeDataPermissions && m.Includes(archive.SectionDataPermissions)
	if !useOwners && !useGroups && !useData {
		return nil
	}
	unknownUsers, unknownGroups := map[string]bool{}, map[string]bool{}
	var userPaths, groupPaths []string
	for i := range r.entries.n {
		e := r.entries.at(i)
		if e.skipped != "" {
			continue
		}
		meta := r.meta(e)
		if useOwners && meta.Owner != "" {
			known, err := r.knownUser(ctx, meta.Owner)
			if err != nil {
				return err
			}
			if !known && !r.opt.SubstituteMissingUser {
				unknownUsers[meta.Owner] = true
				userPaths = append(userPaths, r.target(e))
			}
		}
		var names []string
		if useGroups {
			for _, g := range meta.Groups {
				names = append(names, g.Name)
			}
		}
		if useData && e.Kind == model.KindWorkbook && meta.Data != nil {
			names = append(names, meta.Data.ReadableGroups...)
		}
		missing := false
		for _, name := range names {
			known, err := r.knownGroup(ctx, name)
			if err != nil {
				return err
			}
			if !known && !r.opt.IgnoreUnknownGroups {
				unknownGroups[name] = true
				missing = true
			}
		}
		if missing {
			groupPaths = append(groupPaths, r.target(e))
		}
	}
	if len(unknownUsers) > 0 {
		return &store.RefusedError{Err: store.ErrConflict, Paths: userPaths,
			Reason: fmt.Sprintf("unknown owner(s) %s (restore with substituteMissingUser to own those files yourself)", store.Listed(sortedKeys(unknownUsers)))}
	}
	if len(unknownGroups) > 0 {
		return &store.RefusedError{Err: store.ErrConflict, Paths: groupPaths,
			Reason: fmt.Sprintf("unknown group(s) %s (restore with ignoreUnknownGroups to leave them out)", store.Listed(sortedKeys(unknownGroups)))}
	}
	return nil
}

func (r *restorer) knownUser(ctx context.Context, name string) (bool, error) {
	if _, ok := r.users[name]; ok {
		return true, nil
	}
	if name == store.SystemOwner {
		r.users[name] = 0
		return true, nil
	}
	u, err := r.q.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	r.users[name] = u.ID
	return true, nil
}

func (r *restorer) knownGroup(ctx context.Context, name string) (bool, error) {
	if _, ok := r.groups[name]; ok {
		return true, nil
	}
	g, err := r.q.GroupByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	r.groups[name] = g.ID
	return true, nil
}

// checkOverwrites refuses to overwrite a file others read from (spec 4.3:
// configurations with downstream dependencies cannot be overwritten), even
// when those others are in the archive too: the restore fails naming them.
// Which files have dependents is asked existingBatch files at a time.
func (r *restorer) checkOverwrites(ctx context.Context, _ store.File) error {
	if r.newTarget {
		return nil
	}
	overwritten := func(e *restoreEntry) bool { return e.existing != nil && !e.IsFolder() && e.skipped == "" }
	var read map[int64]bool
	for k := range r.entries.n {
		if k%existingBatch == 0 {
			var ids []any
			for i := k; i < min(k+existingBatch, r.entries.n); i++ {
				if e := r.entries.at(i); overwritten(e) {
					ids = append(ids, e.existing.id)
				}
			}
			var err error
			if read, err = r.q.ReadFrom(ctx, ids); err != nil {
				return err
			}
		}
		e := r.entries.at(k)
		if !overwritten(e) || !read[e.existing.id] {
			continue
		}
		dependents, err := r.q.Dependents(ctx, e.existing.id)
		if err != nil {
			return err
		}
		if len(dependents) > 0 {
			blocked := &store.DependentsError{Path: r.target(e)}
			for _, d := range dependents {
				blocked.Paths = append(blocked.Paths, d.Path)
			}
			return blocked
		}
	}
	return nil
}

// create makes the folders, then the files with every source created before
// the files that read from it.
func (r *restorer) create(ctx context.Context, root store.File) error {
	order, created, err := r.createFolders(ctx)
	if err != nil {
		return err
	}
	// The new files' configuration ids, taken at once.
	var configID int64
	if created > 0 {
		if configID, err = r.q.ReserveConfigIDs(ctx, created); err != nil {
			return fmt.Errorf("restore: %w", err)
		}
	}
	decoding := r.decodeAhead(order)
	defer decoding.stop()
	batch := r.q.NewFileBatch()
	for k, i := range order {
		if err := ctx.Err(); err != nil { // the request ended
			return err
		}
		d := decoding.next(k)
		if d.err != nil {
			return d.err
		}
		if r.entries.at(int(i)).existing != nil {
			// The overwrite looks up the files it reads from, which may be queued.
			if err = batch.Flush(ctx); err == nil {
				err = r.overwriteFile(ctx, int(i), d.cfg)
			}
		} else {
			err = r.createFile(ctx, int(i), d, configID, batch)
			configID++
		}
		if err != nil {
			return err
		}
	}
	if err := batch.Flush(ctx); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// createFolders makes the folders, and lists the files to make, each
// after the entries it reads from, in one pass over the entries; created
// is how many of those files are new (the others it overwrites). A file
// that reads from itself through its sources refuses the restore.
func (r *restorer) createFolders(ctx context.Context) (order []int32, created int, err error) {
	state := make([]int8, r.entries.n) // 0 new, 1 being visited, 2 placed
	var visit func(i int) error
	visit = func(i int) error {
		e := r.entries.at(i) // only read, also once other pages were loaded
		switch {
		case state[i] == 2 || e.skipped != "" || e.IsFolder():
			return nil
		case state[i] == 1:
			return &store.RefusedError{Err: store.ErrBadInput, Paths: []string{e.Path}, Reason: fmt.Sprintf("entry %s reads from itself through its sources", e.Path)}
		}
		state[i] = 1
		if e.existing == nil {
			created++
		}
		for _, link := range e.sources {
			if link.internal >= 0 {
				if err := visit(link.internal); err != nil {
					return err
				}
			}
		}
		order = append(order, int32(i))
		state[i] = 2
		return nil
	}
	for i := range r.entries.n {
		if e := r.entries.at(i); e.IsFolder() {
			err = r.createFolder(ctx, e)
		} else {
			err = visit(i)
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return order, created, nil
}

// decodedEntry is an entry's representation, or why it could not be read;
// for a new file whose sources all lie outside the archive, also the
// representation as stored, made on the decoding core.
type decodedEntry struct {
	cfg    model.Configuration
	stored *store.StoredConfig
	err    error
}

// decodeAheadWindow is how many entries are inflated and decoded ahead of
// the one being written.
const decodeAheadWindow = 64

// aheadDecoding inflates and decodes the entries of a creation order on
// the other cores while the single SQLite writer makes the files. The
// writer hands each decoder a copy of its entry (the entry table is the
// writer's alone), decodeAheadWindow entries ahead of the one it writes.
// The decoders are one goroutine per core, kept for the whole restore: a
// goroutine per entry grew a new stack for the inflater every time.
type aheadDecoding struct {
	r       *restorer
	order   []int32
	jobs    chan decodeJob
	results [decodeAheadWindow]chan decodedEntry // of order[k], at k % decodeAheadWindow
}

type decodeJob struct {
	entry restoreEntry
	done  chan decodedEntry
}

func (r *restorer) decodeAhead(order []int32) *aheadDecoding {
	a := &aheadDecoding{r: r, order: order, jobs: make(chan decodeJob, decodeAheadWindow)}
	for slot := range a.results {
		a.results[slot] = make(chan decodedEntry, 1)
	}
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for j := range a.jobs {
				j.done <- r.decode(&j.entry)
			}
		}()
	}
	for k := range min(decodeAheadWindow, len(order)) {
		a.start(k)
	}
	return a
}

// start hands order[k] to a decoder; never more than decodeAheadWindow
// are handed and not taken, so it does not wait. Its result goes to the
// slot's channel, which next has emptied (a channel an entry was garbage
// the size of a decoded configuration).
func (a *aheadDecoding) start(k int) {
	a.jobs <- decodeJob{entry: *a.r.entries.at(int(a.order[k])), done: a.results[k%decodeAheadWindow]}
}

// next waits for order[k] decoded (each k in turn), and starts the one
// decodeAheadWindow further.
func (a *aheadDecoding) next(k int) decodedEntry {
	d := <-a.results[k%decodeAheadWindow]
	if k+decodeAheadWindow < len(a.order) {
		a.start(k + decodeAheadWindow)
	}
	return d
}

// stop ends the decoders once they finish what they were handed.
func (a *aheadDecoding) stop() { close(a.jobs) }

// decode reads an entry's representation and, when the entry is a new
// file whose sources are all files the tree holds already, encodes it as
// stored: that needs nothing the writer makes. A new file without links
// whose body is in the form a backup writes has its stored form read back
// from the index's forms file, its body not read again. It runs on the
// decoders: e is a copy.
func (r *restorer) decode(e *restoreEntry) decodedEntry {
	var d decodedEntry
	if e.existing == nil && len(e.sources) == 0 && e.formLen > 0 {
		d.stored, d.err = r.index.storedFormOf(e)
		return d
	}
	body, err := readEntry(r.archive, e.Entry)
	if err != nil {
		d.err = err
		return d
	}
	if d.err = unmarshalEntry(e.Entry, body, &d.cfg); d.err != nil || e.existing != nil {
		return d
	}
	for _, link := range e.sources {
		if link.internal >= 0 {
			return d
		}
	}
	d.stored, d.err = r.encode(e, d.cfg)
	return d
}

// encode checks a new file's representation and encodes it as stored, its
// links naming the files it reads from: those of the archive as this
// restore made them, the others as the checks found them.
func (r *restorer) encode(e *restoreEntry, cfg model.Configuration) (*store.StoredConfig, error) {
	sources := make([]store.File, len(e.sources))
	for k, link := range e.sources {
		if link.internal >= 0 {
			src := r.entries.at(link.internal)
			sources[k] = store.File{ID: src.createdID, Path: r.target(src), UUID: src.createdUUID, Kind: src.Kind}
		} else {
			sources[k] = link.external
		}
	}
	stored, err := r.q.EncodeConfig(cfg, e.Kind, sources)
	if err != nil {
		return nil, r.refuseEntry(e, fmt.Errorf("create %q: %w", r.target(e), err))
	}
	return stored, nil
}

// refuseEntry turns a bad input in an entry into a refusal that names it.
func (r *restorer) refuseEntry(e *restoreEntry, err error) error {
	if errors.Is(err, store.ErrBadInput) {
		return &store.RefusedError{Err: store.ErrBadInput, Paths: []string{e.Path}, Reason: fmt.Sprintf("entry %s: %v", e.Path, err)}
	}
	return fmt.Errorf("restore %s: %w", r.target(e), err)
}

func (r *restorer) createFolder(ctx context.Context, e *restoreEntry) error {
	target := r.target(e)
	parent := r.folders[store.ParentPath(target)] // folders come before their contents
	perms, err := r.permissions(ctx, parent.ID, e)
	if err != nil {
		return err
	}
	if e.existing == nil {
		folder, err := r.q.CreateFile(ctx, store.NewFile{Path: target, OwnerID: r.owner(e), Permissions: perms})
		if err != nil {
			return fmt.Errorf("restore %s: %w", target, err)
		}
		r.folders[target] = folder
		return nil
	}
	// A folder that exists is kept; overwrite takes its recorded owner and permissions.
	folder := e.existing.file(e, target)
	r.folders[target] = folder
	if !r.opt.Overwrite {
		return nil
	}
	return r.applyRecorded(ctx, e, folder)
}

// createFile queues a new file of entry i in batch, with the
// configuration id given.
func (r *restorer) createFile(ctx context.Context, i int, d decodedEntry, configID int64, batch *store.FileBatch) error {
	e := *r.entries.at(i) // a copy: encode loads the pages of its sources
	stored := d.stored
	if stored == nil { // its sources are files of the archive, made by now
		var err error
		if stored, err = r.encode(&e, d.cfg); err != nil {
			return err
		}
	}
	target := r.target(&e)
	parent := r.folders[store.ParentPath(target)]
	perms, err := r.permissions(ctx, parent.ID, &e)
	if err == nil && perms == nil {
		perms, err = r.inheritedFrom(ctx, parent.ID)
	}
	if err != nil {
		return err
	}
	nf := store.NewFile{Path: target, OwnerID: r.owner(&e), UUID: r.uuidFor(&e), Config: &d.cfg, Permissions: perms, Parent: &parent}
	row, err := r.q.PrepareFile(ctx, nf, stored, configID)
	if err != nil {
		return r.refuseEntry(&e, err)
	}
	id, err := batch.Add(ctx, row)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	r.madeFrom(i, id, row.UUID())
	return nil
}

// madeFrom records the file made from entry i, for the entries that read from it.
func (r *restorer) madeFrom(i int, id int64, uuid string) {
	if e := r.entries.at(i); e.linkedTo {
		e = r.entries.change(i)
		e.createdID, e.createdUUID = id, uuid
	}
}

// uuidFor is the UUID a new file of the entry takes: its own, unless a
// file of the tree holds it (a copy beside the original) or a file this
// restore made took it first; then "", a new one.
func (r *restorer) uuidFor(e *restoreEntry) string {
	id := e.origUUID.String()
	switch {
	case e.uuidTaken || (e.uuidShared && r.claimed[id]):
		return ""
	case e.uuidShared:
		r.claimed[id] = true
	}
	return id
}

// overwriteFile replaces an existing file's representation in place: its
// file id, UUID and configuration id stay (and with them its job history),
// so do its owner and permissions unless a flag restores recorded ones. A
// caller who is not an administrator keeps the file's hidden properties,
// and one who is not its owner either its data permission.
func (r *restorer) overwriteFile(ctx context.Context, i int, cfg model.Configuration) error {
	e := *r.entries.at(i) // a copy: its sources' pages are loaded
	cfg.AdoptSources(e.Kind)
	links := make([]model.SourceRef, len(e.sources))
	for k, link := range e.sources {
		if link.internal >= 0 {
			links[k] = model.SourceRef{UUID: r.entries.at(link.internal).createdUUID}
		} else {
			links[k] = model.SourceRef{UUID: link.external.UUID}
		}
	}
	cfg.SetLinks(links)
	target := r.target(&e)
	f := e.existing.file(&e, target)
	if !r.user.Admin {
		old, err := r.q.Configuration(ctx, f)
		if err != nil {
			return err
		}
		if old.HadoopProperties != cfg.HadoopProperties {
			cfg.HadoopProperties = old.HadoopProperties
			r.keptHidden = append(r.keptHidden, model.SkippedFile{Path: target,
				Reason: "hadoopProperties kept: only an administrator may change hidden properties"})
		}
		if f.OwnerID != r.user.ID && !model.SameMember(old.Extra[model.MemberDataPermission], cfg.Extra[model.MemberDataPermission]) {
			cfg.Extra = maps.Clone(cfg.Extra)
			if cfg.Extra == nil {
				cfg.Extra = map[string]json.RawMessage{}
			}
			if kept, ok := old.Extra[model.MemberDataPermission]; ok {
				cfg.Extra[model.MemberDataPermission] = kept
			} else {
				delete(cfg.Extra, model.MemberDataPermission)
			}
			r.keptHidden = append(r.keptHidden, model.SkippedFile{Path: target,
				Reason: "dataPermission kept: only the workbook's owner or an administrator may change it"})
		}
	}
	if err := r.q.UpdateConfiguration(ctx, f, cfg); err != nil {
		return r.refuseEntry(&e, err)
	}
	if err := r.applyRecorded(ctx, &e, f); err != nil {
		return err
	}
	r.madeFrom(i, f.ID, f.UUID)
	return nil
}

// applyRecorded gives an existing file or folder the owner and permissions
// the archive records, for the flags that ask for them.
func (r *restorer) applyRecorded(ctx context.Context, e *restoreEntry, f store.File) error {
	if r.opt.IncludeOwner && r.archive.Metadata.Includes(archive.SectionOwner) {
		if err := r.q.SetOwner(ctx, f.ID, r.owner(e)); err != nil {
			return err
		}
	}
	perms, err := r.permissions(ctx, f.ParentID, e)
	if err != nil || perms == nil {
		return err
	}
	if err := r.q.SetOthers(ctx, f.ID, perms.Others); err != nil {
		return err
	}
	if err := r.q.ClearGroupPermissions(ctx, f.ID); err != nil {
		return fmt.Errorf("restore %s: %w", f.Path, err)
	}
	for gid, flags := range perms.Groups {
		if err := r.q.CreateGroupPermission(ctx, f.ID, gid, flags); err != nil {
			return err
		}
	}
	return nil
}

// inheritedFrom returns the permissions a new file takes from its folder,
// read once per folder: files are created after every folder is done, so
// none of them changes while files are created in it.
func (r *restorer) inheritedFrom(ctx context.Context, folderID int64) (*store.Permissions, error) {
	if p, ok := r.inherited[folderID]; ok {
		return p, nil
	}
	p, err := r.q.PermissionsOf(ctx, folderID)
	if err != nil {
		return nil, err
	}
	r.inherited[folderID] = p
	return p, nil
}

// meta is what the archive's metadata records of an entry (nothing when
// it has none): looked up, not kept per entry.
func (r *restorer) meta(e *restoreEntry) archive.FileMeta {
	if r.archive.Metadata == nil {
		return archive.FileMeta{}
	}
	return r.archive.Metadata.Files[e.Path]
}

// owner is who owns a restored entry: the uploader, or with includeOwner the
// recorded owner when known (unknown ones were refused or are substituted).
func (r *restorer) owner(e *restoreEntry) int64 {
	if owner := r.meta(e).Owner; r.opt.IncludeOwner && r.archive.Metadata.Includes(archive.SectionOwner) && owner != "" {
		if id, ok := r.users[owner]; ok {
			return id
		}
	}
	return r.user.ID
}

// permissions returns the flags of a restored entry: nil (the parent
// folder's, the default) unless a flag restores recorded ones. includeSharing
// sets others' flags, includeGroupPermissions replaces the group entries,
// includeDataPermissions gives a workbook's recorded readers read access.
func (r *restorer) permissions(ctx context.Context, parentID int64, e *restoreEntry) (*store.Permissions, error) {
	m, meta := r.archive.Metadata, r.meta(e)
	sharing := r.opt.IncludeSharing && m.Includes(archive.SectionSharing) && meta.Others != nil
	groups := r.opt.IncludeGroupPermissions && m.Includes(archive.SectionGroupPermissions)
	data := r.opt.IncludeDataPermissions && m.Includes(archive.SectionDataPermissions) && e.Kind == model.KindWorkbook && meta.Data != nil
	if !sharing && !groups && !data {
		return nil, nil
	}
	p, err := r.q.PermissionsOf(ctx, parentID)
	if err != nil {
		return nil, err
	}
	if sharing {
		p.Others = *meta.Others
	}
	if groups {
		p.Groups = map[int64]model.Flags{}
		for _, g := range meta.Groups {
			if id, ok := r.groups[g.Name]; ok {
				p.Groups[id] = g.Flags
			}
		}
	}
	if data {
		p.Others.Readable = meta.Data.OthersReadable
		for _, name := range meta.Data.ReadableGroups {
			if id, ok := r.groups[name]; ok {
				flags := p.Groups[id]
				flags.Readable = true
				p.Groups[id] = flags
			}
		}
	}
	return p, nil
}

func joinPath(folder, rel string) string {
	if folder == "/" {
		return "/" + rel
	}
	return folder + "/" + rel
}

func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
