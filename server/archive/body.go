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
	ra       io.ReaderAt
	dataEnd  int64 // where the central directory starts: no data lies past it
	section  io.SectionReader
	buffered *bufio.Reader // gives the inflater a ByteReader, so it wraps none of its own
	inflater io.ReadCloser // a flate reader, reset for each deflated entry
	scratch  []byte        // what a body not kept is read through
	// body is the last body read with keep set; the next read reuses it.
	body []byte
}

func newBodyReader(ra io.ReaderAt, dataEnd int64) *bodyReader {
	return &bodyReader{ra: ra, dataEnd: dataEnd}
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

// open reads the local header of an entry, checks where its data lies and
// returns a reader of the data, inflated.
func (r *bodyReader) open(rec *record) (io.Reader, error) {
	var local [localHeaderLen]byte
	if rec.offset < 0 || rec.offset > r.dataEnd-localHeaderLen {
		return nil, errors.New("its local header lies outside the archive")
	}
	if _, err := r.ra.ReadAt(local[:], rec.offset); err != nil {
		return nil, fmt.Errorf("its local header does not read: %v", err)
	}
	if binary.LittleEndian.Uint32(local[:]) != localHeaderSignature {
		return nil, errors.New("no local file header where the central directory points")
	}
	start := rec.offset + localHeaderLen + int64(binary.LittleEndian.Uint16(local[26:])) + int64(binary.LittleEndian.Uint16(local[28:]))
	if start > r.dataEnd || rec.csize > uint64(r.dataEnd-start) {
		return nil, errors.New("its data runs past the start of the central directory")
	}
	if rec.folder {
		return nil, nil
	}
	r.section = *io.NewSectionReader(r.ra, start, int64(rec.csize))
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
