package ui

import (
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/folders"
)

// defaultPanes returns the console's panes in tab order (keys 1, 2, 3).
// Plugging a pane in is replacing its line here; see doc.go.
func defaultPanes(ctx *common.Context) []common.Pane {
	return []common.Pane{
		folders.New(ctx),
		newPlaceholder(ctx, "Connections", "coming: connections and their dependency graph"),
		newPlaceholder(ctx, "Jobs", "coming: the live job dashboard"),
	}
}
