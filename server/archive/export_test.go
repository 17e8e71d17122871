package archive

import "bytes"

// DeflateFixed lets the external tests reach deflateFixed.
var DeflateFixed = deflateFixed

// DirectoryBounds returns where the central directory of an archive starts
// and where the end record after it starts, for tests that must tell the
// data before it, and the end records after it, from it.
func DirectoryBounds(body []byte) (start, end int64, err error) {
	d, err := findDirectory(bytes.NewReader(body), int64(len(body)))
	return d.start, d.end, err
}

// DirectoryHeaderLen is the fixed part of a central directory header.
const DirectoryHeaderLen = directoryHeaderLen
