package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/names"
	"github.com/dapconsole/dapconsole/server/store"
)

const filesPath = "/api/filesystem/files/"

func (s *Server) registerFileRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+filesPath+"{ref}", s.readFile)
	mux.HandleFunc("PUT "+filesPath+"{ref}/command", s.fileCommand)
	mux.HandleFunc("DELETE "+strings.TrimSuffix(filesPath, "/"), s.deleteFiles)
	s.registerPermissionRoutes(mux, filesPath)
	mux.HandleFunc("POST "+foldersPath+"{ref}", s.createFolder)
	mux.HandleFunc("PUT "+foldersPath+"{ref}/name", s.renameFolder)
	mux.HandleFunc("PUT "+foldersPath+"{ref}/parent", s.moveFolder)
	mux.HandleFunc("DELETE "+foldersPath+"{ref}", s.deleteFolder)
}

func fileEntryHref(id int64) string { return fmt.Sprintf("%s%d", filesPath, id) }

// readFile answers a file's entry: name, uuid, path and links.
func (s *Server) readFile(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead)
	if !ok {
		return
	}
	links := model.Links{"self": link(fileEntryHref(f.ID)), "permission": link(permissionHref(f))}
	if f.ParentID != 0 {
		links["parent"] = link(fileHref(f.ParentID))
	}
	tags, err := s.store.Tags(r.Context(), f.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.File{Name: f.Name, UUID: f.UUID, Path: f.Path, Tags: tags, Links: links})
}

// listKind answers every file of the kinds the user may see, by configuration id.
func (s *Server) listKind(w http.ResponseWriter, r *http.Request, kinds []model.Kind) {
	files, err := s.store.FilesOfKind(r.Context(), kinds...)
	if err == nil {
		files, err = s.visibleOnly(r, files)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	entries := make([]model.FileEntry, 0, len(files))
	for _, f := range files {
		entries = append(entries, model.FileEntry{ID: f.ConfigID, Name: f.BaseName(),
			Description: f.Description, Path: f.Path, UUID: f.UUID})
	}
	writeJSON(w, http.StatusOK, entries)
}

// folderFor resolves the folder a folder-management request names, which
// the user must be allowed to write, as the folder holding it; the root
// itself is refused (400) since it cannot be renamed, moved or deleted.
func (s *Server) folderFor(w http.ResponseWriter, r *http.Request) (store.File, bool) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return store.File{}, false
	}
	if !f.IsFolder() {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s is not a folder", f.Path))
		return store.File{}, false
	}
	if f.ID == store.RootID {
		writeFailure(w, http.StatusBadRequest, "the root folder cannot be renamed, moved or deleted")
		return store.File{}, false
	}
	if _, _, ok := s.fileFor(w, r, store.ParentPath(f.Path), needWrite); !ok {
		return store.File{}, false
	}
	return f, true
}

// folderNameBody reads {"name": …}: a name as every name of the tree
// (names.Check: the rules of archive entries).
func (s *Server) folderNameBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body model.FolderName
	if !s.decodeJSON(w, r, &body) {
		return "", false
	}
	if err := names.Check(body.Name); err != nil {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("folder name %q %v", body.Name, err))
		return "", false
	}
	return body.Name, true
}

// childPath joins a folder's path and a name.
func childPath(folder, name string) string {
	if folder == "/" {
		return "/" + name
	}
	return folder + "/" + name
}

// createFolder makes a folder named by the body inside the folder the path
// names (201 with the new folder's read); it inherits that folder's permissions.
func (s *Server) createFolder(w http.ResponseWriter, r *http.Request) {
	parent, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return
	}
	if !parent.IsFolder() {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("%s is not a folder", parent.Path))
		return
	}
	name, ok := s.folderNameBody(w, r)
	if !ok {
		return
	}
	var created store.File
	path := childPath(parent.Path, name)
	err := s.store.InTx(r.Context(), func(tx *store.Tx) (err error) {
		if parent, err = tx.WritableFolder(r.Context(), userFrom(r), parent.ID); err != nil {
			return err
		}
		path = childPath(parent.Path, name)
		created, err = tx.CreateFile(r.Context(), store.NewFile{Path: path, OwnerID: userFrom(r).ID, Parent: &parent})
		return err
	})
	if s.folderWriteFailed(w, err, path) {
		return
	}
	s.answerFolderStatus(w, r, created, http.StatusCreated)
}

// renameFolder gives a folder a new name in the same parent.
func (s *Server) renameFolder(w http.ResponseWriter, r *http.Request) {
	f, ok := s.folderFor(w, r)
	if !ok {
		return
	}
	name, ok := s.folderNameBody(w, r)
	if !ok {
		return
	}
	s.relocate(w, r, f, func(_ *store.Tx, f store.File) (string, error) {
		return childPath(store.ParentPath(f.Path), name), nil
	})
}

// moveFolder puts a folder, with everything in it, into another folder the
// user may write; the body names it by path, UUID or file id.
func (s *Server) moveFolder(w http.ResponseWriter, r *http.Request) {
	f, ok := s.folderFor(w, r)
	if !ok {
		return
	}
	var body model.FolderParent
	if !s.decodeJSON(w, r, &body) {
		return
	}
	if body.ParentFolder.Ref == "" {
		writeFailure(w, http.StatusBadRequest, "parentFolder: a folder path, UUID or file id is required")
		return
	}
	target, _, ok := s.fileFor(w, r, body.ParentFolder.Ref, needWrite)
	if !ok {
		return
	}
	if !target.IsFolder() {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("parentFolder: %s is not a folder", target.Path))
		return
	}
	s.relocate(w, r, f, func(tx *store.Tx, f store.File) (string, error) {
		target, err := tx.WritableFolder(r.Context(), userFrom(r), target.ID)
		return childPath(target.Path, f.Name), err
	})
}

// relocate moves a folder to the path to answers and answers its read. It
// judges again, in the transaction that writes, what the handler judged
// before it (the folder and the folder holding it writable; to judges the
// target): a rename or a permission change in between would otherwise
// place the folder, or name it, where the user may not write.
func (s *Server) relocate(w http.ResponseWriter, r *http.Request, f store.File, to func(*store.Tx, store.File) (string, error)) {
	var moved store.File
	path := f.Path
	err := s.store.InTx(r.Context(), func(tx *store.Tx) (err error) {
		if f, err = tx.WritableFolder(r.Context(), userFrom(r), f.ID); err != nil {
			return err
		}
		if _, err = tx.WritableFolder(r.Context(), userFrom(r), f.ParentID); err != nil {
			return err
		}
		if path, err = to(tx, f); err != nil {
			return err
		}
		moved, err = tx.RelocateFolder(r.Context(), f, path)
		return err
	})
	if s.folderWriteFailed(w, err, path) {
		return
	}
	s.answerFolderStatus(w, r, moved, http.StatusOK)
}

// folderWriteFailed answers a failed folder write (409 naming the path that
// is taken) and reports whether it did.
func (s *Server) folderWriteFailed(w http.ResponseWriter, err error, path string) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, store.ErrExists):
		writeFailure(w, http.StatusConflict, fmt.Sprintf("%s already exists", path))
	default:
		writeArchiveError(w, err)
	}
	return true
}

// deleteFolder removes an empty folder (409 when anything is inside, even
// what the user may not see).
func (s *Server) deleteFolder(w http.ResponseWriter, r *http.Request) {
	f, ok := s.folderFor(w, r)
	if !ok {
		return
	}
	if err := s.store.InTx(r.Context(), func(tx *store.Tx) error { return tx.DeleteFile(r.Context(), f) }); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, model.Success{Status: model.StatusSuccess})
}
