package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// SetTags replaces a file's tags (the platform's SetTags command) and
// returns the file's read, which shows them.
func (c *Client) SetTags(ctx context.Context, ref Ref, tags []string) (model.File, error) {
	var f model.File
	path, err := refPath(filesPath, ref, "/command")
	if err != nil {
		return f, fmt.Errorf("set tags of %s: %w", ref, err)
	}
	if tags == nil {
		tags = []string{} // clears them; null is no list
	}
	err = c.read(ctx, http.MethodPut, path, "", model.FileCommand{Type: model.CommandSetTags, Tags: tags}, &f)
	return f, err
}

// DeleteFiles deletes files (not folders) by file id, all or none; the
// server refuses while something reads from one of them, naming the
// dependents in the error's Paths.
func (c *Client) DeleteFiles(ctx context.Context, ids ...int64) error {
	if len(ids) == 0 {
		return fmt.Errorf("delete files: no file id")
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	query := url.Values{"fileIds": {strings.Join(parts, ",")}}.Encode()
	_, err := c.call(ctx, http.MethodDelete, strings.TrimSuffix(filesPath, "/"), query, nil, nil, false)
	return err
}

// workbooksV2Path is the v2 workbook family's home since release 7.
const workbooksV2Path = "/api/workbooks"

// CreateWorkbookV2 creates the workbook a v2 body describes, in the folder
// and under the name its file names.
func (c *Client) CreateWorkbookV2(ctx context.Context, wb model.WorkbookV2Body) (model.WorkbookV2Created, error) {
	var created model.WorkbookV2Created
	err := c.read(ctx, http.MethodPost, workbooksV2Path, "", model.WorkbookV2{Workbook: wb}, &created)
	return created, err
}

// UpdateWorkbookV2 replaces a workbook, named by file id or UUID, with a
// v2 body; it stays where it is.
func (c *Client) UpdateWorkbookV2(ctx context.Context, ref Ref, wb model.WorkbookV2Body) error {
	path, err := refPath(workbooksV2Path+"/", ref, "")
	if err != nil {
		return fmt.Errorf("update workbook %s: %w", ref, err)
	}
	_, err = c.call(ctx, http.MethodPut, path, "", model.WorkbookV2{Workbook: wb}, nil, false)
	return err
}

// RollbackWorkbook returns a workbook to the version it had before its
// last update (the embedded platform's body; the platform documents none).
func (c *Client) RollbackWorkbook(ctx context.Context, fileID int64) error {
	_, err := c.call(ctx, http.MethodPut, workbooksV2Path+"/rollback", "", model.WorkbookRollback{FileID: fileID}, nil, false)
	return err
}
