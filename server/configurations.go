package server

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// configurationFamily is one of the platform's families of configuration
// endpoints: list and create at path, read, update and delete at
// path/<configuration id>, for files of kinds (the first names the family
// in answers). Every family keeps the same rules, those connections had first.
type configurationFamily struct {
	path  string
	kinds []model.Kind
}

// configurationFamilies are the families the embedded platform serves.
var configurationFamilies = []configurationFamily{
	{connectionsPath, []model.Kind{model.KindConnection}},
	// Import jobs, data links and file uploads share the import-job family
	// (the platform tells them apart by their paths' extensions); export
	// jobs are at the singular `/rest/export-job`.
	{"/rest/import-job", []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload}},
	{"/rest/workbook", []model.Kind{model.KindWorkbook}},
	{"/rest/export-job", []model.Kind{model.KindExportJob}},
	{"/rest/infographics", []model.Kind{model.KindInfographic}},
}

func (s *Server) registerConfigurationRoutes(mux *http.ServeMux) {
	for _, fam := range configurationFamilies {
		kinds := fam.kinds
		mux.HandleFunc("GET "+fam.path, func(w http.ResponseWriter, r *http.Request) { s.listKind(w, r, kinds) })
		mux.HandleFunc("POST "+fam.path, func(w http.ResponseWriter, r *http.Request) { s.createConfiguration(w, r, kinds) })
		mux.HandleFunc("GET "+fam.path+"/{id}", func(w http.ResponseWriter, r *http.Request) {
			if f, ok := s.configurationFor(w, r, needRead, kinds...); ok {
				s.answerConfiguration(w, r, f)
			}
		})
		mux.HandleFunc("PUT "+fam.path+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.updateConfiguration(w, r, kinds) })
		mux.HandleFunc("DELETE "+fam.path+"/{id}", func(w http.ResponseWriter, r *http.Request) { s.deleteConfiguration(w, r, kinds) })
	}
}

// defaultConnectionVersion is the representation version a create of any
// kind without one gets.
const defaultConnectionVersion = "2.1"

// linkTargets are the kinds of file each link of a configuration may name:
// its dataStore, its (export) connection, its sheet's workbook, its
// sheets' datasources and referenced sheets' workbooks. A kind without an
// entry reads from no other file; a nil list, no such link.
type linkTargets struct {
	dataStore, connection, sheetWorkbook, datasources, referencedWorkbooks []model.Kind
}

var (
	connectionOnly = []model.Kind{model.KindConnection}
	workbookOnly   = []model.Kind{model.KindWorkbook}
)

var readsFrom = map[model.Kind]linkTargets{
	model.KindImportJob:  {dataStore: connectionOnly},
	model.KindDataLink:   {dataStore: connectionOnly},
	model.KindFileUpload: {dataStore: connectionOnly},
	// The platform writes an export job's connection as `connection`;
	// earlier dapconsole versions wrote it as dataStore.
	model.KindExportJob: {dataStore: connectionOnly, connection: connectionOnly, sheetWorkbook: workbookOnly},
	model.KindWorkbook: {datasources: []model.Kind{model.KindImportJob, model.KindDataLink, model.KindFileUpload, model.KindWorkbook},
		referencedWorkbooks: workbookOnly},
	model.KindInfographic: {datasources: workbookOnly},
}

// checkLinks refuses (400) a configuration of a kind whose links are not
// the kind's or name a file that does not exist, that the user may not
// read (told alike, so nothing is learnt of it) or of a kind the link
// cannot name. A file among kept (the links a file had before an update)
// counts as readable: an update sends back links to files it could not see.
// It gives a configuration without a version the default.
func checkLinks(ctx context.Context, q store.Queries, user store.User, kind model.Kind, cfg *model.Configuration, kept []store.File) error {
	if cfg.Version == "" {
		cfg.Version = defaultConnectionVersion
	}
	if cfg.Sources != nil {
		cfg.AdoptSources(kind)
	}
	targets, reads := readsFrom[kind]
	if !reads {
		if len(cfg.Links()) > 0 {
			return badInput(fmt.Sprintf("a %s reads from no other file (it has no dataStore, sheet or sheets)", kind))
		}
		return nil
	}
	check := func(field string, ref *model.SourceRef, want []model.Kind) error {
		if ref == nil {
			return nil
		}
		if want == nil {
			return badInput(fmt.Sprintf("%s: a %s has no such link", field, kind))
		}
		missing := badInput(fmt.Sprintf("%s: %s does not exist", field, refName(*ref)))
		f, err := q.ResolveSource(ctx, *ref)
		if errors.Is(err, store.ErrNotFound) {
			return missing
		}
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(kept, func(k store.File) bool { return k.ID == f.ID }) {
			rights, visible, err := q.Access(ctx, user, f)
			if err != nil {
				return err
			}
			if !visible || !needRead.allowedBy(rights) {
				return missing
			}
		}
		if !slices.Contains(want, f.Kind) {
			return badInput(fmt.Sprintf("%s: %s is of kind %s; want %s", field, f.Path, f.Kind, kindList(want, "or")))
		}
		return nil
	}
	if err := check("dataStore", cfg.DataStore, targets.dataStore); err != nil {
		return err
	}
	if err := check("connection", (*model.SourceRef)(cfg.Connection), targets.connection); err != nil {
		return err
	}
	if cfg.Sheet != nil {
		if err := check("sheet.workbook", (*model.SourceRef)(cfg.Sheet.Workbook), targets.sheetWorkbook); err != nil {
			return err
		}
	}
	for i, sheet := range cfg.Sheets {
		if err := check(fmt.Sprintf("sheets[%d].datasource", i), sheet.Datasource, targets.datasources); err != nil {
			return err
		}
		if sheet.ReferencedSheet != nil {
			field := fmt.Sprintf("sheets[%d].referencedSheet.workbook", i)
			if err := check(field, (*model.SourceRef)(sheet.ReferencedSheet.Workbook), targets.referencedWorkbooks); err != nil {
				return err
			}
		}
	}
	return nil
}

func badInput(reason string) error {
	return &store.RefusedError{Err: store.ErrBadInput, Reason: reason}
}

// refName names a link as its sender wrote it.
func refName(ref model.SourceRef) string {
	if ref.UUID != "" {
		return ref.UUID
	}
	return fmt.Sprintf("%q", ref.Path)
}

// kindList lists kinds for a message: "import-job, data-link or workbook".
func kindList(kinds []model.Kind, conjunction string) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conjunction + " " + names[len(names)-1]
}

// extensionList lists the extensions of kinds for a message: ".imp or .upl".
func extensionList(kinds []model.Kind) string {
	exts := make([]model.Kind, len(kinds))
	for i, k := range kinds {
		exts[i] = model.Kind(k.Extension())
	}
	return kindList(exts, "or")
}

// createConfiguration puts a new configuration of one of kinds where its
// file.path says and answers its configuration id.
func (s *Server) createConfiguration(w http.ResponseWriter, r *http.Request, kinds []model.Kind) {
	var cfg model.Configuration
	if !s.decodeJSON(w, r, &cfg) {
		return
	}
	if f, ok := s.create(w, r, kinds, cfg); ok {
		writeJSON(w, http.StatusOK, model.ConnectionCreated{ConfigurationID: f.ConfigID, Status: model.StatusSuccess})
	}
}

// create puts a new configuration of one of kinds where its file.path
// says. A missing folder there is created, as the real platform does, when
// the user may write the nearest folder that exists; fields the server
// does not know are kept; secrets are sealed. On failure it answers and
// returns false.
func (s *Server) create(w http.ResponseWriter, r *http.Request, kinds []model.Kind, cfg model.Configuration) (store.File, bool) {
	path, err := store.CleanPath(cfg.File.Path)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, "file.path: "+err.Error())
		return store.File{}, false
	}
	kind, _ := model.KindOfPath(path)
	if !slices.Contains(kinds, kind) {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("file.path %q must end in %s", path, extensionList(kinds)))
		return store.File{}, false
	}
	ctx, user := r.Context(), userFrom(r)
	var f store.File
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := checkLinks(ctx, tx.Queries, user, kind, &cfg, nil); err != nil {
			return err
		}
		parent, _, err := tx.EnsureFolder(ctx, user, store.ParentPath(path))
		if err != nil {
			return err
		}
		f, err = tx.CreateFile(ctx, store.NewFile{Path: path, OwnerID: user.ID, Config: &cfg, Parent: &parent})
		if err != nil {
			return err
		}
		return checkFileConnections(ctx, tx.Queries, user, slices.Values([]string{path}))
	})
	if errors.Is(err, store.ErrExists) {
		writeFailure(w, http.StatusConflict, fmt.Sprintf("%s already exists", path))
		return store.File{}, false
	}
	if err != nil {
		writeArchiveError(w, err)
		return store.File{}, false
	}
	return f, true
}

// updateConfiguration replaces the representation of a configuration of
// one of kinds.
func (s *Server) updateConfiguration(w http.ResponseWriter, r *http.Request, kinds []model.Kind) {
	f, ok := s.configurationFor(w, r, needWrite, kinds...)
	if !ok {
		return
	}
	var cfg model.Configuration
	if s.decodeJSON(w, r, &cfg) && s.update(w, r, f, cfg) {
		writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
	}
}

// update replaces a configuration's representation; it stays where it is.
// Only an administrator may change its hidden properties. On failure it
// answers and returns false.
func (s *Server) update(w http.ResponseWriter, r *http.Request, f store.File, cfg model.Configuration) bool {
	return s.updateTo(w, r, f, func(*store.Tx) (model.Configuration, error) { return cfg, nil }, true)
}

// updateTo is update to the configuration next gives inside the update's
// transaction (a rollback takes it from the file's earlier versions). A
// workbook's version before keeps as one a rollback returns to, when keep
// says so (a rollback's does not: rollbacks walk back).
func (s *Server) updateTo(w http.ResponseWriter, r *http.Request, f store.File, next func(*store.Tx) (model.Configuration, error), keep bool) bool {
	ctx, user := r.Context(), userFrom(r)
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		cfg, err := next(tx)
		if err != nil {
			return err
		}
		if cfg.File.Path != "" && cfg.File.Path != f.Path {
			return badInput(fmt.Sprintf("file.path %q: a %s cannot move (it is %s)", cfg.File.Path, f.Kind, f.Path))
		}
		kept, err := tx.Sources(ctx, f.ID)
		if err != nil {
			return err
		}
		if err := checkLinks(ctx, tx.Queries, user, f.Kind, &cfg, kept); err != nil {
			return err
		}
		old, err := tx.Configuration(ctx, f)
		if err != nil {
			return err
		}
		// Hidden properties follow the user's capabilities (spec section 5).
		// Sent back as read (their secrets sealed), they are kept as stored.
		if store.SameHadoopProperties(old.HadoopProperties, cfg.HadoopProperties) {
			cfg.HadoopProperties = old.HadoopProperties
		} else if !user.Admin {
			return &store.RefusedError{Err: store.ErrForbidden, Paths: []string{f.Path},
				Reason: f.Path + ": only an administrator may change hadoopProperties (send them as they were read)"}
		}
		if !user.Admin && f.OwnerID != user.ID && !model.SameMember(old.Extra[model.MemberDataPermission], cfg.Extra[model.MemberDataPermission]) {
			return &store.RefusedError{Err: store.ErrForbidden, Paths: []string{f.Path},
				Reason: f.Path + ": only its owner or an administrator may change dataPermission (send it as it was read)"}
		}
		if keep && f.Kind == model.KindWorkbook { // what a v2 rollback returns to
			if err := tx.KeepVersion(ctx, f, old); err != nil {
				return err
			}
		}
		if err := tx.UpdateConfiguration(ctx, f, cfg); err != nil {
			return err
		}
		return checkFileConnections(ctx, tx.Queries, user, slices.Values([]string{f.Path}))
	})
	if err != nil {
		writeArchiveError(w, err)
		return false
	}
	return true
}

// deleteConfiguration removes a configuration of one of kinds.
func (s *Server) deleteConfiguration(w http.ResponseWriter, r *http.Request, kinds []model.Kind) {
	f, ok := s.configurationFor(w, r, needWrite, kinds...)
	if ok && s.remove(w, r, f) {
		writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
	}
}

// remove deletes files nothing else depends on, all or none (409 naming
// the dependents the user may see otherwise), then stops their runs. On
// failure it answers and returns false.
func (s *Server) remove(w http.ResponseWriter, r *http.Request, files ...store.File) bool {
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error {
		for _, f := range files {
			if err := tx.DeleteFile(r.Context(), f); err != nil {
				return err
			}
		}
		return nil
	})
	var dependents *store.DependentsError
	if errors.As(err, &dependents) {
		s.refuseDependents(w, r, dependents)
		return false
	}
	if err != nil {
		writeError(w, err)
		return false
	}
	for _, f := range files {
		if !f.Kind.Runnable() {
			continue
		}
		// Its runs would fail on their own; stopped, they end now.
		if err := s.jobs.Stop(r.Context(), f.ID); err != nil && !errors.Is(err, jobs.ErrNotRunning) {
			log.Printf("stop the runs of deleted %s: %v", f.Path, err)
		}
	}
	return true
}
