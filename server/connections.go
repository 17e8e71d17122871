package server

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

const connectionsPath = "/rest/connections"

// defaultConnectionVersion is the representation version a create without one gets.
const defaultConnectionVersion = "2.1"

// connectionBodyOK refuses, with 400, a connection that reads from another
// file, and gives one without a version the default; create and update
// take a body alike.
func connectionBodyOK(w http.ResponseWriter, cfg *model.Configuration) bool {
	if len(cfg.Sources) > 0 || len(cfg.Links()) > 0 {
		writeFailure(w, http.StatusBadRequest, "a connection reads from no other file (it has no dataStore, sheet or sheets)")
		return false
	}
	if cfg.Version == "" {
		cfg.Version = defaultConnectionVersion
	}
	return true
}

func (s *Server) registerConnectionRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+connectionsPath, s.listConnections)
	mux.HandleFunc("POST "+connectionsPath, s.createConnection)
	mux.HandleFunc("GET "+connectionsPath+"/{id}", s.readConnection)
	mux.HandleFunc("PUT "+connectionsPath+"/{id}", s.updateConnection)
	mux.HandleFunc("DELETE "+connectionsPath+"/{id}", s.deleteConnection)
}

// configurationFor resolves the configuration id in the path to a visible
// file of one of the kinds, checking the need. On failure it answers (400 a
// non-numeric id, 404 missing, invisible or of another kind, 403) and
// returns false.
func (s *Server) configurationFor(w http.ResponseWriter, r *http.Request, n need, kinds ...model.Kind) (store.File, bool) {
	raw := r.PathValue("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("configuration id %q is not a positive number", raw))
		return store.File{}, false
	}
	// Missing, invisible and of another kind all answer alike.
	missing := fmt.Sprintf("no %s with configuration id %d", kinds[0], id)
	f, err := s.store.FileByConfigID(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeFailure(w, http.StatusNotFound, missing)
		return store.File{}, false
	}
	if err != nil {
		writeError(w, err)
		return store.File{}, false
	}
	if !kindIn(f.Kind, kinds) {
		writeFailure(w, http.StatusNotFound, missing)
		return store.File{}, false
	}
	rights, visible, err := s.store.Access(r.Context(), userFrom(r), f)
	if err != nil {
		writeError(w, err)
		return store.File{}, false
	}
	if !visible {
		writeFailure(w, http.StatusNotFound, missing)
		return store.File{}, false
	}
	if !n.allowedBy(rights) {
		writeFailure(w, http.StatusForbidden, fmt.Sprintf("%s: %s permission required", f.Path, n))
		return store.File{}, false
	}
	return f, true
}

func kindIn(k model.Kind, kinds []model.Kind) bool {
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

// answerConfiguration answers with a file's representation, secrets
// encoded, links to files the caller may not see by UUID alone.
func (s *Server) answerConfiguration(w http.ResponseWriter, r *http.Request, f store.File) {
	ctx := r.Context()
	cfg, err := s.store.Configuration(ctx, f)
	if err != nil {
		writeError(w, err)
		return
	}
	cfg = store.EncodeSecrets(cfg)
	if links := cfg.Links(); len(links) > 0 {
		sources, err := s.store.Sources(ctx, f.ID)
		var hidden map[int64]bool
		if err == nil {
			var vis *store.Visibility
			if vis, err = s.store.NewVisibility(ctx, userFrom(r)); err == nil {
				hidden, err = vis.HiddenSources(ctx, []store.File{f}, map[int64][]store.File{f.ID: sources})
			}
		}
		if err != nil {
			writeError(w, err)
			return
		}
		store.MaskHiddenLinks(&cfg, sources, hidden)
	}
	writeJSON(w, http.StatusOK, cfg)
}

func (s *Server) listConnections(w http.ResponseWriter, r *http.Request) {
	s.listKind(w, r, []model.Kind{model.KindConnection})
}

func (s *Server) readConnection(w http.ResponseWriter, r *http.Request) {
	if f, ok := s.configurationFor(w, r, needRead, model.KindConnection); ok {
		s.answerConfiguration(w, r, f)
	}
}

// createConnection puts a new connection where its file.path says. A
// missing folder there is created, as the real platform does, when the
// user may write the nearest folder that exists; fields the server does not
// know are kept.
func (s *Server) createConnection(w http.ResponseWriter, r *http.Request) {
	var cfg model.Configuration
	if !s.decodeJSON(w, r, &cfg) {
		return
	}
	path, err := store.CleanPath(cfg.File.Path)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, "file.path: "+err.Error())
		return
	}
	if kind, _ := model.KindOfPath(path); kind != model.KindConnection {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("file.path %q must end in %s", path, model.KindConnection.Extension()))
		return
	}
	if !connectionBodyOK(w, &cfg) {
		return
	}
	var f store.File
	err = s.store.InTx(r.Context(), func(tx *store.Tx) error {
		parent, _, err := tx.EnsureFolder(r.Context(), userFrom(r), store.ParentPath(path))
		if err != nil {
			return err
		}
		f, err = tx.CreateFile(r.Context(), store.NewFile{Path: path, OwnerID: userFrom(r).ID, Config: &cfg, Parent: &parent})
		if err != nil {
			return err
		}
		return checkFileConnections(r.Context(), tx.Queries, userFrom(r), slices.Values([]string{path}))
	})
	if errors.Is(err, store.ErrExists) {
		writeFailure(w, http.StatusConflict, fmt.Sprintf("%s already exists", path))
		return
	}
	if err != nil {
		writeArchiveError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.ConnectionCreated{ConfigurationID: f.ConfigID, Status: model.StatusSuccess})
}

// updateConnection replaces a connection's representation; it stays where
// it is. Only an administrator may change its hidden properties.
func (s *Server) updateConnection(w http.ResponseWriter, r *http.Request) {
	f, ok := s.configurationFor(w, r, needWrite, model.KindConnection)
	if !ok {
		return
	}
	var cfg model.Configuration
	if !s.decodeJSON(w, r, &cfg) {
		return
	}
	if cfg.File.Path != "" && cfg.File.Path != f.Path {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("file.path %q: a connection cannot move (it is %s)", cfg.File.Path, f.Path))
		return
	}
	if !connectionBodyOK(w, &cfg) {
		return
	}
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		if !userFrom(r).Admin { // hidden properties follow the user's capabilities (spec section 5)
			old, err := tx.Configuration(r.Context(), f)
			if err != nil {
				return err
			}
			if old.HadoopProperties != cfg.HadoopProperties {
				return &store.RefusedError{Err: store.ErrForbidden, Paths: []string{f.Path},
					Reason: f.Path + ": only an administrator may change hadoopProperties (send them as they were read)"}
			}
		}
		if err := tx.UpdateConfiguration(r.Context(), f, cfg); err != nil {
			return err
		}
		return checkFileConnections(r.Context(), tx.Queries, userFrom(r), slices.Values([]string{f.Path}))
	})
	if err != nil {
		writeArchiveError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

// deleteConnection removes a connection nothing depends on; otherwise 409
// naming the dependents the user may see.
func (s *Server) deleteConnection(w http.ResponseWriter, r *http.Request) {
	f, ok := s.configurationFor(w, r, needWrite, model.KindConnection)
	if !ok {
		return
	}
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error { return tx.DeleteFile(r.Context(), f) })
	var dependents *store.DependentsError
	if errors.As(err, &dependents) {
		s.refuseDependents(w, r, dependents)
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}

// refuseDependents answers 409 for a file others depend on, naming the
// dependents the user may see; of the others it gives the count and their
// owners, whom the user can ask, never their paths.
func (s *Server) refuseDependents(w http.ResponseWriter, r *http.Request, de *store.DependentsError) {
	// One Visibility for all: dependents often share folders, judged once.
	vis, err := s.store.NewVisibility(r.Context(), userFrom(r))
	if err != nil {
		writeError(w, err)
		return
	}
	var seen []string
	hidden := 0
	owners := map[string]bool{}
	for _, p := range de.Paths {
		f, err := s.store.FileByPath(r.Context(), p)
		if err != nil {
			writeError(w, err)
			return
		}
		visible, err := vis.Visible(r.Context(), f)
		if err != nil {
			writeError(w, err)
			return
		}
		if visible {
			seen = append(seen, p)
		} else {
			hidden++
			owners[f.Owner] = true
		}
	}
	reason := fmt.Sprintf("%s is still used by %d file(s)", de.Path, len(de.Paths))
	if len(seen) > 0 {
		reason += ": " + strings.Join(seen, ", ")
	}
	if hidden > 0 {
		reason += fmt.Sprintf(" (%d you may not see; ask their owner(s): %s)", hidden, strings.Join(slices.Sorted(maps.Keys(owners)), ", "))
	}
	writeJSON(w, http.StatusConflict, model.Failure{Status: model.StatusFailure, Reason: reason, Paths: seen})
}
