package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// folderPlaceholder stands in for the folders pane where a test needs the
// pane that shows folder paths (:cd goes to it) but not the tree.
type folderPlaceholder struct{ *uitest.Stub }

func (f folderPlaceholder) Update(tea.Msg) (common.Pane, tea.Cmd) { return f, nil }
func (folderPlaceholder) CurrentPath() string                     { return "/" }
func (folderPlaceholder) CompletePath(string) []string            { return nil }
