package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// SourceRef names a file a configuration reads from, as the platform links
// files: by path and UUID (a UUID wins when both are given).
type SourceRef struct {
	Path string `json:"path,omitempty"`
	UUID string `json:"uuid,omitempty"`
}

// PathRef is a link the platform writes as a plain path string (an export
// job's sheet's workbook: `"workbook":"/Admin/Sales.wbk"`). It reads the
// object form {path, uuid} too, which earlier dapconsole versions wrote.
type PathRef SourceRef

// MarshalJSON writes the path alone.
func (p PathRef) MarshalJSON() ([]byte, error) { return json.Marshal(p.Path) }

// UnmarshalJSON reads a path string or a {path, uuid} object.
func (p *PathRef) UnmarshalJSON(b []byte) error {
	var path string
	if err := json.Unmarshal(b, &path); err == nil {
		*p = PathRef{Path: path}
		return nil
	}
	var ref SourceRef
	if err := json.Unmarshal(b, &ref); err != nil {
		return fmt.Errorf("want a path or a {path, uuid} object: %w", err)
	}
	*p = PathRef(ref)
	return nil
}

// ConnectionPath is an export job's connection as the platform writes it:
// a plain path string without the connection's `.dst` extension
// (`"connection":"/Admin/DFS_DataStore"`). In memory Path carries the
// extension, so that it names the connection's file as every other link does.
type ConnectionPath SourceRef

// MarshalJSON writes the path without `.dst`.
func (c ConnectionPath) MarshalJSON() ([]byte, error) {
	return json.Marshal(strings.TrimSuffix(c.Path, KindConnection.Extension()))
}

// UnmarshalJSON reads a path string (with `.dst` or without) or a {path,
// uuid} object.
func (c *ConnectionPath) UnmarshalJSON(b []byte) error {
	var p PathRef
	if err := p.UnmarshalJSON(b); err != nil {
		return err
	}
	if p.Path != "" && !strings.HasSuffix(p.Path, KindConnection.Extension()) {
		p.Path += KindConnection.Extension()
	}
	*c = ConnectionPath(p)
	return nil
}

// Sheet is one sheet of a workbook (or an infographic): Datasource is the
// file it reads (an import job, a data link, a file upload), ReferencedSheet
// a sheet of another workbook it reads; both nil for a sheet computed from
// other sheets of its own workbook.
type Sheet struct {
	Name            string           `json:"name,omitempty"`
	Datasource      *SourceRef       `json:"datasource,omitempty"`
	ReferencedSheet *ReferencedSheet `json:"referencedSheet,omitempty"`
	// Extra holds the sheet's fields this package does not know, verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// ReferencedSheet is the sheet of another workbook a workbook's sheet
// reads: `"referencedSheet":{"workbook":{"path":"/W/Other.wbk"}, …}`.
type ReferencedSheet struct {
	Workbook *SourceRef `json:"workbook,omitempty"`
	// Extra holds the fields this package does not know, verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// ExportSheet is the sheet an export job writes out, in the workbook it
// names by path.
type ExportSheet struct {
	Name     string   `json:"name,omitempty"`
	Workbook *PathRef `json:"workbook,omitempty"`
	// Extra holds the sheet's fields this package does not know, verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// Configuration is the JSON representation of a file of the tree, in the
// real platform's shape: a connection (the spec's Connection read
// response), an import job, a data link, a workbook, an export job, an
// infographic or a file upload. A file links the files it reads from the
// platform's way: an import job, a data link or a file upload its
// connection as DataStore, an export job its connection as Connection (a
// path string) and its workbook through Sheet, a workbook or an infographic
// its inputs through Sheets[].Datasource and the sheets of other workbooks
// through Sheets[].ReferencedSheet. Fields this package does not know are
// kept in Extra and written back as they came.
type Configuration struct {
	Version      string              `json:"version"`
	ClassName    string              `json:"className"`
	File         FileInfo            `json:"file"`
	TypeID       string              `json:"typeId,omitempty"`
	PullType     string              `json:"pullType,omitempty"`
	MinKeepCount *int                `json:"minKeepCount,omitempty"`
	Properties   map[string][]string `json:"properties"`
	// HadoopProperties is a hidden property: only an administrator changes it.
	HadoopProperties string          `json:"hadoopProperties,omitempty"`
	DBType           *DBType         `json:"dbType,omitempty"`
	DataStore        *SourceRef      `json:"dataStore,omitempty"`
	Connection       *ConnectionPath `json:"connection,omitempty"`
	Sheet            *ExportSheet    `json:"sheet,omitempty"`
	Sheets           []Sheet         `json:"sheets,omitempty"`
	// Sources is the list of files read from that archives and servers of
	// earlier dapconsole versions wrote; it is read, never written.
	// AdoptSources moves it into the links of the file's kind.
	Sources []SourceRef `json:"-"`
	// Extra holds the fields this package does not know, verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// MemberDataPermission is the member of a workbook that says who may read
// the data it computes, as the platform's v2 workbook writes it:
// {"groups":{"<group>":…},"owner":"…","permissionForOthers":false}. Only
// the workbook's owner or an administrator changes it.
const MemberDataPermission = "dataPermission"

// SameMember reports whether two members kept verbatim (Extra) say the
// same, whatever their spacing; a missing member is only the same as
// another missing one.
func SameMember(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// Property returns the first value of a property, or "".
func (c Configuration) Property(key string) string {
	if v := c.Properties[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// ConnectionRef returns the connection a job reads or writes through
// (DataStore, or an export job's Connection), nil when it has none.
func (c *Configuration) ConnectionRef() *SourceRef {
	if c.DataStore != nil {
		return c.DataStore
	}
	return (*SourceRef)(c.Connection)
}

// Links returns the files the configuration reads from, in a fixed order:
// its connection, its export sheet's workbook, then per sheet its
// datasource and its referenced sheet's workbook.
func (c *Configuration) Links() []SourceRef {
	var links []SourceRef
	for _, ref := range c.linkFields() {
		links = append(links, *ref)
	}
	return links
}

// SetLinks replaces the links Links returns, in the same order; refs must be
// as many as Links returns.
func (c *Configuration) SetLinks(refs []SourceRef) {
	for i, ref := range c.linkFields() {
		*ref = refs[i]
	}
}

// linkFields points at every link, in the order of Links.
func (c *Configuration) linkFields() []*SourceRef {
	var fields []*SourceRef
	if c.DataStore != nil {
		fields = append(fields, c.DataStore)
	}
	if c.Connection != nil {
		fields = append(fields, (*SourceRef)(c.Connection))
	}
	if c.Sheet != nil && c.Sheet.Workbook != nil {
		fields = append(fields, (*SourceRef)(c.Sheet.Workbook))
	}
	for i := range c.Sheets {
		if s := &c.Sheets[i]; s.Datasource != nil {
			fields = append(fields, s.Datasource)
		}
		if s := &c.Sheets[i]; s.ReferencedSheet != nil && s.ReferencedSheet.Workbook != nil {
			fields = append(fields, s.ReferencedSheet.Workbook)
		}
	}
	return fields
}

// AdoptSources moves Sources, the links of earlier versions, into the links
// of a file of the kind: a connection (told by its path's extension, or the
// first source of an import job, a data link or a file upload) becomes
// DataStore, an export job's its Connection, an export job's first other
// source its Sheet's workbook, and every other source a sheet of its own,
// in order.
func (c *Configuration) AdoptSources(kind Kind) {
	for i, src := range c.Sources {
		src := src
		srcKind, known := KindOfPath(src.Path)
		isConnection := srcKind == KindConnection || (!known && i == 0 && kind.ImportFamily())
		switch {
		case isConnection && kind == KindExportJob && c.Connection == nil:
			c.Connection = (*ConnectionPath)(&src)
		case isConnection && kind != KindExportJob && c.DataStore == nil:
			c.DataStore = &src
		case kind == KindExportJob && c.Sheet == nil:
			c.Sheet = &ExportSheet{Name: sheetName(src), Workbook: (*PathRef)(&src)}
		default:
			c.Sheets = append(c.Sheets, Sheet{Name: sheetName(src), Datasource: &src})
		}
	}
	c.Sources = nil
}

// sheetName names a sheet after the file it reads, as the platform does.
func sheetName(src SourceRef) string {
	name := src.Path[strings.LastIndexByte(src.Path, '/')+1:]
	if kind, ok := KindOfPath(name); ok {
		name = strings.TrimSuffix(name, kind.Extension())
	}
	return name
}

// Wire forms without the methods below, so that encoding/json handles the
// known fields.
type (
	configurationFields   Configuration
	sheetFields           Sheet
	exportSheetFields     ExportSheet
	referencedSheetFields ReferencedSheet
)

var (
	configurationNames   = jsonNames(reflect.TypeFor[Configuration]())
	sheetNames           = jsonNames(reflect.TypeFor[Sheet]())
	exportSheetNames     = jsonNames(reflect.TypeFor[ExportSheet]())
	referencedSheetNames = jsonNames(reflect.TypeFor[ReferencedSheet]())
)

// UnmarshalJSON reads the known fields, the legacy sources, and keeps the
// rest in Extra.
func (c *Configuration) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*configurationFields)(c), configurationNames)
	if err != nil {
		return err
	}
	legacy := false
	for name := range extra {
		if strings.EqualFold(name, legacySourcesName) {
			delete(extra, name)
			legacy = true
		}
	}
	if len(extra) == 0 {
		extra = nil
	}
	c.Extra = extra
	if !legacy {
		return nil
	}
	// Read by encoding/json's rule for names (any case), as a restore's index
	// reads them: both must see the same links, or the file loses them.
	var fields struct {
		Sources []SourceRef `json:"sources"`
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		return fmt.Errorf("sources: %w", err)
	}
	c.Sources = fields.Sources
	return nil
}

// legacySourcesName is the member that held Sources in earlier versions.
const legacySourcesName = "sources"

// MarshalJSON writes the known fields, then Extra; never Sources.
func (c Configuration) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(configurationFields(c), c.Extra, configurationNames)
}

// UnmarshalJSON reads the known fields and keeps the rest in Extra.
func (s *Sheet) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*sheetFields)(s), sheetNames)
	s.Extra = extra
	return err
}

// MarshalJSON writes the known fields, then Extra.
func (s Sheet) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(sheetFields(s), s.Extra, sheetNames)
}

// UnmarshalJSON reads the known fields and keeps the rest in Extra.
func (s *ExportSheet) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*exportSheetFields)(s), exportSheetNames)
	s.Extra = extra
	return err
}

// MarshalJSON writes the known fields, then Extra.
func (s ExportSheet) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(exportSheetFields(s), s.Extra, exportSheetNames)
}

// UnmarshalJSON reads the known fields and keeps the rest in Extra.
func (s *ReferencedSheet) UnmarshalJSON(data []byte) error {
	extra, err := decodeKeepingExtra(data, (*referencedSheetFields)(s), referencedSheetNames)
	s.Extra = extra
	return err
}

// MarshalJSON writes the known fields, then Extra.
func (s ReferencedSheet) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(referencedSheetFields(s), s.Extra, referencedSheetNames)
}

// jsonNames returns the lower-cased JSON names of a struct type's fields,
// and the names given besides; encoding/json matches names without regard to case.
func jsonNames(t reflect.Type, also ...string) map[string]bool {
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names[strings.ToLower(name)] = true
		}
	}
	for _, name := range also {
		names[strings.ToLower(name)] = true
	}
	return names
}

// decodeKeepingExtra decodes data into known and returns the members of the
// object whose names are not in known's names (nil when there are none).
func decodeKeepingExtra(data []byte, known any, names map[string]bool) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, known); err != nil {
		return nil, err
	}
	if onlyKnownMembers(data, names) { // the usual case, told without copying every member
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	for name := range all {
		if names[strings.ToLower(name)] {
			delete(all, name)
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

// onlyKnownMembers reports whether every member of the JSON object in
// data (valid JSON: json.Unmarshal read it) has its name, lower-cased, in
// names. It walks the object's top level without allocating, and answers
// false whenever it is unsure (a name with an escape, a non-ASCII or a long
// name), leaving those to encoding/json.
func onlyKnownMembers(data []byte, names map[string]bool) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	if i = skipSpace(data, i+1); i < len(data) && data[i] == '}' {
		return true
	}
	var lower [64]byte
	for i < len(data) && data[i] == '"' {
		n := 0
		for i++; i < len(data) && data[i] != '"'; i++ {
			c := data[i]
			if c == '\\' || c >= utf8.RuneSelf || n == len(lower) {
				return false
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[n] = c
			n++
		}
		if !names[string(lower[:n])] {
			return false
		}
		if i = skipSpace(data, i+1); i >= len(data) || data[i] != ':' {
			return false
		}
		if i = skipSpace(data, skipValue(data, skipSpace(data, i+1))); i >= len(data) {
			return false
		}
		switch data[i] {
		case '}':
			return true
		case ',':
			i = skipSpace(data, i+1)
		default:
			return false
		}
	}
	return false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value that starts at i:
// a string, an object, an array or a scalar.
func skipValue(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			continue
		case '}', ']':
			if depth == 0 { // a scalar ends where its object does
				return i
			}
			depth--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
			continue
		default: // within a scalar, or a colon
			continue
		}
		if depth == 0 { // past a string or the bracket that closes the value
			return i + 1
		}
	}
	return i
}

// encodeWithExtra writes known as a JSON object followed by the extra
// members, by name; an extra member that shadows a known name is left out.
func encodeWithExtra(known any, extra map[string]json.RawMessage, names map[string]bool) ([]byte, error) {
	b, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !names[strings.ToLower(k)] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	for i, k := range keys {
		if i > 0 || len(b) > 2 {
			buf.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		buf.Write(name)
		buf.WriteByte(':')
		if v := extra[k]; len(v) > 0 {
			buf.Write(v)
		} else {
			buf.WriteString("null")
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
