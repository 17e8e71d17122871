package server

import (
	"fmt"
	"net/http"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

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
