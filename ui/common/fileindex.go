package common

import "github.com/dapconsole/dapconsole/api"

// The file index is the api package's, which the command line shares; the
// panes name it here as they did before it moved.
type (
	FileEntry = api.FileEntry
	FileIndex = api.FileIndex
)

var (
	ReadFileIndex = api.ReadFileIndex
	NewFileIndex  = api.NewFileIndex
)
