package archive

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/klauspost/compress/flate"
)

// entryTime is the modification time of every entry: the tree keeps no
// times, and a fixed one makes two backups of the same tree byte-identical.
var entryTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// msDOSDate and msDOSTime are entryTime as a ZIP header's MS-DOS date and time.
const (
	msDOSDate = (2000-1980)<<9 | 1<<5 | 1
	msDOSTime = 0
)

// stampRaw gives a header for CreateRaw what CreateHeader gives its own:
// CreateRaw writes the header as it is, so without this every file entry
// said it was modified on day 0 of month 0 of 1980 (unzip -l: 1980-00-00)
// by zip version 0.0.
func stampRaw(h *zip.FileHeader) {
	//lint:ignore SA1019 CreateRaw writes these fields as given; it makes none of them from Modified
	h.ModifiedDate, h.ModifiedTime = msDOSDate, msDOSTime
	h.ReaderVersion = zipVersion20
	h.CreatorVersion = h.CreatorVersion&0xff00 | zipVersion20
	h.Extra = entryTimeExtra
}

// zipVersion20 is the version a reader needs for deflate (APPNOTE 4.4.3).
const zipVersion20 = 20

// entryTimeExtra is the extended timestamp field (APPNOTE 4.5.2, 0x5455)
// holding entryTime, which CreateHeader writes beside the MS-DOS time.
var entryTimeExtra = binary.LittleEndian.AppendUint32([]byte{0x55, 0x54, 5, 0, 1}, uint32(entryTime.Unix()))

// Writer builds a backup archive on an io.Writer as entries are added: each
// one is compressed and written at once, so only the permissions metadata
// (a few dozen bytes a file, when a flag asks for it) is held until Close.
type Writer struct {
	zw    *zip.Writer
	names map[string]model.Kind
	meta  Metadata
}

// NewWriter starts an archive on w. included names the metadata sections
// (SectionOwner, ...) the backup records; with none, no metadata entry is written.
func NewWriter(w io.Writer, included []string) *Writer {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, fastDeflate)
	return &Writer{zw: zw, names: map[string]model.Kind{},
		meta: Metadata{Version: MetadataVersion, Included: included, Files: map[string]FileMeta{}}}
}

// deflaters keeps fast compressors for reuse: a backup compresses thousands
// of small entries, and a new compressor per entry costs more than the
// compression itself.
var deflaters sync.Pool

// fastDeflate compresses an entry at flate.BestSpeed: configurations are
// small JSON texts, where the best level saves a few bytes for much time.
// The compressor is klauspost/compress's: for entries of a few hundred
// bytes, compress/flate writes a dynamic Huffman table nearly as long as
// what it saves, and took a 10,000-file backup two to four times as long;
// klauspost's writes fixed codes when they are shorter.
func fastDeflate(w io.Writer) (io.WriteCloser, error) {
	if fw, ok := deflaters.Get().(*flate.Writer); ok {
		fw.Reset(w)
		return pooledDeflater{fw}, nil
	}
	fw, err := flate.NewWriter(w, flate.BestSpeed)
	return pooledDeflater{fw}, err
}

type pooledDeflater struct{ *flate.Writer }

// Close finishes the entry and gives the compressor back to the pool.
func (d pooledDeflater) Close() error {
	err := d.Writer.Close()
	deflaters.Put(d.Writer)
	return err
}

// AddFolder adds a folder entry ("path/") and its metadata (nil for none).
func (w *Writer) AddFolder(path string, meta *FileMeta) error {
	if err := w.claim(path, model.KindFolder); err != nil {
		return err
	}
	h := &zip.FileHeader{Name: path + "/", Method: zip.Store, Modified: entryTime}
	h.SetMode(fs.ModeDir | 0o755)
	if _, err := w.zw.CreateHeader(h); err != nil {
		return fmt.Errorf("archive %s: %w", path, err)
	}
	w.note(path, meta)
	return nil
}

// AddFile adds a platform file whose body is its JSON representation, and
// its metadata (nil for none). The path's extension must name its kind.
func (w *Writer) AddFile(path string, body []byte, meta *FileMeta) error {
	e, err := Compress(path, body)
	if err != nil {
		return err
	}
	return w.AddCompressed(e, meta)
}

// Compressed is a file's body made ready for the archive by Compress, which may
// run on other goroutines while earlier entries are written: a backup
// compresses on every core and still writes its entries in order.
type Compressed struct {
	path   string
	method uint16
	data   []byte // as stored in the archive
	crc    uint32
	size   int // of the body
}

// Compress prepares a platform file's body for AddCompressed: deflated at
// BestSpeed, or stored when deflating would not make it smaller. It is safe to
// call from many goroutines.
func Compress(path string, body []byte) (Compressed, error) {
	if _, ok := model.KindOfPath(path); !ok {
		return Compressed{}, fmt.Errorf("archive %s: %w: not a platform file name", path, ErrInvalid)
	}
	e := Compressed{path: path, method: zip.Store, data: body, crc: crc32.ChecksumIEEE(body), size: len(body)}
	deflated, err := deflate(body)
	if err != nil {
		return Compressed{}, fmt.Errorf("archive %s: %w", path, err)
	}
	if len(deflated) < len(body) {
		e.method, e.data = zip.Deflate, deflated
	}
	return e, nil
}

// deflate compresses body at BestSpeed into a slice of its own size
// (the pooled buffer it is written to is not kept with the entry).
func deflate(body []byte) ([]byte, error) {
	buf := deflateBuffers.Get().(*bytes.Buffer)
	defer deflateBuffers.Put(buf)
	buf.Reset()
	fw, err := fastDeflate(buf)
	if err == nil {
		_, err = fw.Write(body)
		if closeErr := fw.Close(); err == nil {
			err = closeErr
		}
	}
	return bytes.Clone(buf.Bytes()), err
}

var deflateBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// AddCompressed adds a file Compress prepared, and its metadata (nil for none).
func (w *Writer) AddCompressed(e Compressed, meta *FileMeta) error {
	kind, _ := model.KindOfPath(e.path)
	if err := w.claim(e.path, kind); err != nil {
		return err
	}
	h := &zip.FileHeader{Name: e.path, Method: e.method, Modified: entryTime, CRC32: e.crc,
		CompressedSize64: uint64(len(e.data)), UncompressedSize64: uint64(e.size)}
	h.SetMode(0o644)
	stampRaw(h)
	fw, err := w.zw.CreateRaw(h)
	if err != nil {
		return fmt.Errorf("archive %s: %w", e.path, err)
	}
	if _, err := fw.Write(e.data); err != nil {
		return fmt.Errorf("archive %s: %w", e.path, err)
	}
	w.note(e.path, meta)
	return nil
}

// claim checks a name the way the reader will, so the server never writes
// an archive it would refuse.
func (w *Writer) claim(path string, kind model.Kind) error {
	if err := checkName(path); err != nil {
		return fmt.Errorf("archive %s: %w", path, err)
	}
	if path == MetadataName {
		return fmt.Errorf("archive %s: %w: the name is reserved for the permissions entry", path, ErrInvalid)
	}
	if _, dup := w.names[path]; dup {
		return fmt.Errorf("archive %s: %w: added twice", path, ErrInvalid)
	}
	w.names[path] = kind
	return nil
}

func (w *Writer) note(path string, meta *FileMeta) {
	if meta != nil && len(w.meta.Included) > 0 {
		w.meta.Files[path] = *meta
	}
}

// Close writes the metadata entry and the central directory. The metadata
// entry is written when sections are included, and in an archive that
// would be empty otherwise: Info-ZIP's `unzip -t` fails on an archive
// without entries. It does not close the underlying writer.
func (w *Writer) Close() error {
	if len(w.meta.Included) > 0 || len(w.names) == 0 {
		body, err := json.Marshal(w.meta)
		if err != nil {
			return fmt.Errorf("archive %s: %w", MetadataName, err)
		}
		h := &zip.FileHeader{Name: MetadataName, Method: zip.Deflate, Modified: entryTime}
		h.SetMode(0o644)
		fw, err := w.zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("archive %s: %w", MetadataName, err)
		}
		if _, err := fw.Write(body); err != nil {
			return fmt.Errorf("archive %s: %w", MetadataName, err)
		}
	}
	if err := w.zw.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}
