package archive_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
)

// compatLimits are archivetest's caps but for the upload's size.
var compatLimits = func() archive.Limits {
	l := archivetest.Limits
	l.MaxUploadBytes = 64 << 20
	return l
}()

func deflate(t testing.TB, data []byte) []byte {
	var out bytes.Buffer
	fw, err := flate.NewWriter(&out, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	fw.Close()
	return out.Bytes()
}

// compatSeeds are archives as our writer, archive/zip and Info-ZIP (in
// testdata) write them: deflated and stored, with and without data
// descriptors, with a comment, with ZIP64 end records.
func compatSeeds(f testing.TB) [][]byte {
	ours, _ := writeSample(f, []string{archive.SectionOwner, archive.SectionGroupPermissions})
	described := archivetest.Build(archivetest.Entry{Name: "Data/"}, archivetest.Entry{Name: "Data/a.dst", Body: archivetest.Connection},
		archivetest.Entry{Name: "Data/Deep/b.wbk", Body: strings.Repeat(`{"sheets":[]}`, 20)})
	seeds := [][]byte{ours, described, zip64End(f, described), zip64End(f, ours), plainArchive(f, zip.Store), plainArchive(f, zip.Deflate)}
	for _, stubbed := range stubbedArchives(f) {
		seeds = append(seeds, stubbed)
	}
	return seeds
}

// stubbedArchives are archives after a stub of other data, as
// self-extracting archives are: one whose offsets count from its own
// start, and one whose offsets count from the file's (archive/zip's
// SetOffset, zip -A).
func stubbedArchives(t testing.TB) map[string][]byte {
	stub := bytes.Repeat([]byte("#!/bin/sh\nexit 0\n"), 10)
	appended := func(offset int64) []byte {
		var buf bytes.Buffer
		buf.Write(stub)
		zw := zip.NewWriter(&buf)
		zw.SetOffset(offset)
		for _, name := range []string{"Data/", "Data/a.dst"} {
			w, err := zw.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "Data/a.dst" {
				io.WriteString(w, archivetest.Connection)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	return map[string][]byte{"offsets from the archive": appended(0), "offsets from the file": appended(int64(len(stub)))}
}

// TestArchiveAfterAStubReads reads archives that follow other data.
func TestArchiveAfterAStubReads(t *testing.T) {
	for name, body := range stubbedArchives(t) {
		a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(a.Entries) != 2 {
			t.Fatalf("%s: entries %+v", name, a.Entries)
		}
		if got, err := a.ReadFile(a.Entries[1]); err != nil || string(got) != archivetest.Connection {
			t.Fatalf("%s: body %q, %v", name, got, err)
		}
	}
}

// plainArchive is a few entries written with CreateRaw in one method: no
// data descriptors, and an archive comment.
func plainArchive(t testing.TB, method uint16) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []struct{ name, body string }{{"Imports/", ""}, {"Imports/Orders.imp", `{"a":1}`}, {"Sales.wbk", archivetest.Connection}} {
		data := []byte(e.body)
		if method == zip.Deflate && e.body != "" {
			data = deflate(t, data)
		}
		h := &zip.FileHeader{Name: e.name, Method: method, CRC32: crc32.ChecksumIEEE([]byte(e.body)),
			CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(e.body))}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.SetComment("restored by hand")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zip64End ends an archive that archive/zip wrote with the records its
// writer ends one of more than 65,535 entries with: a ZIP64 end of central
// directory record and its locator, then an end record whose count, size
// and offset say to look there.
func zip64End(t testing.TB, body []byte) []byte {
	end := len(body) - 22 // archive/zip writes no comment unless asked
	if binary.LittleEndian.Uint32(body[end:]) != 0x06054b50 {
		t.Fatal("no end of central directory record 22 bytes before the end")
	}
	records := uint64(binary.LittleEndian.Uint16(body[end+10:]))
	size := uint64(binary.LittleEndian.Uint32(body[end+12:]))
	offset := uint64(binary.LittleEndian.Uint32(body[end+16:]))
	out := append([]byte(nil), body[:end]...)
	le := binary.LittleEndian
	out = le.AppendUint32(out, 0x06064b50)
	out = le.AppendUint64(out, 44) // the record's size after this field
	out = le.AppendUint16(out, 45)
	out = le.AppendUint16(out, 45)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint64(out, records)
	out = le.AppendUint64(out, records)
	out = le.AppendUint64(out, size)
	out = le.AppendUint64(out, offset)
	out = le.AppendUint32(out, 0x07064b50)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint64(out, uint64(end))
	out = le.AppendUint32(out, 1)
	out = le.AppendUint32(out, 0x06054b50)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint16(out, 0xffff)
	out = le.AppendUint16(out, 0xffff)
	out = le.AppendUint32(out, 0xffffffff)
	out = le.AppendUint32(out, 0xffffffff)
	return le.AppendUint16(out, 0)
}

// TestSeedsOpenAsArchiveZipDoes reads every seed of the fuzz test, which
// must all be accepted, the ZIP64 ones with what their plain forms hold.
func TestSeedsOpenAsArchiveZipDoes(t *testing.T) {
	for i, seed := range compatSeeds(t) {
		a, err := archive.Open(bytes.NewReader(seed), int64(len(seed)), compatLimits, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", i, err)
		}
		if len(a.Entries) == 0 {
			t.Fatalf("seed %d: no entries", i)
		}
	}
}

// TestEntryTypeFromExternalAttributes: an entry's type comes from its
// external attributes as the host that made it writes them (Unix mode bits
// for Unix and macOS, the MS-DOS folder bit for FAT, VFAT and NTFS, nothing
// for other hosts), and from a trailing "/".
func TestEntryTypeFromExternalAttributes(t *testing.T) {
	const unix, macOS, fat, ntfs, vfat, acorn = 3, 19, 0, 11, 14, 13
	for _, c := range []struct {
		name    string
		host    uint16
		attrs   uint32
		want    string // the entry's kind, or a fragment of the refusal
		invalid bool
	}{
		{"Data", unix, 0o040755 << 16, "folder", false},
		{"Data", macOS, 0o040755 << 16, "folder", false},
		{"Data", fat, 0x10, "folder", false},
		{"Data", ntfs, 0x10, "folder", false},
		{"Data", vfat, 0x10, "folder", false},
		{"Data/", fat, 0, "folder", false},
		{"a.dst", unix, 0o100644 << 16, "connection", false},
		{"a.dst", fat, 0x01, "connection", false},           // read-only
		{"a.dst", acorn, 0xa1ff << 16, "connection", false}, // a host whose attributes are not read
		{"a.dst", unix, 0o120777 << 16, "symbolic link", true},
		{"a.dst", macOS, 0o120777 << 16, "symbolic link", true},
		{"a.dst", unix, 0o010644 << 16, "special file (p---------)", true},
		{"a.dst", unix, 0o020644 << 16, "special file (Dc---------)", true},
		{"a.dst", unix, 0o060644 << 16, "special file (D---------)", true},
		{"a.dst", unix, 0o140644 << 16, "special file (S---------)", true},
		{"Data", unix, 0o120777 << 16, "symbolic link", true},
	} {
		body := ""
		if c.want == "connection" || c.invalid {
			body = archivetest.Connection
		}
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		h := &zip.FileHeader{Name: c.name, Method: zip.Store, CreatorVersion: c.host<<8 | 20, ExternalAttrs: c.attrs,
			CRC32: crc32.ChecksumIEEE([]byte(body)), CompressedSize64: uint64(len(body)), UncompressedSize64: uint64(len(body))}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, body)
		zw.Close()
		a, err := archive.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()), archive.Limits{}, nil)
		switch {
		case c.invalid && (err == nil || !errors.Is(err, archive.ErrInvalid) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s made on host %d with %#x: %v, want a refusal with %q", c.name, c.host, c.attrs, err, c.want)
		case !c.invalid && err != nil:
			t.Errorf("%s made on host %d with %#x: %v", c.name, c.host, c.attrs, err)
		case !c.invalid && string(a.Entries[0].Kind) != c.want:
			t.Errorf("%s made on host %d with %#x: a %s, want a %s", c.name, c.host, c.attrs, a.Entries[0].Kind, c.want)
		}
	}
}

// TestZip64ArchiveOfOurWriterReads reads a backup of more than 65,535
// entries, which our writer ends with ZIP64 end records.
func TestZip64ArchiveOfOurWriterReads(t *testing.T) {
	const folders = 1 << 16
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, nil)
	for i := range folders {
		if err := w.AddFolder(fmt.Sprintf("f%05d", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.AddFile("f00000/a.dst", []byte(archivetest.Connection), nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	body := buf.Bytes()
	if binary.LittleEndian.Uint16(body[len(body)-12:]) != 0xffff {
		t.Fatal("the writer wrote no ZIP64 end records")
	}
	limits := archive.Limits{MaxEntries: folders + 1}
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), limits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != folders+1 || a.Entries[1].Path != "f00000/a.dst" {
		t.Fatalf("%d entries, the second %q", len(a.Entries), a.Entries[1].Path)
	}
	if got, err := a.ReadFile(a.Entries[1]); err != nil || string(got) != archivetest.Connection {
		t.Fatalf("body %q, %v", got, err)
	}
	limits.MaxEntries = folders
	if _, err := archive.Open(bytes.NewReader(body), int64(len(body)), limits, nil); !errors.Is(err, archive.ErrTooLarge) {
		t.Fatalf("one entry past the cap: %v, want ErrTooLarge", err)
	}
}
