package ui

import (
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/connections"
	"github.com/dapconsole/dapconsole/ui/folders"
	"github.com/dapconsole/dapconsole/ui/jobs"
)

// defaultPanes returns the console's panes in tab order (keys 1, 2, 3).
// Plugging a pane in is replacing its line here; see doc.go.
func defaultPanes(ctx *common.Context) []common.Pane {
	return []common.Pane{
		folders.New(ctx),
		connections.New(ctx),
		jobs.New(ctx),
	}
}
