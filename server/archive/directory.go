package archive

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
)

// The central directory is read here as a stream, one header at a time,
// and of each entry only its name and where its header is are kept; what
// reading its body needs (a record) is read from the header again then.
// archive/zip keeps a *zip.File of some 250 bytes, with its name, extra
// field and comment, for every entry, which made a restore's memory grow
// with its entry count. The layout is APPNOTE.TXT's (sections 4.3.12 to
// 4.3.16); where the format leaves room, this reader takes what archive/zip
// takes, so that every archive it opened still opens.

const (
	directoryHeaderSignature = 0x02014b50
	localHeaderSignature     = 0x04034b50
	directoryEndSignature    = 0x06054b50
	zip64LocatorSignature    = 0x07064b50
	zip64EndSignature        = 0x06064b50

	directoryHeaderLen = 46
	localHeaderLen     = 30
	directoryEndLen    = 22
	zip64LocatorLen    = 20
	zip64EndLen        = 56

	zip64ExtraID = 0x0001

	methodStore   = 0
	methodDeflate = 8

	flagEncrypted = 0x1

	// The host that made an entry (the high byte of "version made by")
	// says how its external attributes hold its type.
	creatorFAT, creatorUnix, creatorNTFS, creatorVFAT, creatorMacOSX = 0, 3, 11, 14, 19
)

// errFormat is a structure that is not a ZIP archive's; Open tells it as
// ErrInvalid ("not a ZIP archive, or cut short").
var errFormat = errors.New("malformed end of central directory or directory header")

// record is what reading an entry's body needs: where its local header is,
// its sizes and checksum as the central directory declares them (they win
// over the local header's and a data descriptor's, which writers that
// stream leave empty), and its compression method.
type record struct {
	offset int64 // of the local file header in the file
	csize  uint64
	usize  uint64
	crc    uint32
	method uint16
	// folder is set for a name ending in "/": its body is not read, only
	// its local header checked, as archive/zip does (some writers give
	// folders a compressed size of an empty deflate stream).
	folder bool
}

// directoryHeader is one central directory header, valid until the next is read.
type directoryHeader struct {
	record
	at             int64 // where it is in the file
	length         int64 // its bytes, name, extra field and comment included
	flags          uint16
	creatorVersion uint16
	externalAttrs  uint32
	name           []byte
}

// mode returns the file type bits of the entry as archive/zip's
// FileHeader.Mode derives them: from Unix mode bits for Unix and macOS
// hosts, from the MS-DOS folder attribute for FAT, VFAT and NTFS, and a
// folder whenever the name ends in "/". Permission bits are not judged and
// not returned.
func (h *directoryHeader) mode() fs.FileMode {
	var mode fs.FileMode
	switch h.creatorVersion >> 8 {
	case creatorUnix, creatorMacOSX:
		mode = unixType(h.externalAttrs >> 16)
	case creatorNTFS, creatorVFAT, creatorFAT:
		if h.externalAttrs&0x10 != 0 {
			mode = fs.ModeDir
		}
	}
	if n := len(h.name); n > 0 && h.name[n-1] == '/' {
		mode |= fs.ModeDir
	}
	return mode
}

// unixType is the fs type of a Unix st_mode's S_IFMT bits.
func unixType(m uint32) fs.FileMode {
	switch m & 0xf000 {
	case 0x6000:
		return fs.ModeDevice
	case 0x2000:
		return fs.ModeDevice | fs.ModeCharDevice
	case 0x4000:
		return fs.ModeDir
	case 0x1000:
		return fs.ModeNamedPipe
	case 0xa000:
		return fs.ModeSymlink
	case 0xc000:
		return fs.ModeSocket
	}
	return 0
}

// directory is where the central directory is and what its end record declares.
type directory struct {
	start   int64  // offset of its first header in the file
	end     int64  // offset of the end record after it (the ZIP64 one, if any)
	records uint64 // entries it declares
	// base is added to every offset the directory gives: the length of
	// data prepended to the archive (a self-extracting stub), or 0.
	base int64
}

// findDirectory reads the end of central directory record, and the ZIP64
// one where the record says its fields overflowed.
func findDirectory(ra io.ReaderAt, size int64) (directory, error) {
	// The end record is the last thing in the file but for its comment
	// (at most 65,535 bytes); the last signature whose comment fits is it.
	tail := make([]byte, min(size, 65*1024))
	if _, err := ra.ReadAt(tail, size-int64(len(tail))); err != nil && err != io.EOF {
		return directory{}, err
	}
	at := -1
	for i := len(tail) - directoryEndLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == directoryEndSignature {
			if i+directoryEndLen+int(binary.LittleEndian.Uint16(tail[i+20:])) <= len(tail) {
				at = i
			}
			break
		}
	}
	if at < 0 {
		return directory{}, errors.New("no end of central directory record")
	}
	end := tail[at:]
	endOffset := size - int64(len(tail)) + int64(at)
	d := directory{records: uint64(binary.LittleEndian.Uint16(end[10:]))}
	dirSize := uint64(binary.LittleEndian.Uint32(end[12:]))
	dirOffset := uint64(binary.LittleEndian.Uint32(end[16:]))
	// archive/zip also looks for ZIP64 when the size reads 0xffff; so do
	// we, so that every archive it opens opens here.
	if d.records == 0xffff || dirSize == 0xffff || dirSize == 0xffffffff || dirOffset == 0xffffffff {
		at, err := findZip64End(ra, endOffset)
		if err != nil {
			return directory{}, err
		}
		if at >= 0 {
			var rec [zip64EndLen]byte
			if _, err := ra.ReadAt(rec[:], at); err != nil {
				return directory{}, err
			}
			if binary.LittleEndian.Uint32(rec[:]) != zip64EndSignature {
				return directory{}, errors.New("no ZIP64 end of central directory record where its locator points")
			}
			d.records = binary.LittleEndian.Uint64(rec[32:])
			dirSize = binary.LittleEndian.Uint64(rec[40:])
			dirOffset = binary.LittleEndian.Uint64(rec[48:])
			endOffset = at
		}
	}
	if dirSize > 1<<63-1 || dirOffset > 1<<63-1 {
		return directory{}, errFormat
	}
	// The directory ends where the end record starts: what lies between
	// where it says it starts and where it does was prepended.
	d.base = endOffset - int64(dirSize) - int64(dirOffset)
	d.end = endOffset
	if d.start = d.base + int64(dirOffset); d.start < 0 || d.start > d.end {
		return directory{}, errors.New("the central directory lies outside the file")
	}
	// Some writers declare a directory size that makes base wrong; a
	// header where the offset points without it says which is right.
	if d.base > 0 {
		var h directoryHeader
		var scratch []byte
		if readDirectoryHeader(bufio.NewReader(io.NewSectionReader(ra, int64(dirOffset), size-int64(dirOffset))), &h, &scratch) == nil {
			d.base, d.start = 0, int64(dirOffset)
		}
	}
	return d, nil
}

// findZip64End returns the offset of the ZIP64 end record, or -1 when no
// valid locator precedes the end record at endOffset.
func findZip64End(ra io.ReaderAt, endOffset int64) (int64, error) {
	at := endOffset - zip64LocatorLen
	if at < 0 {
		return -1, nil
	}
	var loc [zip64LocatorLen]byte
	if _, err := ra.ReadAt(loc[:], at); err != nil {
		return -1, err
	}
	if binary.LittleEndian.Uint32(loc[:]) != zip64LocatorSignature ||
		binary.LittleEndian.Uint32(loc[4:]) != 0 || binary.LittleEndian.Uint32(loc[16:]) != 1 { // one disk, the first
		return -1, nil
	}
	return int64(binary.LittleEndian.Uint64(loc[8:])), nil
}

// readDirectory calls visit with every header of the central directory, in
// order, until one does not read (the end record follows the last), then
// checks that as many were read as the end record declares. It stops at
// the first error of visit. A header must end where the end record starts:
// one that runs into it (archive/zip reads on through it) would make the
// end record's bytes part of an entry's name, extra field or comment.
func readDirectory(ra io.ReaderAt, d directory, visit func(h *directoryHeader) error) error {
	br := bufio.NewReaderSize(io.NewSectionReader(ra, d.start, d.end-d.start), 64<<10)
	var h directoryHeader
	var scratch []byte
	read := uint64(0)
	var err error
	for at := d.start; ; at += h.length {
		if err = readDirectoryHeader(br, &h, &scratch); err != nil {
			break
		}
		h.offset += d.base
		h.at = at
		if err := visit(&h); err != nil {
			return err
		}
		read++
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("a central directory header runs into the end record")
	}
	// Only the count's low 16 bits are compared, as archive/zip compares
	// them: writers that did not write ZIP64 cut the count to them. What
	// Open keeps is capped by entries read, whatever the count says.
	if uint16(read) != uint16(d.records) {
		return errors.New("the central directory holds fewer or more headers than its end record declares")
	}
	return nil
}

// readDirectoryHeader reads the next header into h; h.name is valid until
// the next call, in scratch (which the fixed part is read into too: a local
// array would escape to the heap through io.ReadFull, once a header).
func readDirectoryHeader(br *bufio.Reader, h *directoryHeader, scratch *[]byte) error {
	if cap(*scratch) < directoryHeaderLen {
		*scratch = make([]byte, 512)
	}
	b := (*scratch)[:directoryHeaderLen]
	u16 := func(at int) uint16 { return binary.LittleEndian.Uint16(b[at:]) }
	u32 := func(at int) uint32 { return binary.LittleEndian.Uint32(b[at:]) }
	// What follows the last header is either nothing or not a header; only
	// a header's signature says that the bytes after it were cut short.
	switch n, err := io.ReadFull(br, b); {
	case err == io.EOF:
		return err
	case n < 4 || u32(0) != directoryHeaderSignature:
		return errFormat
	case err != nil:
		return err
	}
	h.creatorVersion, h.flags, h.method = u16(4), u16(8), u16(10)
	h.crc = u32(16)
	csize, usize, offset := u32(20), u32(24), u32(42)
	h.csize, h.usize, h.offset = uint64(csize), uint64(usize), int64(offset)
	h.externalAttrs = u32(38)
	nameLen, extraLen, commentLen := int(u16(28)), int(u16(30)), int(u16(32))
	if cap(*scratch) < nameLen+extraLen {
		*scratch = make([]byte, nameLen+extraLen)
	}
	rest := (*scratch)[:nameLen+extraLen]
	if _, err := io.ReadFull(br, rest); err != nil {
		return noEOF(err)
	}
	if _, err := br.Discard(commentLen); err != nil {
		return noEOF(err)
	}
	h.length = int64(directoryHeaderLen + nameLen + extraLen + commentLen)
	h.name = rest[:nameLen]
	h.folder = nameLen > 0 && rest[nameLen-1] == '/'
	return readZip64Extra(rest[nameLen:], &h.record, usize == 0xffffffff, csize == 0xffffffff, offset == 0xffffffff)
}

// noEOF tells a header cut short after its fixed part from the end of
// the directory, which only a header's first byte may meet.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readZip64Extra takes from the ZIP64 extra field the sizes and offset
// whose 32-bit fields overflowed, in the order APPNOTE 4.5.3 gives.
func readZip64Extra(extra []byte, r *record, needUSize, needCSize, needOffset bool) error {
	for len(extra) >= 4 {
		tag, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if len(extra)-4 < n {
			break
		}
		field := extra[4 : 4+n]
		extra = extra[4+n:]
		if tag != zip64ExtraID {
			continue
		}
		if needUSize {
			if r.usize, field, needUSize = take64(field); needUSize {
				return errFormat
			}
		}
		if needCSize {
			if r.csize, field, needCSize = take64(field); needCSize {
				return errFormat
			}
		}
		if needOffset {
			var offset uint64
			if offset, _, needOffset = take64(field); needOffset {
				return errFormat
			}
			r.offset = int64(offset)
		}
	}
	// An uncompressed size of 2³²-1 without ZIP64 is possible in an old
	// archive; a compressed size or offset that large is not.
	if needCSize || needOffset {
		return errFormat
	}
	return nil
}

// take64 returns the little-endian uint64 b starts with and what follows
// it, and short set when b is too short to hold one.
func take64(b []byte) (v uint64, rest []byte, short bool) {
	if len(b) < 8 {
		return 0, b, true
	}
	return binary.LittleEndian.Uint64(b), b[8:], false
}
