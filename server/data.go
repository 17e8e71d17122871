package server

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// importFamily are the kinds /rest/data/import-job serves: the platform
// keeps imports, data links and uploads in one family.
var importFamily = []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload}

func (s *Server) registerDataRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /rest/data/import-job/{id}", func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.configurationFor(w, r, needRead, importFamily...); ok {
			s.dataMetadata(w, r, f)
		}
	})
	mux.HandleFunc("GET /rest/data/workbook/{id}", func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.configurationFor(w, r, needRead, model.KindWorkbook); ok {
			s.dataMetadata(w, r, f)
		}
	})
	mux.HandleFunc("GET /rest/data/import-job/{id}/download", func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.configurationFor(w, r, needRead, importFamily...); ok {
			s.downloadSheet(w, r, f, f.BaseName())
		}
	})
	mux.HandleFunc("GET /rest/data/workbook/{id}/{sheet}/download", func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.configurationFor(w, r, needRead, model.KindWorkbook); ok {
			s.downloadSheet(w, r, f, r.PathValue("sheet"))
		}
	})
	sheetKinds := append([]model.Kind{model.KindWorkbook}, importFamily...)
	details := func(w http.ResponseWriter, r *http.Request) {
		if f, ok := s.configurationFor(w, r, needRead, sheetKinds...); ok {
			s.sheetDetails(w, r, f, r.PathValue("sheet"))
		}
	}
	mux.HandleFunc("GET /rest/sheet-details/{id}", details)
	mux.HandleFunc("GET /rest/sheet-details/{id}/{sheet}", details)
	mux.HandleFunc("GET /rest/sheet-details", s.sheetDetailsByPath)
}

// dataAllowed answers 403 and returns false when the caller, who may read
// f, may not read the data it computes (mayReadData).
func (s *Server) dataAllowed(w http.ResponseWriter, r *http.Request, f store.File) bool {
	ok, err := mayReadData(r.Context(), s.store, userFrom(r), f)
	if err != nil {
		writeError(w, err)
		return false
	}
	if !ok {
		writeFailure(w, http.StatusForbidden, fmt.Sprintf("%s: its data permission does not let you read its data; ask its owner, %s", f.Path, f.Owner))
	}
	return ok
}

// dataMetadata answers the platform's metadata of a file's stored data.
func (s *Server) dataMetadata(w http.ResponseWriter, r *http.Request, f store.File) {
	if !s.dataAllowed(w, r, f) {
		return
	}
	sets, err := s.jobs.DataSets(r.Context(), f.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	out := model.DataMetadata{Path: f.Path, Datas: []model.DataInfo{}}
	for i, d := range sets {
		if i == 0 {
			out.RecordCount = d.Records
		}
		out.Datas = append(out.Datas, model.DataInfo{Timestamp: d.Created.Format(model.DateTimeLayout), RecordCount: d.Records, ID: d.ID})
	}
	writeJSON(w, http.StatusOK, []model.DataMetadata{out})
}

// sheet is a sheet of a file and the file whose data it shows.
type sheet struct {
	name string
	data store.File
}

// sheetsOf returns the sheets of a file the caller may read the data of. An
// import, link or upload has one, named after it. A workbook has first the
// sheet it computes (named after it, as an export job names it), then one
// per input (the sheets of its configuration), whose data is the input's
// newest and which is left out when the caller may not read that input
// or its data.
func (s *Server) sheetsOf(r *http.Request, f store.File) ([]sheet, error) {
	out := []sheet{{name: f.BaseName(), data: f}}
	if f.Kind != model.KindWorkbook {
		return out, nil
	}
	cfg, err := s.store.Configuration(r.Context(), f)
	if err != nil {
		return nil, err
	}
	for _, sh := range cfg.Sheets {
		if sh.Datasource == nil {
			continue
		}
		src, err := s.store.ResolveSource(r.Context(), *sh.Datasource)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		rights, visible, err := s.store.Access(r.Context(), userFrom(r), src)
		if err != nil {
			return nil, err
		}
		if !visible || !rights.Read {
			continue
		}
		data, err := mayReadData(r.Context(), s.store, userFrom(r), src)
		if err != nil {
			return nil, err
		}
		if !data {
			continue
		}
		out = append(out, sheet{name: sh.Name, data: src})
	}
	return out, nil
}

// findSheet returns the named sheet of f; on failure it answers 404.
func (s *Server) findSheet(w http.ResponseWriter, r *http.Request, f store.File, name string) (sheet, bool) {
	sheets, err := s.sheetsOf(r, f)
	if err != nil {
		writeError(w, err)
		return sheet{}, false
	}
	for _, sh := range sheets {
		if sh.name == name {
			return sh, true
		}
	}
	writeFailure(w, http.StatusNotFound, fmt.Sprintf("%s has no sheet %q", f.Path, name))
	return sheet{}, false
}

// details describes a sheet: its newest data's columns and records, none
// when it has no data yet.
func (s *Server) details(r *http.Request, sh sheet) (model.SheetDetails, error) {
	out := model.SheetDetails{Name: sh.name, Path: sh.data.Path, Columns: []model.SheetColumn{}}
	columns, records, err := s.jobs.LatestColumns(r.Context(), sh.data.ID)
	if errors.Is(err, jobs.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	out.RecordCount = records
	for _, c := range columns {
		out.Columns = append(out.Columns, model.SheetColumn{Name: c})
	}
	return out, nil
}

// sheetDetails answers one sheet, or every sheet when name is empty.
func (s *Server) sheetDetails(w http.ResponseWriter, r *http.Request, f store.File, name string) {
	if !s.dataAllowed(w, r, f) {
		return
	}
	if name != "" {
		sh, ok := s.findSheet(w, r, f, name)
		if !ok {
			return
		}
		d, err := s.details(r, sh)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, d)
		return
	}
	sheets, err := s.sheetsOf(r, f)
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]model.SheetDetails, 0, len(sheets))
	for _, sh := range sheets {
		d, err := s.details(r, sh)
		if err != nil {
			writeError(w, err)
			return
		}
		out = append(out, d)
	}
	writeJSON(w, http.StatusOK, out)
}

// sheetDetailsByPath is /rest/sheet-details?file=<path>&sheetName=<name>.
func (s *Server) sheetDetailsByPath(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	path, name := q.Get("file"), q.Get("sheetName")
	if path == "" || name == "" {
		writeFailure(w, http.StatusBadRequest, "sheet details need ?file=<path>&sheetName=<name>")
		return
	}
	f, _, ok := s.fileFor(w, r, path, needRead)
	if !ok {
		return
	}
	if f.Kind != model.KindWorkbook && !slices.Contains(importFamily, f.Kind) {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("%s has no sheets", f.Path))
		return
	}
	s.sheetDetails(w, r, f, name)
}

// downloadSheet streams the newest data of a sheet as CSV, the column
// names first; ?start=<row>&length=<rows> ask for a page. 404 when the
// sheet has no data yet.
func (s *Server) downloadSheet(w http.ResponseWriter, r *http.Request, f store.File, name string) {
	start, length, ok := rowWindow(w, r)
	if !ok || !s.dataAllowed(w, r, f) {
		return
	}
	sh, ok := s.findSheet(w, r, f, name)
	if !ok {
		return
	}
	// Nothing is written before the engine found data, so a missing data
	// set still gets its failure body; once rows flow, an error can only
	// cut the answer short.
	cw := &csvAnswer{w: w}
	err := s.jobs.WriteLatestCSV(r.Context(), sh.data.ID, start, length, cw)
	switch {
	case errors.Is(err, jobs.ErrNotFound) && !cw.started:
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("%s has no data yet: run it first", sh.data.Path))
	case err != nil && !cw.started:
		writeError(w, err)
	}
}

// csvAnswer sets the CSV headers on the first write.
type csvAnswer struct {
	w       http.ResponseWriter
	started bool
}

func (c *csvAnswer) Write(p []byte) (int, error) {
	if !c.started {
		c.started = true
		c.w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		c.w.WriteHeader(http.StatusOK)
	}
	return c.w.Write(p)
}

// rowWindow reads ?start (default 0) and ?length (default every row).
func rowWindow(w http.ResponseWriter, r *http.Request) (start, length int64, ok bool) {
	first, most := 0, -1
	if !queryCounts(w, r, []string{"start", "length"}, []*int{&first, &most}) {
		return 0, 0, false
	}
	return int64(first), int64(most), true
}
