package archivetest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"crypto/rand"
	"fmt"
	"hash/crc32"
	"io/fs"
	"strings"

	"github.com/dapconsole/dapconsole/server/archive"
)

// Entry is one entry to build: a name ending in "/" is a folder.
type Entry struct {
	Name string
	Body string
	// Mode, when set, goes into the external attributes (symbolic links).
	Mode fs.FileMode
	// Comment goes into the entry's central directory header.
	Comment string
}

// Build returns a ZIP archive of the entries, in order, as Go's writer makes
// it (which allows duplicates and any name).
func Build(entries ...Entry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Comment: e.Comment}
		if strings.HasSuffix(e.Name, "/") {
			h.Method = zip.Store
		}
		if e.Mode != 0 {
			h.SetMode(e.Mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			panic(err)
		}
		w.Write([]byte(e.Body))
	}
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// raw builds a one-entry archive whose header says what hdr says, whatever
// the data holds: data is deflated as it is, and the last cut bytes of the
// deflate stream left out. A CompressedSize64 in hdr is how many bytes more
// than what is written the header declares.
func raw(hdr zip.FileHeader, data []byte, cut int) []byte {
	var compressed bytes.Buffer
	fw, _ := flate.NewWriter(&compressed, flate.BestCompression)
	fw.Write(data)
	fw.Close()
	compressed.Truncate(compressed.Len() - cut)
	hdr.Method = zip.Deflate
	hdr.CompressedSize64 += uint64(compressed.Len())
	if hdr.CRC32 == 0 {
		hdr.CRC32 = crc32.ChecksumIEEE(data)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&hdr)
	if err != nil {
		panic(err)
	}
	w.Write(compressed.Bytes())
	if err := zw.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Limits are small caps that the bomb cases of Hostile exceed cheaply.
var Limits = archive.Limits{
	MaxUploadBytes: 1 << 20,
	MaxTotalBytes:  4 << 20,
	MaxEntryBytes:  1 << 20,
	MaxEntries:     64,
}

// Case is a hostile archive, the error a reader with Limits must give and a
// fragment of its message.
type Case struct {
	Name     string
	Body     []byte
	Want     error // archive.ErrInvalid or archive.ErrTooLarge
	Fragment string
}

// Connection is a valid connection body for entries that must pass on their own.
const Connection = `{"version":"2.1","className":"datameer.dap.common.entity.DataStore","file":{"name":"c"},"typeId":"das.FileSystemDataStoreType","properties":{}}`

// Hostile returns the corpus of archives a reader with Limits must refuse,
// each for one reason.
func Hostile() []Case {
	good := Build(Entry{Name: "Data/"}, Entry{Name: "Data/a.dst", Body: Connection}, Entry{Name: "Data/b.dst", Body: Connection})
	zeros := bytes.Repeat([]byte{0}, 8<<20)
	noise := make([]byte, Limits.MaxUploadBytes+1)
	rand.Read(noise)
	var bombParts []Entry
	for i := range 8 {
		bombParts = append(bombParts, Entry{Name: fmt.Sprintf("part%d.dst", i), Body: string(zeros[:900<<10])})
	}
	var crowd []Entry
	for i := range Limits.MaxEntries + 1 {
		crowd = append(crowd, Entry{Name: fmt.Sprintf("f%03d/", i)})
	}
	badCRC := zip.FileHeader{Name: "a.dst", UncompressedSize64: uint64(len(Connection)), CRC32: 0xdeadbeef}
	encrypted := zip.FileHeader{Name: "a.dst", UncompressedSize64: uint64(len(Connection)), Flags: 0x1}
	noLocalHeader := bytes.Clone(good)
	noLocalHeader[2] = 'X' // the first entry's local file header signature
	return []Case{
		{"dot-dot", Build(Entry{Name: "../evil.dst", Body: Connection}), archive.ErrInvalid, "climbs out"},
		{"dot-dot-inside", Build(Entry{Name: "Data/../../evil.dst", Body: Connection}), archive.ErrInvalid, "climbs out"},
		{"absolute", Build(Entry{Name: "/etc/evil.dst", Body: Connection}), archive.ErrInvalid, "absolute"},
		{"drive-letter", Build(Entry{Name: "C:evil.dst", Body: Connection}), archive.ErrInvalid, "drive letter"},
		{"backslash", Build(Entry{Name: `..\evil.dst`, Body: Connection}), archive.ErrInvalid, "backslash"},
		{"nul-byte", Build(Entry{Name: "evil\x00.dst", Body: Connection}), archive.ErrInvalid, "NUL"},
		{"dot-segment", Build(Entry{Name: "./evil.dst", Body: Connection}), archive.ErrInvalid, ". segment"},
		{"symlink", Build(Entry{Name: "link.dst", Body: "/etc/passwd", Mode: fs.ModeSymlink | 0o777}), archive.ErrInvalid, "symbolic link"},
		{"named-pipe", Build(Entry{Name: "pipe.dst", Body: Connection, Mode: fs.ModeNamedPipe | 0o644}), archive.ErrInvalid, "special file"},
		{"duplicate-file", Build(Entry{Name: "a.dst", Body: Connection}, Entry{Name: "a.dst", Body: Connection}), archive.ErrInvalid, "twice"},
		{"duplicate-folder", Build(Entry{Name: "Data/"}, Entry{Name: "Data/"}), archive.ErrInvalid, "twice"},
		{"file-as-folder", Build(Entry{Name: "a.dst", Body: Connection}, Entry{Name: "a.dst/b.dst", Body: Connection}), archive.ErrInvalid, "a file and a folder"},
		{"json-entry", Build(Entry{Name: "config.json", Body: Connection}), archive.ErrInvalid, ".json"},
		{"foreign-file", Build(Entry{Name: "notes.txt", Body: "hello"}), archive.ErrInvalid, "neither a folder nor a platform file"},
		{"size-lies-short", raw(zip.FileHeader{Name: "a.dst", UncompressedSize64: 10}, zeros[:100_000], 0), archive.ErrInvalid, "more bytes than its header"},
		{"size-lies-long", raw(zip.FileHeader{Name: "a.dst", UncompressedSize64: 5000}, []byte(Connection), 0), archive.ErrInvalid, "fewer bytes"},
		{"cut-deflate-stream", raw(zip.FileHeader{Name: "a.dst", UncompressedSize64: uint64(len(Connection))}, []byte(Connection), 8),
			archive.ErrInvalid, "cut short"},
		{"bad-checksum", raw(badCRC, []byte(Connection), 0), archive.ErrInvalid, "checksum"},
		{"encrypted", raw(encrypted, []byte(Connection), 0), archive.ErrInvalid, "encrypted"},
		{"bomb-entry", raw(zip.FileHeader{Name: "bomb.dst", UncompressedSize64: uint64(len(zeros))}, zeros, 0), archive.ErrTooLarge, "declares"},
		{"bomb-total", Build(bombParts...), archive.ErrTooLarge, "in all"},
		{"too-many-entries", Build(crowd...), archive.ErrTooLarge, "entries"},
		// What archive/zip keeps of each header, its comment included, is capped before it reads them.
		{"directory-too-large", Build(Entry{Name: "a.dst", Body: Connection, Comment: strings.Repeat("c", 65535)},
			Entry{Name: "b.dst", Body: Connection, Comment: strings.Repeat("c", 65535)}), archive.ErrTooLarge, "central directory"},
		// 8 KB that held the write lock for minutes: one entry 2,000 folders deep.
		{"too-deep", Build(Entry{Name: strings.Repeat("a/", 2000) + "x.dst", Body: Connection}), archive.ErrTooLarge, "folders deep"},
		// Long in folders of names that are each short enough (a name holds 255 bytes).
		{"path-too-long", Build(Entry{Name: strings.Repeat(strings.Repeat("n", 99)+"/", 11) + "x.dst", Body: Connection}), archive.ErrTooLarge, "bytes long"},
		{"upload-too-large", Build(Entry{Name: "noise.dst", Body: string(noise)}), archive.ErrTooLarge, "exceeds"},
		{"truncated", good[:len(good)/2], archive.ErrInvalid, "not a ZIP archive"},
		{"truncated-directory", good[:len(good)-10], archive.ErrInvalid, "not a ZIP archive"},
		{"no-local-header", noLocalHeader, archive.ErrInvalid, "no local file header"},
		// Only the start of the 64 bytes more is a deflate stream, which ends before the rest.
		{"data-overlaps-directory", raw(zip.FileHeader{Name: "a.dst", UncompressedSize64: uint64(len(Connection)), CompressedSize64: 64}, []byte(Connection), 0),
			archive.ErrInvalid, "past the start of the central directory"},
		{"not-zip", []byte("this is not a ZIP archive at all"), archive.ErrInvalid, "not a ZIP archive"},
		{"empty-body", nil, archive.ErrInvalid, "not a ZIP archive"},
		{"metadata-stray-path", Build(Entry{Name: "a.dst", Body: Connection},
			Entry{Name: archive.MetadataName, Body: `{"version":1,"included":["owner"],"files":{"missing.dst":{"owner":"admin"}}}`}),
			archive.ErrInvalid, "not in the archive"},
		{"metadata-unknown-field", Build(Entry{Name: "a.dst", Body: Connection},
			Entry{Name: archive.MetadataName, Body: `{"version":1,"included":["owner"],"files":{},"extra":1}`}),
			archive.ErrInvalid, "unknown field"},
	}
}
