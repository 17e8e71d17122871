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

// ImportFamilyKind tells the kind of an entry of the import-job family's
// list or read by its path's extension, as the platform does (`.imp`,
// `.lnk`, `.upl`): any other path is an import job.
func ImportFamilyKind(path string) Kind {
	if kind, ok := KindOfPath(path); ok && kind.ImportFamily() {
		return kind
	}
	return KindImportJob
}

// SystemFolder is the folder of the platform's own files (the hidden
// upload connection, system import jobs). Its files appear in lists, but
// reading them fails on the real platform, so clients skip them.
const SystemFolder = "/.system"

// InSystemFolder reports whether a path is inside SystemFolder.
func InSystemFolder(path string) bool { return strings.HasPrefix(path, SystemFolder+"/") }

// ImportFamily reports whether files of the kind are of the import-job
// family, which the platform lists and reads together at /rest/import-job:
// import jobs, data links and file uploads.
func (k Kind) ImportFamily() bool {
	return k == KindImportJob || k == KindDataLink || k == KindFileUpload
}

// Runnable reports whether files of the kind can be triggered as jobs.
func (k Kind) Runnable() bool {
	switch k {
	case KindImportJob, KindDataLink, KindWorkbook, KindExportJob:
		return true
	}
	return false
}
