package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// ErrEmptyRef is returned, without a request, for a zero Ref.
var ErrEmptyRef = errors.New("empty file reference")

const foldersPath = "/api/filesystem/folders/"

// folderPath returns foldersPath + id + suffix. The spec addresses folder
// and permission endpoints by file id or UUID; a path is sent as given, for
// servers that accept it (the embedded one does), and a server that does
// not answers 404.
func folderPath(id Ref, suffix string) (string, error) {
	if id.file {
		return refPath(filesPath, id, suffix)
	}
	return refPath(foldersPath, id, suffix)
}

// refPath returns prefix + the encoded ref + suffix, for any kind of ref.
func refPath(prefix string, ref Ref, suffix string) (string, error) {
	if ref.IsZero() {
		return "", ErrEmptyRef
	}
	return prefix + ref.PathSegment() + suffix, nil
}

// RootFolder reads the root folder.
func (c *Client) RootFolder(ctx context.Context) (model.Folder, error) {
	var f model.Folder
	err := c.read(ctx, http.MethodGet, "/api/filesystem/root-folder", "", nil, &f)
	return f, err
}

// Folder reads a folder by file id or UUID.
func (c *Client) Folder(ctx context.Context, id Ref) (model.Folder, error) {
	return readFolder[model.Folder](ctx, c, id, "")
}

// FolderByPath reads the folder at path, walking from the root folder
// through each sub-folder's link: the platform's folder and file endpoints
// take a file id or a UUID, not a path (only backup, restore and the job
// endpoints take one). A name that is no sub-folder answers as a missing
// folder does (IsNotFound).
func (c *Client) FolderByPath(ctx context.Context, path string) (model.Folder, error) {
	folder, err := c.RootFolder(ctx)
	walked := "/"
	for name := range strings.SplitSeq(strings.Trim(path, "/"), "/") {
		if err != nil {
			break
		}
		if name == "" {
			continue // a doubled slash: stopping here answered the folder above
		}
		walked = strings.TrimSuffix(walked, "/") + "/" + name
		var id int64
		for _, e := range folder.Embedded.Folders {
			if e.Name == name {
				id = e.ID()
				break
			}
		}
		if id == 0 {
			err = &Error{Op: "GET " + foldersPath + "… (walked from the root)", Status: http.StatusNotFound, Reason: "no folder " + walked}
			break
		}
		folder, err = c.Folder(ctx, FileID(id))
	}
	if err != nil {
		return folder, fmt.Errorf("read folder %s: %w", walked, err)
	}
	return folder, nil
}

// Addressed returns ref as the platform's folder and file endpoints take
// it: by file id or UUID, never by path (the embedded platform takes paths,
// the real one answers 404), and a file that is no folder addressed as a
// file (AsFile), since the real platform's permissions of a file are under
// /api/filesystem/files/. A path becomes the folder's file id, walked from
// the root, or a file's UUID from the per-kind lists; a file id or UUID is
// read as a folder once, to tell which it names.
func (c *Client) Addressed(ctx context.Context, ref Ref) (Ref, error) {
	if !ref.IsPath() {
		if ref.file {
			return ref, nil
		}
		_, err := c.Folder(ctx, ref)
		if IsNotFound(err) {
			return ref.AsFile(), nil
		}
		return ref, err
	}
	folder, err := c.FolderByPath(ctx, ref.String())
	if err == nil {
		return FileID(folder.ID()), nil
	}
	if !IsNotFound(err) {
		return ref, err
	}
	index, ierr := ReadFileIndex(ctx, c)
	if ierr != nil {
		return ref, ierr
	}
	if file, ok := index.ByPath(ref.String()); ok && file.UUID != "" {
		return UUID(file.UUID).AsFile(), nil
	}
	return ref, err
}

// Permission reads a folder's permission: owner, others, and links.
func (c *Client) Permission(ctx context.Context, id Ref) (model.Permission, error) {
	return readFolder[model.Permission](ctx, c, id, "/permission")
}

// GroupPermissions reads a folder's group permissions.
func (c *Client) GroupPermissions(ctx context.Context, id Ref) (model.GroupPermissions, error) {
	return readFolder[model.GroupPermissions](ctx, c, id, "/permission/groups")
}

// OthersPermission reads a folder's permission for others.
func (c *Client) OthersPermission(ctx context.Context, id Ref) (model.OthersPermission, error) {
	return readFolder[model.OthersPermission](ctx, c, id, "/permission/others")
}

// Owner reads a folder's owner.
func (c *Client) Owner(ctx context.Context, id Ref) (model.Owner, error) {
	return readFolder[model.Owner](ctx, c, id, "/permission/owner")
}

// readFolder reads the resource at the folder's address plus suffix as a T.
func readFolder[T any](ctx context.Context, c *Client, id Ref, suffix string) (T, error) {
	var out T
	path, err := folderPath(id, suffix)
	if err != nil {
		return out, fmt.Errorf("read folder %s%s: %w", id, suffix, err)
	}
	err = c.read(ctx, http.MethodGet, path, "", nil, &out)
	return out, err
}

// The writes below return what the server answers, the object the matching
// read returns; they return nil and no error when the server sends no body
// (the spec does not show write answers), so the caller reads it again.

// ChangeOwner makes user the owner of a folder.
func (c *Client) ChangeOwner(ctx context.Context, id Ref, user string) (*model.Owner, error) {
	path, err := folderPath(id, "/permission/owner")
	if err != nil {
		return nil, fmt.Errorf("change owner of %s: %w", id, err)
	}
	return write[model.Owner](ctx, c, http.MethodPut, path, model.Owner{Owner: user})
}

// CreateGroupPermission grants a group flags on a folder; the answer is the
// folder's group permissions.
func (c *Client) CreateGroupPermission(ctx context.Context, id Ref, group string, flags model.Flags) (*model.GroupPermissions, error) {
	path, err := folderPath(id, "/permission/groups")
	if err != nil {
		return nil, fmt.Errorf("create group permission on %s: %w", id, err)
	}
	return write[model.GroupPermissions](ctx, c, http.MethodPost, path, model.GroupPermission{Name: group, Flags: flags})
}

// ChangeGroupPermission changes a group's flags on a folder; the answer is
// the folder's group permissions.
func (c *Client) ChangeGroupPermission(ctx context.Context, id Ref, group string, flags model.Flags) (*model.GroupPermissions, error) {
	path, err := groupPath(id, group)
	if err != nil {
		return nil, fmt.Errorf("change group permission on %s: %w", id, err)
	}
	return write[model.GroupPermissions](ctx, c, http.MethodPut, path, model.GroupPermission{Name: group, Flags: flags})
}

// DeleteGroupPermission removes a group's permission from a folder; the
// answer is the folder's group permissions.
func (c *Client) DeleteGroupPermission(ctx context.Context, id Ref, group string) (*model.GroupPermissions, error) {
	path, err := groupPath(id, group)
	if err != nil {
		return nil, fmt.Errorf("delete group permission on %s: %w", id, err)
	}
	return write[model.GroupPermissions](ctx, c, http.MethodDelete, path, nil)
}

// ChangeOthersPermission sets what users outside the owner and the groups may do.
func (c *Client) ChangeOthersPermission(ctx context.Context, id Ref, flags model.Flags) (*model.OthersPermission, error) {
	path, err := folderPath(id, "/permission/others")
	if err != nil {
		return nil, fmt.Errorf("change others permission on %s: %w", id, err)
	}
	body := model.OthersPermission{Executable: flags.Executable, Readable: flags.Readable, Writable: flags.Writable}
	return write[model.OthersPermission](ctx, c, http.MethodPut, path, body)
}

func groupPath(id Ref, group string) (string, error) {
	if group == "" {
		return "", errors.New("empty group name")
	}
	return folderPath(id, "/permission/groups/"+escapeSegment(group))
}
