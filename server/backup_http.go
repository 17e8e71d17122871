package server

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/backup"
	"github.com/dapconsole/dapconsole/server/store"
)

// registerBackupRoutes adds the backup and restore endpoints (spec 4.2, 4.3).
func (s *Server) registerBackupRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+foldersPath+"{ref}/backup", s.backupFolder)
	mux.HandleFunc("POST "+foldersPath+"{ref}/backup", s.backupFiles)
	mux.HandleFunc("PUT "+foldersPath+"{ref}/restore", s.restore)
}

// flagSet reads query flags sent without values (`?overwrite&includeOwner`).
// A name outside allowed is refused, so a misspelt flag is not ignored, and
// so is a value other than "true": `?overwrite=false` must not overwrite.
func flagSet(r *http.Request, allowed []string) (map[string]bool, error) {
	query := r.URL.Query()
	for name := range query {
		if !slices.Contains(allowed, name) {
			return nil, fmt.Errorf("unknown flag %q; this operation takes %s", name, strings.Join(allowed, ", "))
		}
	}
	set := map[string]bool{}
	for name, values := range query {
		for _, v := range values {
			if v != "" && v != "true" {
				return nil, fmt.Errorf("flag %s=%s: flags take no value; send ?%s to set it, leave it out otherwise", name, v, name)
			}
		}
		set[name] = true
	}
	return set, nil
}

func (s *Server) backupFolder(w http.ResponseWriter, r *http.Request) {
	plan, ok := s.planBackup(w, r, nil)
	if ok {
		s.writeBackup(w, r, plan)
	}
}

func (s *Server) backupFiles(w http.ResponseWriter, r *http.Request) {
	var sel model.BackupSelection
	if !s.decodeJSON(w, r, &sel) {
		return
	}
	if len(sel.IDs) == 0 {
		writeFailure(w, http.StatusBadRequest, "ids is empty; name the files to back up")
		return
	}
	plan, ok := s.planBackup(w, r, sel.IDs)
	if ok {
		s.writeBackup(w, r, plan)
	}
}

// planBackup resolves the folder and the chosen ids (nil: all below the
// folder) and has the service plan the backup. On failure it answers and
// returns false.
func (s *Server) planBackup(w http.ResponseWriter, r *http.Request, ids []any) (backup.Plan, bool) {
	flags, err := flagSet(r, model.BackupFlags)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, err.Error())
		return backup.Plan{}, false
	}
	folder, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead)
	if !ok {
		return backup.Plan{}, false
	}
	if !folder.IsFolder() {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("folder %s: %s is not a folder", r.PathValue("ref"), folder.Path))
		return backup.Plan{}, false
	}
	var chosen []store.File
	if ids != nil {
		if chosen, err = s.resolveIDs(r, ids); err != nil {
			writeError(w, err)
			return backup.Plan{}, false
		}
	}
	plan, err := s.backups.PlanBackup(r.Context(), userFrom(r), folder, chosen, flags)
	if err != nil {
		writeArchiveError(w, err)
		return backup.Plan{}, false
	}
	return plan, true
}

// maxBackupIDs caps the distinct ids of one POST backup; repeats count once.
const maxBackupIDs = 1000

// resolveIDs resolves the ids of a backup's selection, each a file id, a
// path or a UUID of a file the user sees, as a set: repeats count once
// (a 1 MiB body of one id repeated held the server ~55 s, each resolved
// alone), more than maxBackupIDs distinct ones are refused before any is
// looked up, and access is judged once per folder.
func (s *Server) resolveIDs(r *http.Request, ids []any) ([]store.File, error) {
	refs := make([]string, 0, min(len(ids), maxBackupIDs))
	seen := make(map[string]bool)
	for i, id := range ids {
		var ref string
		switch v := id.(type) {
		case float64:
			if v != math.Trunc(v) || v <= 0 {
				return nil, fmt.Errorf("%w: ids[%d] = %v is not a file id", store.ErrBadInput, i, v)
			}
			ref = strconv.FormatInt(int64(v), 10)
		case string:
			ref = v
		default:
			return nil, fmt.Errorf("%w: ids[%d] is neither a path, a file id nor a UUID", store.ErrBadInput, i)
		}
		if seen[ref] {
			continue
		}
		if seen[ref] = true; len(seen) > maxBackupIDs {
			return nil, fmt.Errorf("%w: ids names more than %d files, at most %d allowed", store.ErrBadInput, maxBackupIDs, maxBackupIDs)
		}
		refs = append(refs, ref)
	}
	vis, err := s.store.NewVisibility(r.Context(), userFrom(r))
	if err != nil {
		return nil, err
	}
	files := make([]store.File, 0, len(refs))
	chosen := make(map[int64]bool, len(refs))
	for _, ref := range refs {
		f, err := s.lookupRef(r.Context(), ref)
		visible := false
		if err == nil {
			visible, err = vis.Visible(r.Context(), f)
		}
		if errors.Is(err, store.ErrNotFound) || (err == nil && !visible) {
			return nil, fmt.Errorf("file %s: %w", ref, store.ErrNotFound)
		}
		if err != nil {
			return nil, err
		}
		if !chosen[f.ID] {
			chosen[f.ID] = true
			files = append(files, f)
		}
	}
	return files, nil
}

// writeBackup streams the archive. Once the first byte is sent the status
// cannot change, so a later failure cuts the answer short (the client sees
// a broken archive, never a wrong but valid one).
func (s *Server) writeBackup(w http.ResponseWriter, r *http.Request, plan backup.Plan) {
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": plan.Name()}))
	w.WriteHeader(http.StatusOK)
	// A long download is not cut off by the write timeout while it moves.
	buf := bufio.NewWriterSize(progressWriter{w: w, rc: http.NewResponseController(w), timeout: s.cfg.Timeouts.WithDefaults().Write}, 64<<10)
	if err := s.backups.WriteBackup(r.Context(), buf, plan); err != nil {
		log.Printf("backup %s: %v", r.PathValue("ref"), err)
		panic(http.ErrAbortHandler)
	}
	if err := buf.Flush(); err != nil {
		log.Printf("backup %s: %v", r.PathValue("ref"), err)
	}
}

// restore takes a ZIP upload into a folder (spec 4.3): the upload is spooled
// to a temporary file within the archive caps, every entry validated, and
// then applied in one transaction, so a refusal or a crash changes nothing.
func (s *Server) restore(w http.ResponseWriter, r *http.Request) {
	flags, err := flagSet(r, model.RestoreFlags)
	if err != nil {
		writeFailure(w, http.StatusBadRequest, err.Error())
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || (mt != "application/zip" && mt != "application/x-zip-compressed") {
		writeFailure(w, http.StatusUnsupportedMediaType, fmt.Sprintf("restore takes Content-Type application/zip, not %q", r.Header.Get("Content-Type")))
		return
	}
	limits := s.cfg.ArchiveLimits.WithDefaults()
	if r.ContentLength > limits.MaxUploadBytes {
		writeFailure(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the archive (%d bytes) exceeds %d bytes", r.ContentLength, limits.MaxUploadBytes))
		return
	}
	target, ok := s.restoreTarget(w, r)
	if !ok {
		return
	}
	user := userFrom(r).Name
	if max := cmp.Or(s.cfg.MaxUploadsPerUser, DefaultMaxUploadsPerUser); !s.uploads.begin(user, max) {
		writeFailure(w, http.StatusTooManyRequests, fmt.Sprintf("%s has %d restore uploads in progress, at most %d at once; wait for one to end", user, max, max))
		return
	}
	defer s.uploads.end(user)
	rc := http.NewResponseController(w)
	timeouts := s.cfg.Timeouts.WithDefaults()
	spool := &spoolReader{r: r.Body, u: &s.uploads, user: user, max: cmp.Or(s.cfg.MaxSpoolPerUser, DefaultMaxSpoolPerUser)}
	defer spool.release()
	body := &progressReader{r: spool, rc: rc, t: timeouts}
	opt := backup.RestoreOptions{
		Overwrite:                        flags[model.FlagOverwrite],
		SkipFilesWithMissingDependencies: flags[model.FlagSkipFilesWithMissingDependencies],
		IncludeDataPermissions:           flags[model.FlagIncludeDataPermissions],
		IncludeGroupPermissions:          flags[model.FlagIncludeGroupPermissions],
		IgnoreUnknownGroups:              flags[model.FlagIgnoreUnknownGroups],
		IncludeSharing:                   flags[model.FlagIncludeSharing],
		IncludeOwner:                     flags[model.FlagIncludeOwner],
		SubstituteMissingUser:            flags[model.FlagSubstituteMissingUser],
	}
	out, err := s.backups.Restore(r.Context(), userFrom(r), target, body, opt)
	// Applying a large archive may outlast the write timeout counted from the request's start.
	_ = rc.SetWriteDeadline(time.Now().Add(timeouts.Write))
	var dependents *store.DependentsError
	switch {
	case errors.As(err, &dependents): // named only as far as the uploader may see them
		s.refuseDependents(w, r, dependents)
		return
	case err != nil:
		writeArchiveError(w, err)
		return
	}
	defer out.Close()
	writeRestoreOutcome(w, out)
}

// writeRestoreOutcome answers a restore that succeeded with what it made
// of each entry, a model.RestoreResult, written as its lists are read from
// the restore's index: a restore of many files does not hold its answer.
// The restore is committed by then; should the index no longer read, the
// answer is cut off, so that the client sees an error and not a list
// with files left out.
func writeRestoreOutcome(w http.ResponseWriter, out backup.RestoreOutcome) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString(`{"status":` + strconv.Quote(model.StatusSuccess))
	writeJSONList(bw, "restored", out.Restored())
	writeJSONList(bw, "skipped", out.Skipped())
	if kept := out.KeptHidden(); len(kept) > 0 {
		writeJSONList(bw, "keptHiddenProperties", slices.Values(kept))
	}
	bw.WriteByte('}')
	if err := out.Err(); err != nil {
		log.Printf("restore answer: %v", err)
		panic(http.ErrAbortHandler)
	}
	bw.Flush()
}

// writeJSONList writes `,"name":[items]`, each item as json.Marshal writes it.
func writeJSONList[T any](bw *bufio.Writer, name string, items iter.Seq[T]) {
	bw.WriteString(`,"` + name + `":[`)
	first := true
	for item := range items {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		text, _ := json.Marshal(item) // strings and model.SkippedFile: no error
		bw.Write(text)
	}
	bw.WriteByte(']')
}

// restoreTarget resolves the folder to restore into. A path that does not
// exist is returned to be created (spec 4.3 rule 4), with "+" read as a
// space (spec section 1); an id or UUID must name
// a folder the user sees. On failure it answers and returns false.
func (s *Server) restoreTarget(w http.ResponseWriter, r *http.Request) (backup.RestoreTarget, bool) {
	ref := r.PathValue("ref")
	f, _, err := s.resolve(r, ref)
	switch {
	case err == nil && !f.IsFolder():
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("restore target %s is not a folder", f.Path))
		return backup.RestoreTarget{}, false
	case err == nil:
		return backup.RestoreTarget{Folder: f}, true
	case errors.Is(err, store.ErrNotFound) && isPathRef(ref):
		// "+" is a space, as lookupRef reads it: %2FPlus+Folder makes "Plus Folder".
		path := strings.ReplaceAll(ref, "+", " ")
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		return backup.RestoreTarget{Path: path}, true
	}
	writeError(w, err)
	return backup.RestoreTarget{}, false
}

// writeArchiveError answers a refused restore or backup: 413 past a cap,
// 408 an upload below the minimum rate, 400 a bad archive or an upload cut
// short, 403 missing write permission, 409 an archive that does
// not fit the target (with the paths), else as writeError.
func writeArchiveError(w http.ResponseWriter, err error) {
	var refused *store.RefusedError
	switch {
	case errors.Is(err, archive.ErrTooLarge):
		writeFailure(w, http.StatusRequestEntityTooLarge, err.Error())
	case errors.Is(err, archive.ErrInvalid):
		writeFailure(w, http.StatusBadRequest, err.Error())
	case errors.As(err, &refused):
		code := http.StatusConflict
		switch {
		case errors.Is(err, store.ErrForbidden):
			code = http.StatusForbidden
		case errors.Is(err, store.ErrBadInput):
			code = http.StatusBadRequest
		}
		writeJSON(w, code, model.Failure{Status: model.StatusFailure, Reason: refused.Reason, Paths: refused.Paths})
	case errors.Is(err, errUploadTooSlow):
		writeFailure(w, http.StatusRequestTimeout, err.Error())
	case errors.Is(err, io.ErrUnexpectedEOF):
		// The client's to mend, not the server's: answered, not logged.
		writeFailure(w, http.StatusBadRequest, "the upload ended before the length it declared")
	default:
		writeError(w, err)
	}
}
