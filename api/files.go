package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dapconsole/dapconsole/model"
)

const filesPath = "/api/filesystem/files/"

// ErrUnsupported marks an error from an endpoint the server does not offer
// (404, 405 or 501 on a list: an older release, a missing plug-in). Callers
// that can do without it test errors.Is(err, ErrUnsupported) and carry on.
var ErrUnsupported = errors.New("not offered by this server")

// unsupported wraps err with ErrUnsupported when its status says the
// endpoint itself is missing.
func unsupported(err error) error {
	for _, status := range []int{http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented} {
		if hasStatus(err, status) {
			return fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
	}
	return err
}

// kindListPaths are the per-kind list and read endpoints: the spec's
// connections list and the real platform's lists of the other kinds.
// Import jobs, data links and file uploads share one, the import-job
// family's, and are told apart by their paths' extensions.
var kindListPaths = map[model.Kind]string{
	model.KindConnection:  connectionsPath,
	model.KindImportJob:   importJobsPath,
	model.KindDataLink:    importJobsPath,
	model.KindFileUpload:  importJobsPath,
	model.KindWorkbook:    "/rest/workbook",
	model.KindExportJob:   "/rest/export-job",
	model.KindInfographic: "/rest/infographics",
}

const importJobsPath = "/rest/import-job"

// ListedKinds are the kinds FilesOfKind can list, in the order a console
// shows them.
var ListedKinds = []model.Kind{model.KindConnection, model.KindImportJob, model.KindDataLink, model.KindFileUpload,
	model.KindWorkbook, model.KindExportJob, model.KindInfographic}

// FilesOfKind lists every file of a kind the user may see, with its
// configuration id and path (and, where the server sends them, name and
// UUID). A server without the kind's list answers an error matching
// ErrUnsupported.
func (c *Client) FilesOfKind(ctx context.Context, kind model.Kind) ([]model.FileEntry, error) {
	path, ok := kindListPaths[kind]
	if !ok {
		return nil, fmt.Errorf("list %s files: no list endpoint for the kind", kind)
	}
	list, err := c.fileList(ctx, path)
	if err != nil {
		return nil, err
	}
	return entriesOf(list, kind), nil
}

// ListFiles lists the files of the kinds, reading each list once (the
// import-job family's three kinds share one). A kind whose list the server
// does not offer is in missing; any other failure is the error.
func (c *Client) ListFiles(ctx context.Context, kinds ...model.Kind) (files []FileEntry, missing []model.Kind, err error) {
	type read struct {
		entries []model.FileEntry
		lacking bool
	}
	lists := map[string]read{}
	for _, kind := range kinds {
		path, ok := kindListPaths[kind]
		if !ok {
			return nil, nil, fmt.Errorf("list %s files: no list endpoint for the kind", kind)
		}
		list, done := lists[path]
		if !done {
			entries, err := c.fileList(ctx, path)
			if err != nil && !errors.Is(err, ErrUnsupported) {
				return nil, nil, fmt.Errorf("list %s files: %w", kind, err)
			}
			list = read{entries: entries, lacking: err != nil}
			lists[path] = list
		}
		if list.lacking {
			missing = append(missing, kind)
			continue
		}
		for _, e := range entriesOf(list.entries, kind) {
			files = append(files, FileEntry{FileEntry: e, Kind: kind})
		}
	}
	return files, missing, nil
}

// fileList reads a per-kind list; a server without it answers an error
// matching ErrUnsupported.
func (c *Client) fileList(ctx context.Context, path string) ([]model.FileEntry, error) {
	var list []model.FileEntry
	if err := c.read(ctx, http.MethodGet, path, "", nil, &list); err != nil {
		return nil, unsupported(err)
	}
	return list, nil
}

// entriesOf keeps the entries of a list that are of the kind: all of them
// but in the import-job family's list, whose kinds the platform tells by
// the paths' extensions and whose system items (under /.system, which the
// real platform fails to read) are left out.
func entriesOf(list []model.FileEntry, kind model.Kind) []model.FileEntry {
	if !kind.ImportFamily() {
		return list
	}
	var kept []model.FileEntry
	for _, e := range list {
		if !model.InSystemFolder(e.Path) && model.ImportFamilyKind(e.Path) == kind {
			kept = append(kept, e)
		}
	}
	return kept
}

// Configuration reads the representation of a file of a kind by its
// configuration id (a connection, an import job, a workbook, …).
func (c *Client) Configuration(ctx context.Context, kind model.Kind, configID int64) (model.Configuration, error) {
	var cfg model.Configuration
	path, ok := kindListPaths[kind]
	if !ok {
		return cfg, fmt.Errorf("read %s %d: no endpoint for the kind", kind, configID)
	}
	err := c.read(ctx, http.MethodGet, path+"/"+strconv.FormatInt(configID, 10), "", nil, &cfg)
	return cfg, err
}

// File reads a file's entry (name, UUID, links; its path on the embedded
// server) by file id, UUID or path.
func (c *Client) File(ctx context.Context, ref Ref) (model.File, error) {
	var f model.File
	path, err := refPath(filesPath, ref, "")
	if err != nil {
		return f, fmt.Errorf("read file %s: %w", ref, err)
	}
	err = c.read(ctx, http.MethodGet, path, "", nil, &f)
	return f, err
}

// CreateFolder makes a folder called name inside parent and returns its read.
func (c *Client) CreateFolder(ctx context.Context, parent Ref, name string) (model.Folder, error) {
	var f model.Folder
	path, err := folderPath(parent, "")
	if err != nil {
		return f, fmt.Errorf("create folder %q in %s: %w", name, parent, err)
	}
	err = c.read(ctx, http.MethodPost, path, "", model.FolderName{Name: name}, &f)
	return f, err
}

// RenameFolder gives a folder a new name in the same parent; it returns
// the folder's read, or nil when the server sent no body.
func (c *Client) RenameFolder(ctx context.Context, id Ref, name string) (*model.Folder, error) {
	path, err := folderPath(id, "/name")
	if err != nil {
		return nil, fmt.Errorf("rename folder %s: %w", id, err)
	}
	return write[model.Folder](ctx, c, http.MethodPut, path, model.FolderName{Name: name})
}

// MoveFolder puts a folder, with its contents, into another folder.
func (c *Client) MoveFolder(ctx context.Context, id, parent Ref) (*model.Folder, error) {
	path, err := folderPath(id, "/parent")
	if err == nil && parent.IsZero() {
		err = ErrEmptyRef
	}
	if err != nil {
		return nil, fmt.Errorf("move folder %s: %w", id, err)
	}
	return write[model.Folder](ctx, c, http.MethodPut, path, model.FolderParent{ParentFolder: model.ParentRef{Ref: parent.String()}})
}

// DeleteFolder deletes an empty folder; the server refuses one with
// contents (409).
func (c *Client) DeleteFolder(ctx context.Context, id Ref) error {
	path, err := folderPath(id, "")
	if err != nil {
		return fmt.Errorf("delete folder %s: %w", id, err)
	}
	_, err = c.call(ctx, http.MethodDelete, path, "", nil, nil, false)
	return err
}
