package model

import (
	"encoding/json"
	"reflect"
	"strings"
)

// WorkbookV2 is a workbook as the v2 interface reads it, by file id or
// UUID (`/api/workbooks/<id>`; `/api/filesystem/workbooks/<id>` in releases
// before 7): the workbook, and its links.
type WorkbookV2 struct {
	Workbook WorkbookV2Body `json:"workbook"`
	Links    Links          `json:"_links,omitempty"`
}

// WorkbookV2Body is the `workbook` object of a v2 workbook read.
type WorkbookV2Body struct {
	Version string     `json:"_version,omitempty"`
	File    V2FileInfo `json:"file"`
	Sheets  []V2Sheet  `json:"sheets"`
	// Extra holds the fields this package does not know, verbatim
	// (dataPermission, errorHandling, jobConfiguration, …).
	Extra map[string]json.RawMessage `json:"-"`
}

// V2FileInfo is the `file` object of a v2 workbook: unlike FileInfo it
// names its folder (`[path, uuid]`) rather than its path, and carries
// ISO 8601 times and the file's permission.
type V2FileInfo struct {
	UUID        string          `json:"uuid"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Extension   string          `json:"extension,omitempty"`
	Folder      []string        `json:"folder,omitempty"`
	CreatedAt   ISODateTime     `json:"createdAt,omitzero"`
	ModifiedAt  ISODateTime     `json:"modifiedAt,omitzero"`
	Permission  json.RawMessage `json:"permission,omitempty"`
}

// Path is the workbook's path: its folder's path, its name and `.wbk`;
// "" when the read names no folder.
func (f V2FileInfo) Path() string {
	if len(f.Folder) == 0 || f.Folder[0] == "" {
		return ""
	}
	return strings.TrimSuffix(f.Folder[0], "/") + "/" + f.Name + KindWorkbook.Extension()
}

// V2Sheet is one sheet of a v2 workbook. A `DataSourceReferenceSheet`
// reads the import job, data link or file upload whose UUID it carries.
type V2Sheet struct {
	Type string `json:"_type"`
	UUID string `json:"uuid,omitempty"`
	Name string `json:"name,omitempty"`
	// Extra holds the sheet's fields this package does not know, verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// SheetTypeDataSourceReference is the `_type` of a v2 sheet that reads a
// data source.
const SheetTypeDataSourceReference = "DataSourceReferenceSheet"

// Configuration returns the workbook in the v1 shape the rest of the
// console reads: its file, and a sheet per sheet whose data sources are
// links, so that Links names what the workbook reads.
func (w WorkbookV2) Configuration() Configuration {
	f := w.Workbook.File
	cfg := Configuration{Version: w.Workbook.Version,
		File: FileInfo{UUID: f.UUID, Path: f.Path(), Description: f.Description, Name: f.Name}}
	for _, s := range w.Workbook.Sheets {
		sheet := Sheet{Name: s.Name}
		if s.Type == SheetTypeDataSourceReference && s.UUID != "" {
			sheet.Datasource = &SourceRef{UUID: s.UUID}
		}
		cfg.Sheets = append(cfg.Sheets, sheet)
	}
	return cfg
}

type (
	workbookV2BodyFields WorkbookV2Body
	v2SheetFields        V2Sheet
)

var (
	workbookV2BodyNames = jsonNames(reflect.TypeFor[WorkbookV2Body]())
	v2SheetNames        = jsonNames(reflect.TypeFor[V2Sheet]())
)

// UnmarshalJSON reads the known fields and keeps the rest in Extra.
func (b *WorkbookV2Body) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*workbookV2BodyFields)(b), workbookV2BodyNames)
	b.Extra = extra
	return err
}

// MarshalJSON writes the known fields, then Extra.
func (b WorkbookV2Body) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(workbookV2BodyFields(b), b.Extra, workbookV2BodyNames)
}

// UnmarshalJSON reads the known fields and keeps the rest in Extra.
func (s *V2Sheet) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*v2SheetFields)(s), v2SheetNames)
	s.Extra = extra
	return err
}

// MarshalJSON writes the known fields, then Extra.
func (s V2Sheet) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(v2SheetFields(s), s.Extra, v2SheetNames)
}
