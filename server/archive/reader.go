package archive

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
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
	file *zip.File
}

// IsFolder reports whether the entry is a folder.
func (e Entry) IsFolder() bool { return e.Kind == model.KindFolder }

// Archive is an uploaded archive whose every entry passed validation.
// Folders implied by file paths but without their own entry are listed too.
type Archive struct {
	// Entries are sorted by path, so every folder comes before its contents.
	Entries []Entry
	// Metadata is the MetadataName entry, nil when the archive has none.
	Metadata *Metadata
	limits   Limits
	spool    *os.File
}

// An Inspector sees an archive's files as Read or Open checks their
// bodies, so that a caller that must read every body reads each once.
type Inspector interface {
	// Entries is called once, before any Inspect, with the archive's
	// entries (sorted, as Archive.Entries).
	Entries(entries []Entry)
	// Inspect is called with the body of each file entry, entries[i], once
	// it has passed its checks; several at a time, on as many goroutines
	// as there are cores, in no order. An error refuses the archive.
	Inspect(i int, body []byte) error
}

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
// thousands of folders.
func Open(ra io.ReaderAt, size int64, limits Limits, in Inspector) (*Archive, error) {
	limits = limits.WithDefaults()
	if size > limits.MaxUploadBytes {
		return nil, fmt.Errorf("%w: the upload exceeds %d bytes", ErrTooLarge, limits.MaxUploadBytes)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are judged below
		return nil, fmt.Errorf("%w: not a ZIP archive, or cut short: %v", ErrInvalid, err)
	}
	if len(zr.File) > limits.MaxEntries {
		return nil, fmt.Errorf("%w: %d entries, at most %d allowed", ErrTooLarge, len(zr.File), limits.MaxEntries)
	}
	a := &Archive{limits: limits}
	kinds := map[string]model.Kind{} // explicit entries by cleaned path
	var declared uint64
	var metadata *zip.File
	for _, f := range zr.File {
		name, kind, err := judgeEntry(f)
		if err != nil {
			return nil, err
		}
		if depth := strings.Count(name, "/") + 1; depth > limits.MaxDepth || len(name) > limits.MaxPathBytes {
			return nil, fmt.Errorf("%w: entry %.80q… is %d folders deep and %d bytes long, at most %d and %d allowed",
				ErrTooLarge, name, depth, len(name), limits.MaxDepth, limits.MaxPathBytes)
		}
		if _, dup := kinds[name]; dup {
			return nil, fmt.Errorf("%w: entry %q appears twice", ErrInvalid, name)
		}
		kinds[name] = kind
		if f.UncompressedSize64 > uint64(limits.MaxEntryBytes) {
			return nil, fmt.Errorf("%w: entry %q declares %d bytes, at most %d allowed", ErrTooLarge, name, f.UncompressedSize64, limits.MaxEntryBytes)
		}
		if declared += f.UncompressedSize64; declared > uint64(limits.MaxTotalBytes) {
			return nil, fmt.Errorf("%w: entries declare more than %d bytes in all", ErrTooLarge, limits.MaxTotalBytes)
		}
		if name == MetadataName {
			metadata = f
			continue
		}
		a.Entries = append(a.Entries, Entry{Path: name, Kind: kind, file: f})
	}
	if err := a.addImpliedFolders(kinds); err != nil {
		return nil, err
	}
	sort.Slice(a.Entries, func(i, j int) bool { return a.Entries[i].Path < a.Entries[j].Path })
	if in != nil {
		in.Entries(a.Entries)
	}
	if err := a.checkBodies(metadata, in); err != nil {
		return nil, err
	}
	if metadata != nil {
		if a.Metadata, err = a.readMetadata(metadata, kinds); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// judgeEntry returns an entry's cleaned name (no trailing slash) and kind,
// or why the entry is refused.
func judgeEntry(f *zip.File) (string, model.Kind, error) {
	raw := f.Name
	if err := checkName(raw); err != nil {
		return "", "", err
	}
	if f.Flags&0x1 != 0 {
		return "", "", fmt.Errorf("%w: entry %q is encrypted", ErrInvalid, raw)
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return "", "", fmt.Errorf("%w: entry %q uses compression method %d (only stored and deflated are read)", ErrInvalid, raw, f.Method)
	}
	mode := f.Mode()
	if mode&fs.ModeSymlink != 0 {
		return "", "", fmt.Errorf("%w: entry %q is a symbolic link", ErrInvalid, raw)
	}
	if mode&(fs.ModeType&^fs.ModeDir) != 0 {
		return "", "", fmt.Errorf("%w: entry %q is a special file (%v)", ErrInvalid, raw, mode.Type())
	}
	name, isDir := strings.CutSuffix(raw, "/")
	if isDir || mode.IsDir() {
		if f.UncompressedSize64 != 0 {
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
	for _, seg := range strings.Split(strings.TrimSuffix(raw, "/"), "/") {
		switch seg {
		case "..":
			return fmt.Errorf("%w: entry name %q climbs out with ..", ErrInvalid, raw)
		case "", ".":
			return fmt.Errorf("%w: entry name %q has an empty or . segment", ErrInvalid, raw)
		}
		if strings.TrimSpace(seg) != seg {
			return fmt.Errorf("%w: entry name %q has a segment with leading or trailing spaces", ErrInvalid, raw)
		}
	}
	return nil
}

// addImpliedFolders adds folder entries for the folders file paths imply
// (Info-ZIP writes them, other tools may not), and refuses a file (or the
// permissions entry) used as a folder.
func (a *Archive) addImpliedFolders(kinds map[string]model.Kind) error {
	explicit := len(a.Entries)
	for _, e := range a.Entries[:explicit] {
		for p := parentOf(e.Path); p != ""; p = parentOf(p) {
			kind, seen := kinds[p]
			if seen && kind != model.KindFolder {
				return fmt.Errorf("%w: %q is a file and a folder of %q", ErrInvalid, p, e.Path)
			}
			if seen {
				break // its own parents were handled when it was
			}
			kinds[p] = model.KindFolder
			a.Entries = append(a.Entries, Entry{Path: p, Kind: model.KindFolder})
		}
	}
	return nil
}

func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// checkBodies decompresses every file entry and the metadata, on every
// core, counting the bytes: an entry longer or shorter than its header
// says, or with a bad checksum, is refused, and the total stays under the
// cap whatever the headers claim. A file entry's body that passes goes to
// in. The first refusal stops the others; of those found by then, the
// first entry's (in order) is told.
func (a *Archive) checkBodies(metadata *zip.File, in Inspector) error {
	files := len(a.Entries)
	errs := make([]error, files+1) // the metadata's last
	var total atomic.Int64
	var failed atomic.Bool
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for first := range workers {
		wg.Go(func() {
			var body bytes.Buffer
			for k := first; k <= files && !failed.Load(); k += workers {
				f, keep := metadata, false
				if k < files {
					f, keep = a.Entries[k].file, in != nil && !a.Entries[k].IsFolder()
				}
				if f == nil { // a folder only the paths below it imply
					continue
				}
				body.Reset()
				err := a.checkBody(f, &body, keep, &total)
				if err == nil && keep {
					err = in.Inspect(k, body.Bytes())
				}
				if err != nil {
					errs[k] = err
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkBody decompresses one entry, into body when keep is set, and adds
// its size to total.
func (a *Archive) checkBody(f *zip.File, body *bytes.Buffer, keep bool, total *atomic.Int64) error {
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("%w: entry %q: %v", ErrInvalid, f.Name, err)
	}
	defer rc.Close()
	var out io.Writer = io.Discard
	if keep {
		body.Grow(int(min(f.UncompressedSize64, uint64(a.limits.MaxEntryBytes))))
		out = body
	}
	n, err := io.Copy(out, io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	switch {
	case n > int64(f.UncompressedSize64) || errors.Is(err, zip.ErrFormat):
		return fmt.Errorf("%w: entry %q holds more bytes than its header declares (%d)", ErrInvalid, f.Name, f.UncompressedSize64)
	case errors.Is(err, io.ErrUnexpectedEOF) || (err == nil && n < int64(f.UncompressedSize64)):
		return fmt.Errorf("%w: entry %q holds fewer bytes than its header declares (%d), or is cut short", ErrInvalid, f.Name, f.UncompressedSize64)
	case errors.Is(err, zip.ErrChecksum):
		return fmt.Errorf("%w: entry %q fails its checksum", ErrInvalid, f.Name)
	case err != nil:
		return fmt.Errorf("%w: entry %q: %v", ErrInvalid, f.Name, err)
	}
	if total.Add(n) > a.limits.MaxTotalBytes {
		return fmt.Errorf("%w: entries hold more than %d bytes in all", ErrTooLarge, a.limits.MaxTotalBytes)
	}
	return nil
}

// ReadFile returns the body of a file entry.
func (a *Archive) ReadFile(e Entry) ([]byte, error) {
	if e.file == nil || e.IsFolder() {
		return nil, fmt.Errorf("read %s: a folder has no body", e.Path)
	}
	return a.readEntry(e.file)
}

func (a *Archive) readEntry(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, f.Name, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	buf.Grow(int(min(f.UncompressedSize64, uint64(a.limits.MaxEntryBytes))))
	if _, err := io.Copy(&buf, io.LimitReader(rc, a.limits.MaxEntryBytes)); err != nil {
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, f.Name, err)
	}
	return buf.Bytes(), nil
}

// readMetadata decodes the permissions entry strictly; every path it names
// must be an entry of the archive.
func (a *Archive) readMetadata(f *zip.File, kinds map[string]model.Kind) (*Metadata, error) {
	body, err := a.readEntry(f)
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
		if kind, ok := kinds[p]; !ok || kind == "" {
			return nil, fmt.Errorf("%w: %s: names %q, which is not in the archive", ErrInvalid, MetadataName, p)
		}
	}
	return &m, nil
}
