package archive

import "bytes"

// DeflateFixed lets the external tests reach deflateFixed.
var DeflateFixed = deflateFixed

// DirectoryStart returns where the central directory of an archive starts,
// for tests that must tell the data before it from it.
func DirectoryStart(body []byte) (int64, error) {
	d, err := findDirectory(bytes.NewReader(body), int64(len(body)))
	return d.start, err
}
