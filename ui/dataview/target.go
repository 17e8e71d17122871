package dataview

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// OpenFile opens the view on a file of the tree or a job of the dashboard:
// its kind is told by the file index, or by its path's extension; its
// configuration id is configID when known (> 0), else the index's. A file
// that keeps no data, or that the index does not know the id of, gets a
// sentence instead.
func OpenFile(ctx *common.Context, path, uuid string, configID int64) tea.Cmd {
	var entry common.FileEntry
	found := false
	if ctx.FileIndex != nil {
		if entry, found = ctx.FileIndex.ByUUID(uuid); !found {
			entry, found = ctx.FileIndex.ByPath(path)
		}
	}
	kind, known := model.KindOfPath(path)
	if found {
		kind, known = entry.Kind, true
		if configID <= 0 {
			configID = entry.ID
		}
	}
	switch {
	case !known:
		return common.Problem(fmt.Sprintf("%s: its kind is not known, so neither is where its data is", common.Clean(path)))
	case !api.HasData(kind):
		return common.Problem(fmt.Sprintf("%s is a %s: only imports, data links, uploads and workbooks keep data", common.Clean(path), kind))
	case configID <= 0:
		return common.Problem(common.Clean(path) + ": its configuration id is not known yet (the file lists are still being read)")
	}
	_, cmd := Open(ctx, Target{Kind: kind, ConfigID: configID, Path: path})
	return cmd
}
