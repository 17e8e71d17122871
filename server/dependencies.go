package server

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// dependencyEndpoints are the prefixes of the dependency endpoints and the
// kinds of configuration each answers for: the spec's connection one and the
// ones the real platform offers besides (data links and file uploads are
// import jobs there).
var dependencyEndpoints = []struct {
	prefix string
	kinds  []model.Kind
}{
	{"/api/connections/", []model.Kind{model.KindConnection}},
	{"/api/import-job/", []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload}},
	{"/api/workbook/", []model.Kind{model.KindWorkbook}},
	{"/api/export-job/", []model.Kind{model.KindExportJob}},
	{"/api/infographics/", []model.Kind{model.KindInfographic}},
}

func (s *Server) registerDependencyRoutes(mux *http.ServeMux) {
	for _, e := range dependencyEndpoints {
		kinds := e.kinds
		mux.HandleFunc("GET "+e.prefix+"{id}/dependencies", func(w http.ResponseWriter, r *http.Request) {
			s.readDependencies(w, r, kinds)
		})
	}
}

// readDependencies answers {dependencies: [...]}: the files upstream (what
// it reads from), downstream (what reads from it) or both, up to `level`
// steps away (all when absent), each once, listing only files the user may
// see. A visited set keeps cycles from looping.
func (s *Server) readDependencies(w http.ResponseWriter, r *http.Request, kinds []model.Kind) {
	query := r.URL.Query()
	direction := query.Get("direction")
	upstream, downstream := true, true
	switch direction {
	case "", "both":
	case model.DirectionUpstream:
		downstream = false
	case model.DirectionDownstream:
		upstream = false
	default:
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("direction %q: want upstream, downstream or both", direction))
		return
	}
	maxLevel := -1
	if raw := query.Get("level"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 {
			writeFailure(w, http.StatusBadRequest, fmt.Sprintf("level %q: want a number from 1", raw))
			return
		}
		maxLevel = n
	}
	f, ok := s.configurationFor(w, r, needRead, kinds...)
	if !ok {
		return
	}
	vis, err := s.store.NewVisibility(r.Context(), userFrom(r))
	if err != nil {
		writeError(w, err)
		return
	}
	listed := map[int64]bool{f.ID: true}
	deps := []model.Dependency{}
	walk := func(next func(id int64) ([]store.File, error)) error {
		visited := map[int64]bool{f.ID: true}
		frontier := []store.File{f}
		for level := 1; len(frontier) > 0 && (maxLevel < 0 || level <= maxLevel); level++ {
			var following []store.File
			for _, cur := range frontier {
				neighbours, err := next(cur.ID)
				if err != nil {
					return err
				}
				for _, n := range neighbours {
					if visited[n.ID] {
						continue
					}
					visited[n.ID] = true
					following = append(following, n)
					visible, err := vis.Visible(r.Context(), n)
					if err != nil {
						return err
					}
					if visible && !listed[n.ID] {
						listed[n.ID] = true
						deps = append(deps, dependencyOf(n))
					}
				}
			}
			frontier = following
		}
		return nil
	}
	if upstream {
		if err := walk(func(id int64) ([]store.File, error) { return s.store.Sources(r.Context(), id) }); err != nil {
			writeError(w, err)
			return
		}
	}
	if downstream {
		if err := walk(func(id int64) ([]store.File, error) { return s.store.Dependents(r.Context(), id) }); err != nil {
			writeError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, model.Dependencies{Dependencies: deps})
}

func dependencyOf(f store.File) model.Dependency {
	return model.Dependency{ID: f.ConfigID, File: model.DependencyFile{
		Path: f.Path, Name: f.BaseName(), Type: string(f.Kind), Description: f.Description, UUID: f.UUID,
	}}
}
