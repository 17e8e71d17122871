package folders

import (
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// maxWatched bounds the folders one watch tick reads again.
const maxWatched = 16

// watch reads again, quietly, the folders whose children are on screen, so
// that what changed elsewhere shows without r; the cursor, the filter and
// the open folders stay (gotChildren keeps them).
func (p *Pane) watch() tea.Cmd {
	if p.ctx.Client == nil || p.tree.root == nil || p.tree.root.state != common.Loaded {
		return nil
	}
	folders := []*node{p.tree.root}
	seen := map[*node]bool{p.tree.root: true}
	last := min(len(p.tree.rows), p.offset+p.listHeight())
	for _, n := range p.tree.rows[min(p.offset, last):last] {
		if f := n.parent; f != nil && !seen[f] && len(folders) < maxWatched {
			seen[f] = true
			folders = append(folders, f)
		}
	}
	var cmds []tea.Cmd
	for _, f := range folders {
		if p.reading(f.id) && f.parent != nil {
			continue
		}
		cmds = append(cmds, p.read(f, common.Quiet))
	}
	return tea.Batch(cmds...)
}
