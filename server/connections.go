package server

import (
	"context"
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
	if !slices.Contains(kinds, f.Kind) {
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

// answerConfiguration answers with a file's representation as the caller
// may read it (readableConfiguration).
func (s *Server) answerConfiguration(w http.ResponseWriter, r *http.Request, f store.File) {
	cfg, err := s.readableConfiguration(r.Context(), userFrom(r), f)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, cfg)
}

// readableConfiguration is a file's configuration as user may read it:
// secrets encoded, links to files the user may not see by UUID alone.
// Every read of a configuration, whatever its shape (v1, a v2 workbook),
// goes through it.
func (s *Server) readableConfiguration(ctx context.Context, user store.User, f store.File) (model.Configuration, error) {
	cfg, err := s.store.Configuration(ctx, f)
	if err != nil {
		return cfg, err
	}
	cfg = store.EncodeSecrets(cfg)
	if links := cfg.Links(); len(links) == 0 {
		return cfg, nil
	}
	sources, err := s.store.Sources(ctx, f.ID)
	if err != nil {
		return cfg, err
	}
	vis, err := s.store.NewVisibility(ctx, user)
	if err != nil {
		return cfg, err
	}
	hidden, err := vis.HiddenSources(ctx, []store.File{f}, map[int64][]store.File{f.ID: sources})
	if err != nil {
		return cfg, err
	}
	store.MaskHiddenLinks(&cfg, sources, hidden)
	return cfg, nil
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
