package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/dapconsole/dapconsole/api"
)

// parseRef reads a file or folder as a script names it: a file id (digits),
// a UUID, or a path from the root.
func parseRef(s string) (api.Ref, error) {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return api.FileID(id), nil
	}
	if len(s) == 36 && uuid.Validate(s) == nil {
		return api.UUID(s), nil
	}
	if strings.HasPrefix(s, "/") {
		return api.Path(s), nil
	}
	return api.Ref{}, usage("%q: want a file id, a UUID or a path from the root (/Data/…)", s)
}

// parseID reads an id the platform numbers (a configuration, an execution).
func parseID(what, s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, usage("%s %q: want a positive number", what, s)
	}
	return id, nil
}

// onPlatform returns ref as the platform's folder and file endpoints take
// it: they take a file id or a UUID, not a path (the embedded platform
// takes paths, the real one answers 404). A path becomes the folder's file
// id, walked from the root, or a file's UUID from the per-kind lists,
// addressed as a file.
func onPlatform(ctx context.Context, client *api.Client, ref api.Ref) (api.Ref, error) {
	if !ref.IsPath() {
		return ref, nil
	}
	folder, err := client.FolderByPath(ctx, ref.String())
	if err == nil {
		return api.FileID(folder.ID()), nil
	}
	if !api.IsNotFound(err) {
		return ref, err
	}
	index, ierr := api.ReadFileIndex(ctx, client)
	if ierr != nil {
		return ref, ierr
	}
	if file, ok := index.ByPath(ref.String()); ok && file.UUID != "" {
		return api.UUID(file.UUID).AsFile(), nil
	}
	return ref, err
}
