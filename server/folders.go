package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

const (
	rootFolderPath = "/api/filesystem/root-folder"
	foldersPath    = "/api/filesystem/folders/"
)

func (s *Server) registerFolderRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+rootFolderPath, s.readRootFolder)
	mux.HandleFunc("GET "+foldersPath+"{ref}", s.readFolder)
	s.registerPermissionRoutes(mux, foldersPath)
}

// registerPermissionRoutes adds the permission family under a prefix: the
// folders' (the spec's) and the files' (the real platform's), one set of
// handlers for both, since a file's permissions follow a folder's rules.
func (s *Server) registerPermissionRoutes(mux *http.ServeMux, prefix string) {
	mux.HandleFunc("GET "+prefix+"{ref}/permission", s.readPermission)
	mux.HandleFunc("GET "+prefix+"{ref}/permission/groups", s.readGroupPermissions)
	mux.HandleFunc("POST "+prefix+"{ref}/permission/groups", s.createGroupPermission)
	mux.HandleFunc("GET "+prefix+"{ref}/permission/groups/{group}", s.readGroupPermission)
	mux.HandleFunc("PUT "+prefix+"{ref}/permission/groups/{group}", s.changeGroupPermission)
	mux.HandleFunc("DELETE "+prefix+"{ref}/permission/groups/{group}", s.deleteGroupPermission)
	mux.HandleFunc("GET "+prefix+"{ref}/permission/others", s.readOthers)
	mux.HandleFunc("PUT "+prefix+"{ref}/permission/others", s.changeOthers)
	mux.HandleFunc("GET "+prefix+"{ref}/permission/owner", s.readOwner)
	mux.HandleFunc("PUT "+prefix+"{ref}/permission/owner", s.changeOwner)
}

// folderHref is the self link of a folder; the root's is the root-folder path.
func folderHref(f store.File) string {
	if f.ID == store.RootID {
		return rootFolderPath
	}
	return fileHref(f.ID)
}

func fileHref(id int64) string { return fmt.Sprintf("%s%d", foldersPath, id) }

// permissionHref is the permission link of a file: under folders/ for a
// folder, under files/ for anything else, as the real platform links them.
func permissionHref(f store.File) string {
	if f.IsFolder() {
		return fileHref(f.ID) + "/permission"
	}
	return fmt.Sprintf("%s%d/permission", filesPath, f.ID)
}

func link(href string) model.Link { return model.Link{Href: href} }

func (s *Server) readRootFolder(w http.ResponseWriter, r *http.Request) {
	s.answerFolder(w, r, fmt.Sprint(store.RootID))
}

func (s *Server) readFolder(w http.ResponseWriter, r *http.Request) {
	s.answerFolder(w, r, r.PathValue("ref"))
}

// visibleOnly returns the files the request's user may see, in their order;
// known are folders the request has already found visible.
func (s *Server) visibleOnly(r *http.Request, files []store.File, known ...store.File) ([]store.File, error) {
	vis, err := s.store.NewVisibility(r.Context(), userFrom(r))
	if err != nil {
		return nil, err
	}
	for _, f := range known {
		vis.KnownVisible(f)
	}
	return vis.Filter(r.Context(), files)
}

// answerFolder answers a folder read: the folder and the child folders the user may see.
func (s *Server) answerFolder(w http.ResponseWriter, r *http.Request, ref string) {
	f, _, ok := s.fileFor(w, r, ref, needRead)
	if !ok {
		return
	}
	if !f.IsFolder() {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("folder %s: %s is not a folder", ref, f.Path))
		return
	}
	s.answerFolderStatus(w, r, f, http.StatusOK)
}

// answerFolderStatus answers with code and the read of a folder the user
// may see: it and the child folders the user may see.
func (s *Server) answerFolderStatus(w http.ResponseWriter, r *http.Request, f store.File, code int) {
	children, err := s.store.ChildFolders(r.Context(), f.ID)
	if err == nil {
		children, err = s.visibleOnly(r, children, f) // the caller found f visible
	}
	if err != nil {
		writeError(w, err)
		return
	}
	entries := make([]model.FolderEntry, 0, len(children))
	for _, c := range children {
		entries = append(entries, model.FolderEntry{Name: c.Name, Links: model.Links{"self": link(fileHref(c.ID))}})
	}
	links := model.Links{"self": link(folderHref(f)), "permission": link(permissionHref(f))}
	if f.ParentID != 0 {
		links["parent"] = link(fileHref(f.ParentID)) // the root too, as the real platform links it
	}
	writeJSON(w, code, model.Folder{Name: f.Name, UUID: f.UUID, Links: links,
		Embedded: model.FolderChildren{Folders: entries}})
}

// permissionOf is the permission read of a file. Folders link to themselves
// as `folder`, other files as `file`, as the real platform does.
func permissionOf(f store.File) model.Permission {
	self := permissionHref(f)
	target, targetHref := "file", fileEntryHref(f.ID)
	if f.IsFolder() {
		target, targetHref = "folder", folderHref(f)
	}
	return model.Permission{Others: f.Others, Owner: f.Owner, Links: model.Links{
		target:   link(targetHref),
		"others": link(self + "/others"),
		"owner":  link(self + "/owner"),
		"self":   link(self),
		"groups": link(self + "/groups"),
	}}
}

func (s *Server) readPermission(w http.ResponseWriter, r *http.Request) {
	if f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead); ok {
		writeJSON(w, http.StatusOK, permissionOf(f))
	}
}

func groupEntry(f store.File, gp store.GroupPermission) model.GroupPermission {
	return model.GroupPermission{Name: gp.Group.Name, Flags: gp.Flags, Links: model.Links{
		"self":       link(permissionHref(f) + "/groups/" + url.PathEscape(gp.Group.Name)),
		"permission": link(permissionHref(f)),
	}}
}

// answerGroups answers with the group permissions read of a file.
func (s *Server) answerGroups(w http.ResponseWriter, r *http.Request, f store.File) {
	groups, err := s.store.GroupPermissions(r.Context(), f.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	entries := make([]model.GroupPermission, 0, len(groups))
	for _, g := range groups {
		entries = append(entries, groupEntry(f, g))
	}
	writeJSON(w, http.StatusOK, model.GroupPermissions{
		Links:    model.Links{"self": link(permissionHref(f) + "/groups"), "permission": link(permissionHref(f))},
		Embedded: model.GroupList{Groups: entries},
	})
}

func (s *Server) readGroupPermissions(w http.ResponseWriter, r *http.Request) {
	if f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead); ok {
		s.answerGroups(w, r, f)
	}
}

// readGroupPermission answers the self link of a group entry.
func (s *Server) readGroupPermission(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead)
	if !ok {
		return
	}
	groups, err := s.store.GroupPermissions(r.Context(), f.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	want, err := s.groupByName(r, r.PathValue("group"))
	if err == nil {
		for _, g := range groups {
			if g.Group.ID == want.ID {
				writeJSON(w, http.StatusOK, groupEntry(f, g))
				return
			}
		}
	}
	writeFailure(w, http.StatusNotFound, fmt.Sprintf("%s has no permission entry for group %q", f.Path, r.PathValue("group")))
}

// groupByName finds a group; a name from a path whose "+" stand for spaces
// (as the spec writes them) is found too.
func (s *Server) groupByName(r *http.Request, name string) (store.Group, error) {
	g, err := s.store.GroupByName(r.Context(), name)
	if errors.Is(err, store.ErrNotFound) && strings.Contains(name, "+") {
		return s.store.GroupByName(r.Context(), strings.ReplaceAll(name, "+", " "))
	}
	return g, err
}

// groupBody reads a group create or change body; unknown groups are 400.
func (s *Server) groupBody(w http.ResponseWriter, r *http.Request) (store.Group, model.Flags, bool) {
	var body model.GroupPermission
	if !s.decodeJSON(w, r, &body) {
		return store.Group{}, model.Flags{}, false
	}
	pathName := r.PathValue("group")
	if body.Name == "" {
		body.Name = pathName
	}
	if pathName != "" && body.Name != pathName && body.Name != strings.ReplaceAll(pathName, "+", " ") {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("body names group %q, the path %q", body.Name, pathName))
		return store.Group{}, model.Flags{}, false
	}
	if body.Name == "" {
		writeFailure(w, http.StatusBadRequest, "name: a group name is required")
		return store.Group{}, model.Flags{}, false
	}
	g, err := s.groupByName(r, body.Name)
	if errors.Is(err, store.ErrNotFound) {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("unknown group %q", body.Name))
		return store.Group{}, model.Flags{}, false
	}
	if err != nil {
		writeError(w, err)
		return store.Group{}, model.Flags{}, false
	}
	return g, body.Flags, true
}

func (s *Server) createGroupPermission(w http.ResponseWriter, r *http.Request) {
	s.writeGroupPermission(w, r, s.store.CreateGroupPermission, store.ErrExists, http.StatusConflict, "%s already has a permission entry for group %q")
}

func (s *Server) changeGroupPermission(w http.ResponseWriter, r *http.Request) {
	s.writeGroupPermission(w, r, s.store.ChangeGroupPermission, store.ErrNotFound, http.StatusNotFound, "%s has no permission entry for group %q")
}

// writeGroupPermission creates or changes the group entry the body names
// with apply, and answers the folder's group permissions. The error apply
// gives when the entry is already there (create) or missing (change) is
// answered with code and reason, a format of the file's path and the group.
func (s *Server) writeGroupPermission(w http.ResponseWriter, r *http.Request,
	apply func(ctx context.Context, fileID, groupID int64, flags model.Flags) error, refusal error, code int, reason string) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return
	}
	g, flags, ok := s.groupBody(w, r)
	if !ok {
		return
	}
	if err := apply(r.Context(), f.ID, g.ID, flags); err != nil {
		if errors.Is(err, refusal) {
			writeFailure(w, code, fmt.Sprintf(reason, f.Path, g.Name))
			return
		}
		writeError(w, err)
		return
	}
	s.answerGroups(w, r, f)
}

func (s *Server) deleteGroupPermission(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return
	}
	name := r.PathValue("group")
	g, err := s.groupByName(r, name)
	if err == nil {
		err = s.store.DeleteGroupPermission(r.Context(), f.ID, g.ID)
	}
	if errors.Is(err, store.ErrNotFound) {
		writeFailure(w, http.StatusNotFound, fmt.Sprintf("%s has no permission entry for group %q", f.Path, name))
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	s.answerGroups(w, r, f)
}

func othersOf(f store.File) model.OthersPermission {
	return model.OthersPermission{
		Executable: f.Others.Executable, Readable: f.Others.Readable, Writable: f.Others.Writable,
		Links: model.Links{"self": link(permissionHref(f) + "/others"), "permission": link(permissionHref(f))},
	}
}

func (s *Server) readOthers(w http.ResponseWriter, r *http.Request) {
	if f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead); ok {
		writeJSON(w, http.StatusOK, othersOf(f))
	}
}

func (s *Server) changeOthers(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needWrite)
	if !ok {
		return
	}
	// The body is a plain flags object; links a client echoes back are ignored.
	var body model.OthersPermission
	if !s.decodeJSON(w, r, &body) {
		return
	}
	f.Others = model.Flags{Executable: body.Executable, Readable: body.Readable, Writable: body.Writable}
	if err := s.store.SetOthers(r.Context(), f.ID, f.Others); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, othersOf(f))
}

func ownerOf(f store.File) model.Owner {
	return model.Owner{Owner: f.Owner, Links: model.Links{
		"self": link(permissionHref(f) + "/owner"), "permission": link(permissionHref(f)),
	}}
}

func (s *Server) readOwner(w http.ResponseWriter, r *http.Request) {
	if f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needRead); ok {
		writeJSON(w, http.StatusOK, ownerOf(f))
	}
}

// changeOwner hands a file to another existing user; only the current owner
// or an administrator may.
func (s *Server) changeOwner(w http.ResponseWriter, r *http.Request) {
	f, _, ok := s.fileFor(w, r, r.PathValue("ref"), needOwner)
	if !ok {
		return
	}
	var body model.Owner
	if !s.decodeJSON(w, r, &body) {
		return
	}
	if body.Owner == "" {
		writeFailure(w, http.StatusBadRequest, "owner: a user name is required")
		return
	}
	u, err := s.store.UserByName(r.Context(), body.Owner)
	if errors.Is(err, store.ErrNotFound) {
		writeFailure(w, http.StatusBadRequest, fmt.Sprintf("unknown user %q", body.Owner))
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.store.SetOwner(r.Context(), f.ID, u.ID); err != nil {
		writeError(w, err)
		return
	}
	f.OwnerID, f.Owner = u.ID, u.Name
	writeJSON(w, http.StatusOK, ownerOf(f))
}
