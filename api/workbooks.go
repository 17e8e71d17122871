package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/dapconsole/dapconsole/model"
)

// WorkbookV2 reads a workbook over the v2 interface by file id or UUID:
// at /api/workbooks/<ref> (release 7 on) first, and where the server has
// no such endpoint (404, 405 or 501) at /api/filesystem/workbooks/<ref>,
// where releases before 7 serve it. A 404 there too is the answer.
func (c *Client) WorkbookV2(ctx context.Context, ref Ref) (model.WorkbookV2, error) {
	var w model.WorkbookV2
	newer, err := refPath(workbooksV2Path+"/", ref, "")
	if err != nil {
		return w, fmt.Errorf("read workbook %s: %w", ref, err)
	}
	err = c.read(ctx, http.MethodGet, newer, "", nil, &w)
	if errors.Is(unsupported(err), ErrUnsupported) {
		older, _ := refPath("/api/filesystem/workbooks/", ref, "")
		w = model.WorkbookV2{}
		err = c.read(ctx, http.MethodGet, older, "", nil, &w)
	}
	return w, err
}
