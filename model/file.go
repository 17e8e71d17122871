package model

import "strings"

// Kind is the kind of a file in the tree, told by its extension.
type Kind string

// The file kinds of the platform, named after what they hold.
const (
	KindFolder      Kind = "folder"
	KindConnection  Kind = "connection"
	KindImportJob   Kind = "import-job"
	KindDataLink    Kind = "data-link"
	KindWorkbook    Kind = "workbook"
	KindExportJob   Kind = "export-job"
	KindInfographic Kind = "infographic"
	KindFileUpload  Kind = "file-upload"
)

var kindExtensions = []struct {
	kind Kind
	ext  string
}{
	{KindConnection, ".dst"},
	{KindImportJob, ".imp"},
	{KindDataLink, ".lnk"},
	{KindWorkbook, ".wbk"},
	{KindExportJob, ".exp"},
	{KindInfographic, ".gra"},
	{KindFileUpload, ".upl"},
}

// Extension returns the file extension of the kind, with its dot ("" for folders).
func (k Kind) Extension() string {
	for _, ke := range kindExtensions {
		if ke.kind == k {
			return ke.ext
		}
	}
	return ""
}

// KindOfPath returns the kind a path's extension names, and false when the
// extension is not one of the platform's.
func KindOfPath(path string) (Kind, bool) {
	for _, ke := range kindExtensions {
		if strings.HasSuffix(path, ke.ext) {
			return ke.kind, true
		}
	}
	return "", false
}

// Runnable reports whether files of the kind can be triggered as jobs.
func (k Kind) Runnable() bool {
	switch k {
	case KindImportJob, KindDataLink, KindWorkbook, KindExportJob:
		return true
	}
	return false
}
