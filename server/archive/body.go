package archive

import (
	"bufio"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

// bodyReader reads entries' bodies out of an archive, one at a time, and
// keeps its buffers and inflater from one entry to the next: a restore
// reads a hundred thousand bodies of a few hundred bytes.
type bodyReader struct {
	src source
	// directory reads an entry's central directory header again, in one
	// small read most of the time: what reading a body needs is not kept
	// per entry between the reads.
	directory        *bufio.Reader
	directorySection io.SectionReader
	header           directoryHeader
	headerScratch    []byte
	local            [localHeaderLen]byte // in the reader, not on a stack it would escape from
	section          io.SectionReader
	buffered         *bufio.Reader // gives the inflater a ByteReader, so it wraps none of its own
	inflater         io.ReadCloser // a flate reader, reset for each deflated entry
	scratch          []byte        // what a body not kept is read through
	// body is the last body read with keep set; the next read reuses it.
	body []byte
}

// source is where an archive's bytes are, and how its directory's offsets
// are read.
type source struct {
	ra      io.ReaderAt
	size    int64
	dataEnd int64 // where the central directory starts: no data lies past it
	base    int64 // added to every offset the directory gives (see directory)
}

func newBodyReader(src source) *bodyReader {
	return &bodyReader{src: src}
}

// record reads the central directory header at the offset at again, which
// Open read and judged, and returns what reading the entry's body needs.
func (r *bodyReader) record(at int64) (*record, error) {
	r.directorySection = *io.NewSectionReader(r.src.ra, at, r.src.size-at)
	if r.directory == nil {
		r.directory = bufio.NewReaderSize(&r.directorySection, 256) // a header with a name of 200 bytes
	} else {
		r.directory.Reset(&r.directorySection)
	}
	if err := readDirectoryHeader(r.directory, &r.header, &r.headerScratch); err != nil {
		return nil, fmt.Errorf("its central directory header no longer reads: %v", err)
	}
	r.header.offset += r.src.base
	return &r.header.record, nil
}

// bodyReaders keeps body readers for ReadFile, which callers may run on
// several goroutines at once.
var bodyReaders sync.Pool

// read checks one entry's body: its local header, that its data lies
// before the central directory, and that it inflates to the size and
// checksum the central directory declares. With keep set, the body is
// returned; it is valid until the next read. name is the entry's, for
// errors. Open has capped every record's declared size, which bounds what
// a body may take here.
func (r *bodyReader) read(rec *record, name string, keep bool) ([]byte, error) {
	data, err := r.open(rec)
	if err != nil {
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, name, err)
	}
	if rec.folder {
		return nil, nil // a folder's body is not read, as archive/zip does not
	}
	want := rec.usize
	var n uint64
	crc, cut := uint32(0), false
	if keep {
		if uint64(cap(r.body)) < want+1 {
			r.body = make([]byte, want+1)
		}
		r.body = r.body[:cap(r.body)]
	} else if r.scratch == nil {
		r.scratch = make([]byte, 32<<10)
	}
	// One byte more than declared is asked for, to tell a body that is longer.
	for n <= want {
		buf := r.scratch
		if keep {
			buf = r.body[n : want+1]
		}
		k, err := data.Read(buf[:min(uint64(len(buf)), want+1-n)])
		crc = crc32.Update(crc, crc32.IEEETable, buf[:k])
		n += uint64(k)
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			cut = err != io.EOF // a deflate stream that stops before its end, whatever it gave
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, name, err)
		}
	}
	switch {
	case n > want:
		return nil, fmt.Errorf("%w: entry %q holds more bytes than its header declares (%d)", ErrInvalid, name, rec.usize)
	case n < want || cut:
		return nil, fmt.Errorf("%w: entry %q holds fewer bytes than its header declares (%d), or is cut short", ErrInvalid, name, rec.usize)
	case crc != rec.crc:
		return nil, fmt.Errorf("%w: entry %q fails its checksum", ErrInvalid, name)
	}
	if !keep {
		return nil, nil
	}
	return r.body[:n], nil
}

// readEntry reads an entry's central directory header again, then its
// body as read does.
func (r *bodyReader) readEntry(e Entry, keep bool) ([]byte, error) {
	rec, err := r.record(e.header - 1)
	if err != nil {
		return nil, fmt.Errorf("%w: entry %q: %v", ErrInvalid, e.Path, err)
	}
	return r.read(rec, e.Path, keep)
}

// open reads the local header of an entry, checks where its data lies and
// returns a reader of the data, inflated.
func (r *bodyReader) open(rec *record) (io.Reader, error) {
	local := r.local[:]
	if rec.offset < 0 || rec.offset > r.src.dataEnd-localHeaderLen {
		return nil, errors.New("its local header lies outside the archive")
	}
	if _, err := r.src.ra.ReadAt(local, rec.offset); err != nil {
		return nil, fmt.Errorf("its local header does not read: %v", err)
	}
	if binary.LittleEndian.Uint32(local) != localHeaderSignature {
		return nil, errors.New("no local file header where the central directory points")
	}
	start := rec.offset + localHeaderLen + int64(binary.LittleEndian.Uint16(local[26:])) + int64(binary.LittleEndian.Uint16(local[28:]))
	if start > r.src.dataEnd || rec.csize > uint64(r.src.dataEnd-start) {
		return nil, errors.New("its data runs past the start of the central directory")
	}
	if rec.folder {
		return nil, nil
	}
	r.section = *io.NewSectionReader(r.src.ra, start, int64(rec.csize))
	if r.buffered == nil {
		r.buffered = bufio.NewReaderSize(&r.section, 32<<10)
	} else {
		r.buffered.Reset(&r.section)
	}
	switch rec.method {
	case methodStore:
		return r.buffered, nil
	case methodDeflate:
		if r.inflater == nil {
			r.inflater = flate.NewReader(r.buffered)
		} else if err := r.inflater.(flate.Resetter).Reset(r.buffered, nil); err != nil {
			return nil, err
		}
		return r.inflater, nil
	}
	return nil, fmt.Errorf("compression method %d", rec.method)
}
