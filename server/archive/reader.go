package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/names"
)

// Errors callers tell apart with errors.Is: a refused archive (answer 400)
// and one past a cap (answer 413).
var (
	ErrInvalid  = errors.New("invalid archive")
	ErrTooLarge = errors.New("archive too large")
)

// Limits cap what an uploaded archive may hold; a zero field takes the
// default of DefaultLimits.
type Limits struct {
	// MaxUploadBytes caps the archive as uploaded (compressed).
	MaxUploadBytes int64
	// MaxTotalBytes caps the sum of the entries' uncompressed sizes.
	MaxTotalBytes int64
	// MaxEntryBytes caps one entry's uncompressed size.
	MaxEntryBytes int64
	// MaxEntries caps the number of entries.
	MaxEntries int
	// MaxDepth caps the folders an entry's path goes through, itself included.
	MaxDepth int
	// MaxPathBytes caps the length of an entry's path.
	MaxPathBytes int
}

// DefaultLimits fit a large project (tens of thousands of files) with room
// to spare, and keep a hostile upload from filling the disk or the memory.
var DefaultLimits = Limits{
	MaxUploadBytes: 512 << 20,
	MaxTotalBytes:  2 << 30,
	MaxEntryBytes:  16 << 20,
	MaxEntries:     200_000,
	MaxDepth:       64,
	MaxPathBytes:   1024,
}

// WithDefaults returns l with its zero fields taken from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	if l.MaxUploadBytes <= 0 {
		l.MaxUploadBytes = DefaultLimits.MaxUploadBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultLimits.MaxTotalBytes
	}
	if l.MaxEntryBytes <= 0 {
		l.MaxEntryBytes = DefaultLimits.MaxEntryBytes
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultLimits.MaxEntries
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxPathBytes <= 0 {
		l.MaxPathBytes = DefaultLimits.MaxPathBytes
	}
	return l
}

// Entry is a validated entry: a folder, or a platform file whose kind its
// extension names. Path is relative, with "/" separators and no trailing slash.
type Entry struct {
	Path string
	Kind model.Kind // model.KindFolder for folders
	// header is 1 + the offset of the entry's central directory header in
	// the file, 0 for a folder that only the paths below it imply. What
	// reading its body needs is read there again when it is read.
	header int64
}

// IsFolder reports whether the entry is a folder.
func (e Entry) IsFolder() bool { return e.Kind == model.KindFolder }

// Locator tells where the entry is in its archive, for a caller that
// keeps many entries elsewhere than in memory; LocatedEntry makes the
// entry again from it.
func (e Entry) Locator() int64 { return e.header }

// LocatedEntry is the entry of an archive at path, of kind, with the
// locator its Locator returned.
func LocatedEntry(path string, kind model.Kind, locator int64) Entry {
	return Entry{Path: path, Kind: kind, header: locator}
}

// Archive is an uploaded archive whose every entry passed validation.
// Folders implied by file paths but without their own entry are listed too.
type Archive struct {
	// Entries are sorted by path, so every folder comes before its
	// contents. They are nil when Read or Open was given an Inspector:
	// it keeps them.
	Entries Entries
	// Metadata is the MetadataName entry, nil when the archive has none.
	Metadata *Metadata
	limits   Limits
	spool    *os.File
	src      source
}

// An Inspector keeps the entries Read or Open finds, for Open to check
// them in path order and to look them up, and sees the archive's files as
// Open checks their bodies, so that a caller that must read every body
// reads each once, and keeps the entries where it likes (on disk, for an
// archive of many). Entries keeps them in memory.
type Inspector interface {
	// Add keeps an entry: Open adds them in the central directory's
	// order, then the folders their paths imply. An error refuses the
	// archive.
	Add(e Entry) error
	// Sorted calls fn with every entry added, sorted by path; from then
	// on, Entry(i) is the i-th of them. It stops at fn's first error.
	Sorted(fn func(e Entry) error) error
	// Find returns the entry at path, once Sorted ran.
	Find(path string) (Entry, bool, error)
	// Entry returns entry i; several at a time.
	Entry(i int) Entry
	// Inspect is called with the body of each file entry, Entry(i), once
	// it has passed its checks; several at a time, on as many goroutines
	// as there are cores, in no order. An error refuses the archive.
	Inspect(i int, body []byte) error
}

// Entries keep an archive's entries in memory (an Inspector that sees no
// body).
type Entries []Entry

// Add keeps e.
func (es *Entries) Add(e Entry) error {
	*es = append(*es, e)
	return nil
}

// Sorted sorts the entries by path and calls fn with each.
func (es *Entries) Sorted(fn func(e Entry) error) error {
	slices.SortFunc(*es, func(x, y Entry) int { return strings.Compare(x.Path, y.Path) })
	for _, e := range *es {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// Find returns the entry at path, by a binary search of the sorted entries.
func (es *Entries) Find(path string) (Entry, bool, error) {
	i, found := slices.BinarySearchFunc(*es, path, func(e Entry, path string) int { return strings.Compare(e.Path, path) })
	if !found {
		return Entry{}, false, nil
	}
	return (*es)[i], true, nil
}

// Entry returns entry i.
func (es *Entries) Entry(i int) Entry { return (*es)[i] }

// Inspect does nothing.
func (es *Entries) Inspect(int, []byte) error { return nil }

// SpoolPattern names the temporary files Read makes (os.CreateTemp and
// filepath.Glob patterns alike).
const SpoolPattern = "restore-*.zip"

// Read takes an upload into a temporary file in dir (at most
// limits.MaxUploadBytes; ErrTooLarge past it) and validates it with Open,
// showing in (when not nil) every file's body. Close removes the temporary file.
func Read(r io.Reader, dir string, limits Limits, in Inspector) (*Archive, error) {
	limits = limits.WithDefaults()
	spool, err := os.CreateTemp(dir, SpoolPattern)
	if err != nil {
		return nil, fmt.Errorf("spool upload: %w", err)
	}
	discard := func() { spool.Close(); os.Remove(spool.Name()) }
	n, err := io.Copy(spool, io.LimitReader(r, limits.MaxUploadBytes+1))
	if err != nil {
		discard()
		return nil, fmt.Errorf("spool upload: %w", err)
	}
	if n > limits.MaxUploadBytes {
		discard()
		return nil, fmt.Errorf("%w: the upload exceeds %d bytes", ErrTooLarge, limits.MaxUploadBytes)
	}
	a, err := Open(spool, n, limits, in)
	if err != nil {
		discard()
		return nil, err
	}
	a.spool = spool
	return a, nil
}

// Close releases the temporary file of an archive made by Read.
func (a *Archive) Close() error {
	if a.spool == nil {
		return nil
	}
	err := a.spool.Close()
	if rmErr := os.Remove(a.spool.Name()); err == nil {
		err = rmErr
	}
	a.spool = nil
	return err
}

// Open validates every entry of the size-byte archive in ra: names (no
// absolute, "..", ".", empty segments, backslashes, NUL or control
// characters), kinds (folders, platform extensions, the metadata entry; no
// ".json"), no symbolic links or other special files, no encryption, no
// duplicates, and the caps. It decompresses every entry once, on every
// core, to check that its real size and checksum match its header, and
// shows in (when not nil) the body of every file entry that passes. Paths
// are capped in depth and length, so no entry makes the restore walk
// thousands of folders. Of each entry it keeps its path, its kind and
// where its central directory header is (an Entry of 40 bytes, and the
// path's bytes), and none once it returns when in has them.
func Open(ra io.ReaderAt, size int64, limits Limits, in Inspector) (*Archive, error) {
	limits = limits.WithDefaults()
	if size > limits.MaxUploadBytes {
		return nil, fmt.Errorf("%w: the upload exceeds %d bytes", ErrTooLarge, limits.MaxUploadBytes)
	}
	dir, err := findDirectory(ra, size)
	if err != nil {
		return nil, fmt.Errorf("%w: not a ZIP archive, or cut short: %v", ErrInvalid, err)
	}
	a := &Archive{limits: limits, src: source{ra: ra, size: size, dataEnd: dir.start, base: dir.base}}
	inspect := in != nil
	if !inspect {
		// Sized once for the count declared, as far as the directory's
		// bytes can hold that many headers, rather than grown by doubling.
		if n := min(dir.records, uint64(limits.MaxEntries), uint64(dir.end-dir.start)/directoryHeaderLen); n > 0 {
			a.Entries = make(Entries, 0, n)
		}
		in = &a.Entries
	}
	read := 0
	var names nameArena
	var declared uint64
	var metadata *record
	err = readDirectory(ra, dir, func(h *directoryHeader) error {
		if read++; read > limits.MaxEntries {
			return fmt.Errorf("%w: more than %d entries, at most %d allowed", ErrTooLarge, limits.MaxEntries, limits.MaxEntries)
		}
		name, kind, err := judgeEntry(h, names.add(h.name))
		if err != nil {
			return err
		}
		if depth := strings.Count(name, "/") + 1; depth > limits.MaxDepth || len(name) > limits.MaxPathBytes {
			return fmt.Errorf("%w: entry %.80q… is %d folders deep and %d bytes long, at most %d and %d allowed",
				ErrTooLarge, name, depth, len(name), limits.MaxDepth, limits.MaxPathBytes)
		}
		if h.usize > uint64(limits.MaxEntryBytes) {
			return fmt.Errorf("%w: entry %q declares %d bytes, at most %d allowed", ErrTooLarge, name, h.usize, limits.MaxEntryBytes)
		}
		if declared += h.usize; declared > uint64(limits.MaxTotalBytes) {
			return fmt.Errorf("%w: entries declare more than %d bytes in all", ErrTooLarge, limits.MaxTotalBytes)
		}
		if name == MetadataName {
			if metadata != nil {
				return fmt.Errorf("%w: entry %q appears twice", ErrInvalid, name)
			}
			rec := h.record
			metadata = &rec
			return nil
		}
		return in.Add(Entry{Path: name, Kind: kind, header: h.at + 1})
	})
	if err != nil {
		if errors.Is(err, ErrInvalid) || errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: not a ZIP archive, or cut short: %v", ErrInvalid, err)
	}
	entries, err := addImpliedFolders(in, metadata != nil)
	if err != nil {
		return nil, err
	}
	if err := a.checkBodies(in, entries, metadata, inspect); err != nil {
		return nil, err
	}
	if metadata != nil {
		if a.Metadata, err = a.readMetadata(in, metadata); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// nameArena keeps the entries' names in strings of 64 KiB shared by many,
// rather than in an allocation each.
type nameArena struct{ b strings.Builder }

// add returns name as a string; later adds never change it.
func (n *nameArena) add(name []byte) string {
	if n.b.Cap()-n.b.Len() < len(name) {
		n.b = strings.Builder{}
		n.b.Grow(max(64<<10, len(name)))
	}
	start := n.b.Len()
	n.b.Write(name)
	return n.b.String()[start:]
}

// judgeEntry returns an entry's cleaned name (no trailing slash) and kind,
// or why the entry is refused. raw is its name as a string.
func judgeEntry(h *directoryHeader, raw string) (string, model.Kind, error) {
	if err := checkName(raw); err != nil {
		return "", "", err
	}
	if h.flags&flagEncrypted != 0 {
		return "", "", fmt.Errorf("%w: entry %q is encrypted", ErrInvalid, raw)
	}
	if h.method != methodStore && h.method != methodDeflate {
		return "", "", fmt.Errorf("%w: entry %q uses compression method %d (only stored and deflated are read)", ErrInvalid, raw, h.method)
	}
	mode := h.mode()
	if mode&fs.ModeSymlink != 0 {
		return "", "", fmt.Errorf("%w: entry %q is a symbolic link", ErrInvalid, raw)
	}
	if mode&(fs.ModeType&^fs.ModeDir) != 0 {
		return "", "", fmt.Errorf("%w: entry %q is a special file (%v)", ErrInvalid, raw, mode.Type())
	}
	name, isDir := strings.CutSuffix(raw, "/")
	if isDir || mode.IsDir() {
		if h.usize != 0 {
			return "", "", fmt.Errorf("%w: folder entry %q has contents", ErrInvalid, raw)
		}
		if name == MetadataName {
			return "", "", fmt.Errorf("%w: %q is reserved for the permissions entry", ErrInvalid, raw)
		}
		return name, model.KindFolder, nil
	}
	if name == MetadataName {
		return name, "", nil
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	if strings.HasSuffix(strings.ToLower(base), ".json") {
		return "", "", fmt.Errorf("%w: entry %q is named .json; configurations carry the platform's extensions (.dst, .imp, .lnk, .wbk, .exp, .gra, .upl)", ErrInvalid, raw)
	}
	kind, ok := model.KindOfPath(base)
	if !ok || base == kind.Extension() {
		return "", "", fmt.Errorf("%w: entry %q is neither a folder nor a platform file (.dst, .imp, .lnk, .wbk, .exp, .gra, .upl)", ErrInvalid, raw)
	}
	return name, kind, nil
}

// checkName refuses names that could leave the target folder or that the
// tree cannot hold.
func checkName(raw string) error {
	switch {
	case raw == "" || raw == "/":
		return fmt.Errorf("%w: an entry has an empty name", ErrInvalid)
	case !utf8.ValidString(raw):
		return fmt.Errorf("%w: entry name %q is not UTF-8", ErrInvalid, raw)
	case strings.ContainsRune(raw, 0):
		return fmt.Errorf("%w: entry name %q holds a NUL byte", ErrInvalid, raw)
	case strings.ContainsRune(raw, '\\'):
		return fmt.Errorf("%w: entry name %q holds a backslash", ErrInvalid, raw)
	case strings.HasPrefix(raw, "/"):
		return fmt.Errorf("%w: entry name %q is absolute", ErrInvalid, raw)
	case len(raw) >= 2 && raw[1] == ':':
		return fmt.Errorf("%w: entry name %q starts with a drive letter", ErrInvalid, raw)
	}
	if r, found := model.TerminalControlIn(raw); found {
		return fmt.Errorf("%w: entry name %q holds %U, a control character a terminal would act on", ErrInvalid, raw, r)
	}
	// Segment by segment without strings.Split, which allocated a slice an entry.
	for rest, more := strings.TrimSuffix(raw, "/"), true; more; {
		var seg string
		seg, rest, more = strings.Cut(rest, "/")
		switch seg {
		case "..":
			return fmt.Errorf("%w: entry name %q climbs out with \"..\"", ErrInvalid, raw)
		case "", ".":
			return fmt.Errorf("%w: entry name %q has an empty or . segment", ErrInvalid, raw)
		}
		if strings.TrimSpace(seg) != seg {
			return fmt.Errorf("%w: entry name %q has a segment with leading or trailing spaces", ErrInvalid, raw)
		}
		// The rules of every name of the tree, the same as for a folder made by hand.
		if err := names.Check(seg); err != nil {
			return fmt.Errorf("%w: entry name %q: %q %v", ErrInvalid, raw, seg, err)
		}
	}
	return nil
}

// addImpliedFolders refuses an entry that appears twice, and a file (or
// the permissions entry) used as a folder, and adds folder entries for the
// folders file paths imply (Info-ZIP writes them, other tools may not). It
// reads the entries once in path order, looking up the folders above each
// (those of the entry before it were, so mostly none), and again if it
// added folders; it returns how many entries there are then. An entry that
// appears twice is told before a file used as a folder.
func addImpliedFolders(in Inspector, hasMetadata bool) (int, error) {
	var twice, misused error
	var implied []string
	impliedSet := map[string]bool{}
	entries, prev, checked := 0, "", "" // checked: a folder whose folders above were checked
	err := in.Sorted(func(e Entry) error {
		if entries++; entries > 1 && e.Path == prev {
			twice = fmt.Errorf("%w: entry %q appears twice", ErrInvalid, e.Path)
			return twice
		}
		prev = e.Path
		if misused != nil {
			return nil
		}
		parent := parentOf(e.Path)
		for p := parent; p != "" && p != checked && !strings.HasPrefix(checked, p+"/"); p = parentOf(p) {
			if p == MetadataName && hasMetadata {
				misused = fmt.Errorf("%w: %q is a file and a folder of %q", ErrInvalid, p, e.Path)
				return nil
			}
			found, ok, err := in.Find(p)
			if err != nil {
				return err
			}
			if ok {
				if !found.IsFolder() {
					misused = fmt.Errorf("%w: %q is a file and a folder of %q", ErrInvalid, p, e.Path)
					return nil
				}
				break // its own parents were checked when it was: it sorts before e
			}
			if impliedSet[p] {
				break
			}
			impliedSet[p] = true
			implied = append(implied, p)
		}
		checked = parent
		return nil
	})
	switch {
	case err != nil:
		return 0, err
	case misused != nil:
		return 0, misused
	case len(implied) == 0:
		return entries, nil
	}
	for _, p := range implied {
		if err := in.Add(Entry{Path: p, Kind: model.KindFolder}); err != nil {
			return 0, err
		}
	}
	entries = 0
	err = in.Sorted(func(Entry) error { entries++; return nil })
	return entries, err
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// checkBodies decompresses every file entry and the metadata, on every
// core: an entry longer or shorter than the central directory says, or
// with a bad checksum, is refused. Every declared size is capped, alone
// and in all, and a body must be as long as declared, so what the bodies
// hold in all is capped too. A file entry's body that passes goes to in.
// The first refusal stops the others; of those found by then, the first
// entry's (in order) is told.
func (a *Archive) checkBodies(in Inspector, files int, metadata *record, inspect bool) error {
	// The refusal told: the first entry's (the metadata's last) of those
	// found. One error held, not a slot per entry.
	var mu sync.Mutex
	refused, refusedAt := error(nil), files+1
	var failed atomic.Bool
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for first := range workers {
		wg.Go(func() {
			r := newBodyReader(a.src)
			for k := first; k <= files && !failed.Load(); k += workers {
				var err error
				switch {
				case k == files && metadata != nil:
					_, err = r.read(metadata, MetadataName, false)
				case k < files:
					e := in.Entry(k)
					if e.header <= 0 { // a folder only the paths below it imply
						break
					}
					keep := inspect && !e.IsFolder()
					var body []byte
					if body, err = r.readEntry(e, keep); err == nil && keep {
						err = in.Inspect(k, body)
					}
				}
				if err != nil {
					mu.Lock()
					if k < refusedAt {
						refused, refusedAt = err, k
					}
					mu.Unlock()
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return refused
}

// ReadFile returns the body of a file entry. Several may run at once.
func (a *Archive) ReadFile(e Entry) ([]byte, error) {
	if e.header <= 0 || e.IsFolder() {
		return nil, fmt.Errorf("read %s: a folder has no body", e.Path)
	}
	return a.withReader(func(r *bodyReader) ([]byte, error) { return r.readEntry(e, true) })
}

// withReader runs read with a pooled body reader and gives the body it
// returns away.
func (a *Archive) withReader(read func(r *bodyReader) ([]byte, error)) ([]byte, error) {
	r, ok := bodyReaders.Get().(*bodyReader)
	if !ok {
		r = newBodyReader(a.src)
	}
	r.src = a.src
	body, err := read(r)
	r.src, r.body = source{}, nil // the body is the caller's now, the archive no longer the reader's
	bodyReaders.Put(r)
	return body, err
}

// readMetadata decodes the permissions entry strictly; every path it names
// must be an entry of the archive.
func (a *Archive) readMetadata(in Inspector, rec *record) (*Metadata, error) {
	body, err := a.withReader(func(r *bodyReader) ([]byte, error) { return r.read(rec, MetadataName, true) })
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var m Metadata
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrInvalid, MetadataName, err)
	}
	if m.Version != MetadataVersion {
		return nil, fmt.Errorf("%w: %s: version %d, this server reads %d", ErrInvalid, MetadataName, m.Version, MetadataVersion)
	}
	for _, s := range m.Included {
		switch s {
		case SectionOwner, SectionSharing, SectionGroupPermissions, SectionDataPermissions:
		default:
			return nil, fmt.Errorf("%w: %s: unknown section %q", ErrInvalid, MetadataName, s)
		}
	}
	for p := range m.Files {
		if _, found, err := in.Find(p); err != nil {
			return nil, err
		} else if !found {
			return nil, fmt.Errorf("%w: %s: names %q, which is not in the archive", ErrInvalid, MetadataName, p)
		}
	}
	return &m, nil
}
