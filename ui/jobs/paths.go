package jobs

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// pathsMsg answers a read of job files' paths, by file id.
type pathsMsg struct{ paths map[int64]string }

// needsPath reports whether the dashboard shows a path column: on a wide
// pane, or when two files on screen share a name (two Sales.wbk in
// different folders cannot be told apart otherwise; two runs of one file
// can, by their executions).
func (p *Pane) needsPath() bool {
	if p.width >= wideAt {
		return true
	}
	first, last := p.visibleRange()
	fileOf := make(map[string]int64, last-first)
	for _, r := range p.table.view[first:last] {
		if id, seen := fileOf[r.job.FileName]; seen && (id != r.job.FileID || id == 0) { // 0: not listed
			return true
		}
		fileOf[r.job.FileName] = r.job.FileID
	}
	return false
}

// chooseLayout picks the columns of the frame about to be drawn.
func (p *Pane) chooseLayout() {
	p.layout = p.layouts[0]
	if p.needsPath() {
		p.layout = p.layouts[1]
	}
}

// pathOf is what the path column says of a row: the path it was triggered
// by, the one the file index holds for its UUID, or the one read for it;
// the file's UUID while no path is known (a platform whose file read names
// no path).
func (p *Pane) pathOf(r *row) string {
	if r.ref.IsPath() {
		return r.ref.String()
	}
	if e, ok := p.ctx.FileIndex.ByUUID(r.job.UUID); ok {
		return e.Path
	}
	if path := p.paths[r.job.FileID]; path != "" {
		return path
	}
	return r.job.UUID
}

// readPaths reads the paths of the visible rows' files not known yet (not
// in the file index the folders pane read), when a path column shows; one
// read at a time, each file once.
func (p *Pane) readPaths() tea.Cmd {
	client := p.ctx.Client
	if p.reading || client == nil || !p.needsPath() {
		return nil
	}
	var ids []int64
	first, last := p.visibleRange()
	for _, r := range p.table.view[first:last] {
		if _, indexed := p.ctx.FileIndex.ByUUID(r.job.UUID); indexed {
			continue
		}
		if _, known := p.paths[r.job.FileID]; !known && r.job.FileID > 0 && !r.ref.IsPath() {
			ids = append(ids, r.job.FileID)
			p.paths[r.job.FileID] = "" // asked: not again, whatever the answer
		}
	}
	if len(ids) == 0 {
		return nil
	}
	p.reading = true
	return common.StartTask("reading job paths", common.Quiet, func(ctx context.Context) tea.Msg {
		found := make([]string, len(ids))
		fanOut(len(ids), func(i int) {
			if f, err := client.File(ctx, api.FileID(ids[i])); err == nil {
				found[i] = f.Path
			}
		})
		paths := make(map[int64]string, len(ids))
		for i, id := range ids {
			paths[id] = found[i]
		}
		return pathsMsg{paths: paths}
	})
}

func (p *Pane) gotPaths(msg pathsMsg) {
	p.reading = false
	for id, path := range msg.paths {
		p.paths[id] = path
	}
	for _, r := range p.table.rows {
		if _, ok := msg.paths[r.job.FileID]; ok {
			r.version++ // drawn again with its path
		}
	}
}
