package archive

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
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
	// contents. They are nil when Open was given an Inspector: it keeps
	// them.
	Entries Entries
	// Metadata is the MetadataName entry, nil when the archive has none.
	Metadata *Metadata
	zr       *zip.Reader
	// dataEnd is where the central directory starts at the latest: no
	// entry's data may run past it.
	dataEnd int64
	upload  *Upload // the spooled upload, removed by Close; nil for Open
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

// SpoolPattern names the temporary files Spool makes (os.CreateTemp and
// filepath.Glob patterns alike).
const SpoolPattern = "restore-*.zip"

// Upload is an uploaded archive spooled to a temporary file, not yet read.
type Upload struct {
	file   *os.File
	size   int64
	limits Limits
}

// Spool takes an upload into a temporary file in dir, at most
// limits.MaxUploadBytes (ErrTooLarge past it). Open reads it; Close
// removes the file.
func Spool(r io.Reader, dir string, limits Limits) (*Upload, error) {
	limits = limits.WithDefaults()
	f, err := os.CreateTemp(dir, SpoolPattern)
	if err != nil {
		return nil, fmt.Errorf("spool upload: %w", err)
	}
	u := &Upload{file: f, limits: limits}
	u.size, err = io.Copy(f, io.LimitReader(r, limits.MaxUploadBytes+1))
	switch {
	case err != nil:
		err = fmt.Errorf("spool upload: %w", err)
	case u.size > limits.MaxUploadBytes:
		err = fmt.Errorf("%w: the upload exceeds %d bytes", ErrTooLarge, limits.MaxUploadBytes)
	}
	if err != nil {
		u.Close()
		return nil, err
	}
	return u, nil
}

// Open validates the spooled archive as Open does, showing in (when not
// nil) every file's body. The archive's Close removes the temporary file;
// when Open fails, it is removed at once.
func (u *Upload) Open(in Inspector) (*Archive, error) {
	a, err := Open(u.file, u.size, u.limits, in)
	if err != nil {
		u.Close()
		return nil, err
	}
	a.upload = u
	return a, nil
}

// Close removes the temporary file.
func (u *Upload) Close() error {
	if u.file == nil {
		return nil
	}
	err := u.file.Close()
	if rmErr := os.Remove(u.file.Name()); err == nil {
		err = rmErr
	}
	u.file = nil
	return err
}

// Close releases the temporary file of an archive that Upload.Open made.
func (a *Archive) Close() error {
	if a.upload == nil {
		return nil
	}
	return a.upload.Close()
}

// directoryBytesPerEntry is what the central directory may hold, on
// average, for each entry the caps allow: a header of 46 bytes, a path of
// some 130 and an extended timestamp. zip.NewReader keeps every header's
// name, extra field and comment; with no cap on what it reads, a directory
// of long comments would hold it to the upload's size.
const directoryBytesPerEntry = 192

// errDirectoryTooLarge stops zip.NewReader at the cap of what it may read.
var errDirectoryTooLarge = errors.New("the central directory exceeds its cap")

// budgetReader gives zip.NewReader at most left bytes (left < 0: any).
type budgetReader struct {
	ra   io.ReaderAt
	left int64
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if b.left >= 0 {
		if b.left -= int64(len(p)); b.left < 0 {
			return 0, errDirectoryTooLarge
		}
	}
	return b.ra.ReadAt(p, off)
}

// headerSignature starts every central directory header.
var headerSignature = []byte("PK\x01\x02")

// headerSignatures counts where the signature of a central directory
// header appears in the size bytes of ra, at most past+1 times: zip.NewReader
// keeps a File of some 250 bytes for every header it reads, reads every
// header from where the end record points on, and counts them only to
// 65,536 (a count that old writers cut to 16 bits), so what its end
// record declares caps nothing. It reads no more headers than there are
// signatures.
func headerSignatures(ra io.ReaderAt, size int64, past int) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	// Reads overlap by 3 bytes: a signature across two reads is whole in
	// the second, and none is counted twice.
	for off := int64(0); off < size && n <= past; off += int64(len(buf) - len(headerSignature) + 1) {
		k, err := ra.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return 0, err
		}
		n += bytes.Count(buf[:k], headerSignature)
		if k < len(buf) {
			break
		}
	}
	return n, nil
}

// Open validates every entry of the size-byte archive in ra: names (no
// absolute, "..", ".", empty segments, backslashes, NUL or control
// characters), kinds (folders, platform extensions, the metadata entry; no
// ".json"), no symbolic links or other special files, no encryption, no
// duplicates, and the caps. The archive is read with archive/zip, after
// two caps on what its reader keeps: the headers it may find, and the
// bytes of the directory. It decompresses every entry once, on every
// core, to check that its real size and checksum match its header, and
// shows in (when not nil) the body of every file entry that passes. Paths
// are capped in depth and length, so no entry makes the restore walk
// thousands of folders. Of each entry it keeps its path, its kind and its
// index in the directory (an Entry of 40 bytes; the path is the zip.File's
// name), and none once it returns when in has them.
func Open(ra io.ReaderAt, size int64, limits Limits, in Inspector) (*Archive, error) {
	limits = limits.WithDefaults()
	if size > limits.MaxUploadBytes {
		return nil, fmt.Errorf("%w: the upload exceeds %d bytes", ErrTooLarge, limits.MaxUploadBytes)
	}
	tooMany := fmt.Errorf("%w: more than %d entries, at most %d allowed", ErrTooLarge, limits.MaxEntries, limits.MaxEntries)
	if n, err := headerSignatures(ra, size, limits.MaxEntries); err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	} else if n > limits.MaxEntries {
		return nil, tooMany
	}
	// The end records lie in the last 64 KiB and some bytes.
	dirCap := int64(limits.MaxEntries) * directoryBytesPerEntry
	budget := &budgetReader{ra: ra, left: dirCap + 80<<10}
	zr, err := zip.NewReader(budget, size)
	budget.left = -1 // the bodies are read through it too
	switch {
	case errors.Is(err, errDirectoryTooLarge):
		return nil, fmt.Errorf("%w: the central directory holds more than %d bytes (%d an entry allowed)", ErrTooLarge, dirCap, directoryBytesPerEntry)
	case err != nil && !errors.Is(err, zip.ErrInsecurePath): // names are judged below
		return nil, fmt.Errorf("%w: not a ZIP archive, or cut short: %v", ErrInvalid, err)
	case len(zr.File) > limits.MaxEntries:
		return nil, tooMany
	}
	a := &Archive{zr: zr, dataEnd: size - directoryEndLen - int64(len(zr.Comment))}
	inspect := in != nil
	if !inspect {
		a.Entries = make(Entries, 0, len(zr.File))
		in = &a.Entries
	}
	var declared uint64
	metadata := -1
	for i, f := range zr.File {
		a.dataEnd -= directoryHeaderLen + int64(len(f.Name)+len(f.Extra)+len(f.Comment))
		name, kind, err := judgeEntry(f)
		if err != nil {
			return nil, err
		}
		if depth := strings.Count(name, "/") + 1; depth > limits.MaxDepth || len(name) > limits.MaxPathBytes {
			return nil, fmt.Errorf("%w: entry %.80q… is %d folders deep and %d bytes long, at most %d and %d allowed",
				ErrTooLarge, name, depth, len(name), limits.MaxDepth, limits.MaxPathBytes)
		}
		if f.UncompressedSize64 > uint64(limits.MaxEntryBytes) {
			return nil, fmt.Errorf("%w: entry %q declares %d bytes, at most %d allowed", ErrTooLarge, name, f.UncompressedSize64, limits.MaxEntryBytes)
		}
		if declared += f.UncompressedSize64; declared > uint64(limits.MaxTotalBytes) {
			return nil, fmt.Errorf("%w: entries declare more than %d bytes in all", ErrTooLarge, limits.MaxTotalBytes)
		}
		if name == MetadataName {
			if metadata >= 0 {
				return nil, fmt.Errorf("%w: entry %q appears twice", ErrInvalid, name)
			}
			metadata = i
			continue
		}
		if err := in.Add(Entry{Path: name, Kind: kind, header: int64(i) + 1}); err != nil {
			return nil, err
		}
	}
	entries, err := addImpliedFolders(in, metadata >= 0)
	if err != nil {
		return nil, err
	}
	if err := a.checkBodies(in, entries, metadata, inspect); err != nil {
		return nil, err
	}
	if metadata >= 0 {
		if a.Metadata, err = a.readMetadata(in, zr.File[metadata]); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// The lengths of the fixed parts of a central directory header and of the
// end of central directory record (APPNOTE.TXT 4.3.12 and 4.3.16).
const directoryHeaderLen, directoryEndLen = 46, 22

// judgeEntry returns an entry's cleaned name (no trailing slash) and kind,
// or why the entry is refused.
func judgeEntry(f *zip.File) (string, model.Kind, error) {
	raw := f.Name
	if err := checkName(raw); err != nil {
		return "", "", err
	}
	if f.Flags&flagEncrypted != 0 {
		return "", "", fmt.Errorf("%w: entry %q is encrypted", ErrInvalid, raw)
	}
	if f.Method != zip.Store && f.Method != zip.Deflate {
		return "", "", fmt.Errorf("%w: entry %q uses compression method %d (only stored and deflated are read)", ErrInvalid, raw, f.Method)
	}
	// The type bits as the host that made the entry writes them: Unix
	// mode bits for Unix and macOS, the MS-DOS folder bit for FAT, VFAT
	// and NTFS; and a folder whenever the name ends in "/".
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

// flagEncrypted is the general purpose flag of an encrypted entry.
const flagEncrypted = 0x1

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
// A folder's body is not read, only its local header and where its data
// lies. The first refusal stops the others; of those found by then, the
// first entry's (in order) is told.
func (a *Archive) checkBodies(in Inspector, files int, metadata int, inspect bool) error {
	// The refusal told: the first entry's (the metadata's last) of those
	// found. One error held, not a slot per entry.
	var mu sync.Mutex
	refused, refusedAt := error(nil), files+1
	var failed atomic.Bool
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for first := range workers {
		wg.Go(func() {
			var buf []byte // the body read last, whose room the next one takes
			for k := first; k <= files && !failed.Load(); k += workers {
				var err error
				switch {
				case k == files && metadata >= 0:
					_, err = a.readBody(a.zr.File[metadata], MetadataName, buf)
				case k < files:
					e := in.Entry(k)
					switch {
					case e.header <= 0: // a folder only the paths below it imply
					case e.IsFolder():
						_, err = a.dataStart(a.zr.File[e.header-1], e.Path)
					default:
						var body []byte
						if body, err = a.readBody(a.zr.File[e.header-1], e.Path, buf); err == nil {
							buf = body
							if inspect {
								err = in.Inspect(k, body)
							}
						}
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

// dataStart reads an entry's local header and returns where its data
// starts, once checked that the data ends before the central directory.
func (a *Archive) dataStart(f *zip.File, name string) (int64, error) {
	start, err := f.DataOffset()
	switch {
	case errors.Is(err, zip.ErrFormat):
		return 0, fmt.Errorf("%w: entry %q: no local file header where the central directory points", ErrInvalid, name)
	case err != nil:
		return 0, fmt.Errorf("%w: entry %q: its local header does not read: %v", ErrInvalid, name, err)
	case start < 0 || start > a.dataEnd || f.CompressedSize64 > uint64(a.dataEnd-start):
		return 0, fmt.Errorf("%w: entry %q: its data runs past the start of the central directory", ErrInvalid, name)
	}
	return start, nil
}

// readBody checks one entry's body: its local header, that its data lies
// before the central directory, and that it inflates to the size and
// checksum the central directory declares (archive/zip checks the size,
// and the checksum unless the header declares 0). It reads it into buf
// when it has room. name is the entry's, for errors. Open has capped
// every declared size, which bounds what a body may take here.
func (a *Archive) readBody(f *zip.File, name string, buf []byte) ([]byte, error) {
	if _, err := a.dataStart(f, name); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, name, err)
	}
	defer rc.Close()
	// One byte more than declared is asked for, to tell a body that is longer.
	want := f.UncompressedSize64
	if uint64(cap(buf)) < want+1 {
		buf = make([]byte, want+1)
	}
	buf = buf[:want+1]
	n := 0
	for err == nil {
		var k int
		k, err = rc.Read(buf[n:])
		n += k
	}
	switch {
	case errors.Is(err, zip.ErrFormat):
		return nil, fmt.Errorf("%w: entry %q holds more bytes than its header declares (%d)", ErrInvalid, name, want)
	case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF && uint64(n) != want:
		return nil, fmt.Errorf("%w: entry %q holds fewer bytes than its header declares (%d), or is cut short", ErrInvalid, name, want)
	case errors.Is(err, zip.ErrChecksum) || err == io.EOF && crc32.ChecksumIEEE(buf[:n]) != f.CRC32:
		return nil, fmt.Errorf("%w: entry %q fails its checksum", ErrInvalid, name)
	case err != io.EOF:
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, name, err)
	}
	return buf[:n], nil
}

// ReadFile returns the body of a file entry. Several may run at once.
func (a *Archive) ReadFile(e Entry) ([]byte, error) {
	if e.header <= 0 || e.IsFolder() {
		return nil, fmt.Errorf("read %s: a folder has no body", e.Path)
	}
	return a.readBody(a.zr.File[e.header-1], e.Path, nil)
}

// readMetadata decodes the permissions entry strictly; every path it names
// must be an entry of the archive.
func (a *Archive) readMetadata(in Inspector, f *zip.File) (*Metadata, error) {
	body, err := a.readBody(f, MetadataName, nil)
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
