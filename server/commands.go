package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// deleteFiles deletes the files `?fileIds=` names (comma-separated or
// repeated file ids), all or none, by the rules of a configuration delete;
// a folder is deleted through the folders endpoint instead.
func (s *Server) deleteFiles(w http.ResponseWriter, r *http.Request) {
	var ids []string
	for _, v := range r.URL.Query()["fileIds"] {
		ids = append(ids, strings.Split(v, ",")...)
	}
	if len(ids) == 0 {
		writeFailure(w, http.StatusBadRequest, "fileIds names no file")
		return
	}
	var files []store.File
	for _, id := range ids {
		if n, err := strconv.ParseInt(id, 10, 64); err != nil || n <= 0 {
			writeFailure(w, http.StatusBadRequest, fmt.Sprintf("fileIds: %q is not a file id", id))
			return
		}
		f, _, ok := s.fileFor(w, r, id, needWrite)
		if !ok {
			return
		}
		if f.IsFolder() {
			writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s is a folder: delete it with DELETE %s%d", f.Path, foldersPath, f.ID))
			return
		}
		files = append(files, f)
	}
	if s.remove(w, r, files...) {
		writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
	}
}

// fileCommand carries out a command on a file the caller may write, and
// answers the file's read. The platform documents SetTags alone: the
// file's tags become the body's.
func (s *Server) fileCommand(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return
	}
	var cmd model.FileCommand
	if !s.decodeJSON(w, r, &cmd) {
		return
	}
	if cmd.Type != model.CommandSetTags {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("_type %q: the embedded platform carries out %s only", cmd.Type, model.CommandSetTags))
		return
	}
	err := s.store.InTx(r.Context(), func(tx *store.Tx) error { return tx.SetTags(r.Context(), f.ID, cmd.Tags) })
	if err != nil {
		writeError(w, err)
		return
	}
	s.readFile(w, r)
}
