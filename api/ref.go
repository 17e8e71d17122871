package api

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

type refKind uint8

const (
	refNone refKind = iota
	refByFileID
	refByUUID
	refByPath
)

// Ref names a file or folder: by file id, by UUID or by path. Backup,
// restore and the job endpoints take any of the three; the spec's folder and
// permission endpoints take an id or a UUID (the embedded server takes paths
// there too).
type Ref struct {
	kind  refKind
	id    int64
	value string
	// file sends the permission family under /api/filesystem/files/, the
	// real platform's address for a file that is not a folder.
	file bool
}

// FileID refers to a file by its integer file id.
func FileID(id int64) Ref { return Ref{kind: refByFileID, id: id} }

// UUID refers to a file by its UUID.
func UUID(uuid string) Ref { return Ref{kind: refByUUID, value: uuid} }

// Path refers to a file by its path from the root, e.g. "/Data/My Folder".
func Path(path string) Ref { return Ref{kind: refByPath, value: path} }

// ParseRef reads a ref as a person writes one: a positive number is a file
// id, 8-4-4-4-12 hex digits a UUID, anything else a path.
func ParseRef(s string) Ref {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return FileID(id)
	}
	if len(s) == 36 && uuid.Validate(s) == nil {
		return UUID(s)
	}
	return Path(s)
}

// AsFile returns the ref addressed as a file (not a folder): the permission
// methods then use `/api/filesystem/files/<ref>/permission…`, which the real
// platform offers for jobs, workbooks and connections.
func (r Ref) AsFile() Ref {
	r.file = true
	return r
}

// IsZero reports whether the ref names nothing (the zero Ref).
func (r Ref) IsZero() bool {
	switch r.kind {
	case refByFileID:
		return r.id <= 0
	case refByUUID, refByPath:
		return r.value == ""
	}
	return true
}

// IsPath reports whether the ref is a path.
func (r Ref) IsPath() bool { return r.kind == refByPath }

// String returns the ref as a person writes it: "42", the UUID, or the path.
func (r Ref) String() string {
	if r.kind == refByFileID {
		return strconv.FormatInt(r.id, 10)
	}
	return r.value
}

// PathSegment returns the ref encoded as one URL path segment, as the spec
// asks: every byte outside the unreserved set is percent-encoded, so "/"
// becomes %2F and a space %20 (never "+", which url.QueryEscape would write,
// and url.PathEscape would leave "/" as is).
func (r Ref) PathSegment() string { return escapeSegment(r.String()) }

// MarshalJSON writes the ref as an element of a backup selection: a file id
// as a number, a UUID or a path as a string.
func (r Ref) MarshalJSON() ([]byte, error) {
	if r.kind == refByFileID {
		return strconv.AppendInt(nil, r.id, 10), nil
	}
	return json.Marshal(r.value)
}

// escapeSegment percent-encodes every byte except RFC 3986's unreserved
// characters (ALPHA DIGIT - . _ ~), with upper-case hex digits.
func escapeSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUnreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0x0F])
	}
	return b.String()
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}
