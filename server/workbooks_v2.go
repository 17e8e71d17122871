package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// workbookV2Prefixes are the v2 workbook family's two homes: `/api/workbooks`
// since release 7, `/api/filesystem/workbooks` before; both are served. A
// workbook is named by file id or UUID. The embedded platform keeps every
// workbook as a v1 configuration: these endpoints translate both ways, and
// keep what they cannot translate verbatim.
var workbookV2Prefixes = []string{"/api/workbooks", "/api/filesystem/workbooks"}

// v2Version is the `_version` of the v2 shape served: the one the
// platform's documents show.
const v2Version = "5.11.0"

func (s *Server) registerWorkbookV2Routes(mux *http.ServeMux) {
	for _, prefix := range workbookV2Prefixes {
		mux.HandleFunc("GET "+prefix+"/{ref}", s.readWorkbookV2)
		mux.HandleFunc("POST "+prefix, s.createWorkbookV2)
		mux.HandleFunc("PUT "+prefix+"/{ref}", s.updateWorkbookV2)
	}
	for _, path := range []string{"/api/workbooks/rollback", "/api/filesystem/workbook-rollback"} {
		mux.HandleFunc("PUT "+path, s.rollbackWorkbook)
	}
}

// rollbackWorkbook returns a workbook to the version it had before its
// last update (v1 or v2), by the rules of every update; the version it
// leaves is dropped, so a next rollback goes one further back. The body names the
// workbook by file id or UUID: `{fileId: 88}` or `{uuid: "…"}`.
func (s *Server) rollbackWorkbook(w http.ResponseWriter, r *http.Request) {
	var body model.WorkbookRollback
	if !s.decodeJSON(w, r, &body) {
		return
	}
	ref := body.UUID
	if body.FileID != 0 {
		ref = fmt.Sprint(body.FileID)
	}
	if ref == "" || (body.FileID != 0 && body.UUID != "") {
		writeFailure(w, http.StatusBadRequest, "name the workbook by fileId or by uuid (one of them)")
		return
	}
	r.SetPathValue("ref", ref)
	f, ok := s.workbookFor(w, r, needWrite)
	if !ok {
		return
	}
	if s.updateTo(w, r, f, func(tx *store.Tx) (model.Configuration, error) { return tx.TakeVersion(r.Context(), f) }, false) {
		writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
	}
}

// workbookFor resolves the file id or UUID in the path to a workbook the
// user may n; anything else is 404 as a missing workbook.
func (s *Server) workbookFor(w http.ResponseWriter, r *http.Request, n need) (store.File, bool) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), n)
	if ok && f.Kind != model.KindWorkbook {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("no workbook %s", r.PathValue("ref")))
		return store.File{}, false
	}
	return f, ok
}

func (s *Server) readWorkbookV2(w http.ResponseWriter, r *http.Request) {
	f, ok := s.workbookFor(w, r, needRead)
	if !ok {
		return
	}
	cfg, err := s.readableConfiguration(r.Context(), userFrom(r), f)
	if err != nil {
		writeError(w, err)
		return
	}
	wb, err := s.workbookV2Of(r.Context(), f, cfg)
	if err != nil {
		writeError(w, err)
		return
	}
	// The ref goes back escaped: a path ref echoed as decoded
	// (`/api/workbooks//Analytics/Sales.wbk`) is a self link that does not route.
	ref := r.PathValue("ref")
	self := strings.TrimSuffix(r.URL.Path, ref) + url.PathEscape(ref)
	wb.Links = model.Links{"file": link(fileEntryHref(f.ID)), "self": link(self)}
	writeJSON(w, http.StatusOK, wb)
}

// createWorkbookV2 creates the workbook a v2 body describes where its
// file's folder and name say, by the rules of every configuration create.
func (s *Server) createWorkbookV2(w http.ResponseWriter, r *http.Request) {
	body, ok := s.decodeWorkbookV2(w, r)
	if !ok {
		return
	}
	cfg, err := configurationOfV2(body)
	if err != nil {
		writeError(w, err)
		return
	}
	if cfg.File.Path == "" {
		writeFailure(w, http.StatusBadRequest, "workbook.file: a folder ([path, uuid]) and a name are required")
		return
	}
	f, ok := s.create(w, r, []model.Kind{model.KindWorkbook}, cfg)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, model.WorkbookV2Created{Status: model.StatusSuccess, ConfigurationID: f.ConfigID,
		FileID: f.ID, FileUUID: f.UUID, FilePath: strings.TrimSuffix(f.Path, model.KindWorkbook.Extension())})
}

// updateWorkbookV2 replaces a workbook with what a v2 body describes, by
// the rules of every configuration update; it stays where it is.
func (s *Server) updateWorkbookV2(w http.ResponseWriter, r *http.Request) {
	f, ok := s.workbookFor(w, r, needWrite)
	if !ok {
		return
	}
	body, ok := s.decodeWorkbookV2(w, r)
	if !ok {
		return
	}
	cfg, err := configurationOfV2(body)
	if err == nil {
		cfg, err = s.keepV1Only(r.Context(), f, cfg)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if s.update(w, r, f, cfg) {
		writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
	}
}

// decodeWorkbookV2 reads a v2 workbook body: `{"workbook": {…}}` as a read
// answers it (its `_links` ignored), or the workbook object alone.
func (s *Server) decodeWorkbookV2(w http.ResponseWriter, r *http.Request) (model.WorkbookV2Body, bool) {
	var raw map[string]json.RawMessage
	if !s.decodeJSON(w, r, &raw) {
		return model.WorkbookV2Body{}, false
	}
	inner, wrapped := raw["workbook"]
	if !wrapped {
		var err error
		if inner, err = json.Marshal(raw); err != nil {
			writeError(w, err)
			return model.WorkbookV2Body{}, false
		}
	}
	var body model.WorkbookV2Body
	if err := json.Unmarshal(inner, &body); err != nil {
		writeFailure(w, http.StatusBadRequest, "bad v2 workbook: "+err.Error())
		return model.WorkbookV2Body{}, false
	}
	return body, true
}

// Members of the v2 shape that the translation reads or writes itself.
const (
	v2JobConfiguration = "jobConfiguration"
	v2Properties       = "properties"
	v2Position         = "position"
	v2Kept             = "kept"
	v1Keep             = "keep"
	v1SheetType        = "sheetType"
	v2Type             = "_type"
	v2UUID             = "uuid"
	v2ReferencedSheet  = "referencedSheet"
	dataDrivenProperty = "dataDriven"
)

// workbookV2Of translates a stored workbook to the v2 shape: its file
// with folder and permission, a DataSourceReferenceSheet per sheet that
// reads a data source, other sheets with what they hold, properties
// (dataDriven as the triggering), hadoopProperties as a map.
func (s *Server) workbookV2Of(ctx context.Context, f store.File, cfg model.Configuration) (model.WorkbookV2, error) {
	parent, err := s.store.FileByID(ctx, f.ParentID)
	if err != nil {
		return model.WorkbookV2{}, err
	}
	groups, err := s.store.GroupPermissions(ctx, f.ID)
	if err != nil {
		return model.WorkbookV2{}, err
	}
	perm := model.V2Permission{Groups: map[string]model.Flags{}, Owner: f.Owner, PermissionForOthers: f.Others}
	for _, g := range groups {
		perm.Groups[g.Group.Name] = g.Flags
	}
	permission, err := json.Marshal(perm)
	if err != nil {
		return model.WorkbookV2{}, err
	}
	body := model.WorkbookV2Body{Version: v2Version, Sheets: []model.V2Sheet{}, Extra: maps.Clone(cfg.Extra),
		File: model.V2FileInfo{UUID: f.UUID, Name: f.BaseName(), Description: f.Description, Extension: "WORKBOOK",
			Folder: []string{parent.Path, parent.UUID}, Permission: permission}}
	if body.Extra == nil {
		body.Extra = map[string]json.RawMessage{}
	}
	job := model.V2JobConfiguration{HadoopProperties: hadoopMap(cfg.HadoopProperties)}
	if cfg.Property(dataDrivenProperty) == "true" {
		job.Triggering = &model.V2Triggering{Type: model.TriggeringDataDriven}
	}
	props := maps.Clone(cfg.Properties)
	delete(props, dataDrivenProperty)
	if props == nil {
		props = map[string][]string{}
	}
	for name, v := range map[string]any{v2JobConfiguration: job, v2Properties: props} {
		if body.Extra[name], err = json.Marshal(v); err != nil {
			return model.WorkbookV2{}, err
		}
	}
	for i, sh := range cfg.Sheets {
		v := model.V2Sheet{Name: sh.Name, Extra: maps.Clone(sh.Extra)}
		if v.Extra == nil {
			v.Extra = map[string]json.RawMessage{}
		}
		v.Extra[v2Position] = json.RawMessage(fmt.Sprint(i))
		v.Extra[v2Kept] = json.RawMessage("false")
		if keep, ok := v.Extra[v1Keep]; ok {
			v.Extra[v2Kept] = keep
			delete(v.Extra, v1Keep)
		}
		if t, ok := v.Extra[v2Type]; ok { // a sheet a v2 write gave its own type
			json.Unmarshal(t, &v.Type)
			delete(v.Extra, v2Type)
		}
		if sh.Datasource != nil {
			v.Type, v.UUID = model.SheetTypeDataSourceReference, sh.Datasource.UUID
			delete(v.Extra, v1SheetType)
		}
		if sh.ReferencedSheet != nil {
			if v.Extra[v2ReferencedSheet], err = json.Marshal(sh.ReferencedSheet); err != nil {
				return model.WorkbookV2{}, err
			}
		}
		body.Sheets = append(body.Sheets, v)
	}
	return model.WorkbookV2{Workbook: body}, nil
}

// configurationOfV2 translates a v2 workbook to the v1 configuration the
// store keeps, as workbookV2Of reads it back. ErrBadInput when a member
// the translation reads has another shape.
func configurationOfV2(body model.WorkbookV2Body) (model.Configuration, error) {
	cfg := model.Configuration{Version: defaultConnectionVersion, ClassName: classWorkbook,
		File:       model.FileInfo{Path: body.File.Path(), Description: body.File.Description},
		Properties: map[string][]string{}, Extra: maps.Clone(body.Extra)}
	if raw, ok := cfg.Extra[v2Properties]; ok {
		if err := json.Unmarshal(raw, &cfg.Properties); err != nil || cfg.Properties == nil {
			return cfg, fmt.Errorf("%w: workbook.properties: want an object of string arrays", store.ErrBadInput)
		}
		delete(cfg.Extra, v2Properties)
	}
	var job model.V2JobConfiguration
	if raw, ok := cfg.Extra[v2JobConfiguration]; ok {
		if err := json.Unmarshal(raw, &job); err != nil {
			return cfg, fmt.Errorf("%w: workbook.jobConfiguration: %v", store.ErrBadInput, err)
		}
		delete(cfg.Extra, v2JobConfiguration)
	}
	cfg.HadoopProperties = hadoopLines(job.HadoopProperties)
	dataDriven := job.Triggering != nil && job.Triggering.Type == model.TriggeringDataDriven
	cfg.Properties[dataDrivenProperty] = []string{fmt.Sprint(dataDriven)}
	for i, v := range body.Sheets {
		sh := model.Sheet{Name: v.Name, Extra: maps.Clone(v.Extra)}
		if sh.Extra == nil {
			sh.Extra = map[string]json.RawMessage{}
		}
		delete(sh.Extra, v2Position)
		if kept, ok := sh.Extra[v2Kept]; ok {
			sh.Extra[v1Keep] = kept
			delete(sh.Extra, v2Kept)
		}
		if raw, ok := sh.Extra[v2ReferencedSheet]; ok {
			sh.ReferencedSheet = new(model.ReferencedSheet)
			if err := json.Unmarshal(raw, sh.ReferencedSheet); err != nil {
				return cfg, fmt.Errorf("%w: workbook.sheets[%d].referencedSheet: %v", store.ErrBadInput, i, err)
			}
			delete(sh.Extra, v2ReferencedSheet)
		}
		switch {
		case v.Type == model.SheetTypeDataSourceReference && v.UUID == "":
			return cfg, fmt.Errorf("%w: workbook.sheets[%d]: a %s names its data source by uuid", store.ErrBadInput, i, v.Type)
		case v.Type == model.SheetTypeDataSourceReference:
			sh.Datasource = &model.SourceRef{UUID: v.UUID}
		default:
			if v.Type != "" {
				sh.Extra[v2Type], _ = json.Marshal(v.Type)
			}
			if v.UUID != "" {
				sh.Extra[v2UUID], _ = json.Marshal(v.UUID)
			}
		}
		if len(sh.Extra) == 0 {
			sh.Extra = nil
		}
		cfg.Sheets = append(cfg.Sheets, sh)
	}
	if len(cfg.Extra) == 0 {
		cfg.Extra = nil
	}
	return cfg, nil
}

// keepV1Only returns the stored workbook with what a v2 body carries
// (description, properties, hadoopProperties, sheets, the members kept
// verbatim) taken from cfg: what only v1 has (typeId, pullType, …) stays.
// hadoopProperties stay as stored when the v2 map says the same, so that
// sending back a read changes nothing (the map loses the lines' order,
// which only an administrator may change).
func (s *Server) keepV1Only(ctx context.Context, f store.File, cfg model.Configuration) (model.Configuration, error) {
	old, err := s.store.Configuration(ctx, f)
	if err != nil {
		return cfg, err
	}
	if maps.Equal(hadoopMap(store.MaskHadoopProperties(old.HadoopProperties)), hadoopMap(cfg.HadoopProperties)) {
		cfg.HadoopProperties = old.HadoopProperties
	}
	old.File, old.Properties, old.HadoopProperties, old.Sheets, old.Extra = cfg.File, cfg.Properties, cfg.HadoopProperties, cfg.Sheets, cfg.Extra
	return old, nil
}

// hadoopMap reads a v1 hadoopProperties string, key=value lines, as a map.
func hadoopMap(lines string) map[string]string {
	m := map[string]string{}
	for line := range strings.Lines(lines) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			m[k] = v
		}
	}
	return m
}

// hadoopLines writes a v2 hadoopProperties map as v1's key=value lines, by key.
func hadoopLines(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(k + "=" + m[k])
	}
	return b.String()
}
