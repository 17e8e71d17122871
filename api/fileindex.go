package api

import (
	"context"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// FileEntry is a file one of the per-kind lists named, with its kind.
type FileEntry struct {
	model.FileEntry
	Kind model.Kind
}

// FileName is the last segment of the entry's path, extension included.
func (e FileEntry) FileName() string { return e.Path[strings.LastIndexByte(e.Path, '/')+1:] }

// FileIndex is every file the per-kind lists named, read once, by the folder
// holding it and by path; the folder tree shows files from it and the
// sequential trigger resolves paths with it.
type FileIndex struct {
	byFolder map[string][]FileEntry // by name within a folder
	byPath   map[string]FileEntry
	byUUID   map[string]FileEntry
	// Missing are the kinds the server lists not (an older release, a
	// missing plug-in): their files are not in the index.
	Missing []model.Kind
}

// parentOf is the path of the folder holding path.
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// ReadFileIndex reads every per-kind list (the import-job family's once,
// for imports, links and uploads) and indexes what they name. A kind the
// server does not list is left out and named in Missing; any other failure
// is the error.
func ReadFileIndex(ctx context.Context, client *Client) (*FileIndex, error) {
	listed, missing, err := client.ListFiles(ctx, ListedKinds...)
	if err != nil {
		return nil, err
	}
	x := NewFileIndex(listed)
	x.Missing = missing
	return x, nil
}

// NewFileIndex indexes entries by folder and by path.
func NewFileIndex(entries []FileEntry) *FileIndex {
	x := &FileIndex{byFolder: map[string][]FileEntry{}, byPath: make(map[string]FileEntry, len(entries)),
		byUUID: make(map[string]FileEntry, len(entries))}
	for _, e := range entries {
		x.byPath[e.Path] = e
		if e.UUID != "" {
			x.byUUID[e.UUID] = e
		}
		folder := parentOf(e.Path)
		x.byFolder[folder] = append(x.byFolder[folder], e)
	}
	for _, files := range x.byFolder {
		slices.SortFunc(files, func(a, b FileEntry) int { return strings.Compare(a.Path, b.Path) })
	}
	return x
}

// In returns the files directly inside a folder, by name.
func (x *FileIndex) In(folder string) []FileEntry {
	if x == nil {
		return nil
	}
	return x.byFolder[folder]
}

// ByPath returns the file at a path.
func (x *FileIndex) ByPath(path string) (FileEntry, bool) {
	if x == nil {
		return FileEntry{}, false
	}
	e, ok := x.byPath[path]
	return e, ok
}

// ByUUID returns the file with a UUID.
func (x *FileIndex) ByUUID(uuid string) (FileEntry, bool) {
	if x == nil {
		return FileEntry{}, false
	}
	e, ok := x.byUUID[uuid]
	return e, ok
}

// Len is the number of files indexed.
func (x *FileIndex) Len() int {
	if x == nil {
		return 0
	}
	return len(x.byPath)
}

// MissingText says which kinds the server lists not, "" when it lists all.
func (x *FileIndex) MissingText() string {
	if x == nil || len(x.Missing) == 0 {
		return ""
	}
	names := make([]string, len(x.Missing))
	for i, k := range x.Missing {
		names[i] = string(k)
	}
	return "this server does not list " + strings.Join(names, ", ") + " files: the tree shows the other kinds"
}

// OfKind returns the files of a kind, by path.
func (x *FileIndex) OfKind(kind model.Kind) []FileEntry {
	var out []FileEntry
	for _, e := range x.byPath {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b FileEntry) int { return strings.Compare(a.Path, b.Path) })
	return out
}
