package folders

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// walkLimit bounds the folders one filter's walk reads; walkWorkers the
// reads at once.
const (
	walkLimit   = 500
	walkWorkers = 4
)

// walkMsg brings the folders a filter's walk read, parents before their
// children, so each lands under a folder already in the tree.
type walkMsg struct {
	ticket  common.Ticket
	read    []model.Folder
	ids     []int64 // the folder id of each read
	cut     bool    // walkLimit was reached
	stopped bool    // cancelled (esc)
}

// walker is the filter's walk of the folders not read yet.
type walker struct {
	reads  common.Requests
	cancel context.CancelFunc // nil when no walk runs
	done   bool               // the tree has been walked (to the limit)
}

// walkForFilter starts, for the first filter since the tree was read, a
// walk of the folders not read yet, so the filter finds what is not open:
// breadth first, walkLimit folders at most, cancelled by esc.
func (p *Pane) walkForFilter() tea.Cmd {
	client := p.ctx.Client
	if client == nil || p.walk.done || p.walk.cancel != nil || p.tree.root == nil || p.tree.root.state != common.Loaded {
		return nil
	}
	var start []int64
	var queue []*node
	queue = append(queue, p.tree.root)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.state != common.Loaded {
			start = append(start, n.id)
			continue
		}
		queue = append(queue, n.children...)
	}
	if len(start) == 0 {
		p.walk.done = true
		return nil
	}
	walkCtx, cancel := context.WithCancel(context.Background())
	ticket := p.walk.reads.Next()
	p.walk.cancel = cancel
	return common.StartTask("searching the folders not read yet", common.Quick, func(ctx context.Context) tea.Msg {
		defer context.AfterFunc(ctx, cancel)() // quitting stops it too
		defer cancel()
		read, ids, cut := walkFolders(walkCtx, client, start)
		return walkMsg{ticket: ticket, read: read, ids: ids, cut: cut, stopped: walkCtx.Err() != nil && !cut}
	})
}

// walkFolders reads folders level by level from start, walkLimit at most.
func walkFolders(ctx context.Context, client *api.Client, start []int64) ([]model.Folder, []int64, bool) {
	var read []model.Folder
	var ids []int64
	level := start
	for len(level) > 0 && ctx.Err() == nil {
		if room := walkLimit - len(read); len(level) > room {
			level = level[:room]
		}
		got := make([]model.Folder, len(level))
		ok := make([]bool, len(level))
		var wg sync.WaitGroup
		sem := make(chan struct{}, walkWorkers)
		for i, id := range level {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				f, err := client.Folder(ctx, api.FileID(id))
				got[i], ok[i] = f, err == nil
			})
		}
		wg.Wait()
		var next []int64
		for i := range level {
			if !ok[i] {
				continue
			}
			read, ids = append(read, got[i]), append(ids, level[i])
			for _, c := range got[i].Embedded.Folders {
				next = append(next, c.ID())
			}
		}
		if len(read) >= walkLimit {
			return read, ids, len(next) > 0
		}
		level = next
	}
	return read, ids, false
}

// gotWalk puts the folders the walk read into the tree, closed, and filters
// again.
func (p *Pane) gotWalk(msg walkMsg) tea.Cmd {
	if !p.walk.reads.Current(msg.ticket) {
		return nil
	}
	p.walk.cancel = nil
	if msg.stopped {
		return nil
	}
	p.walk.done = true
	selected := p.selected()
	for i, f := range msg.read {
		if n := p.tree.byID[msg.ids[i]]; n != nil && n.state != common.Loaded {
			p.tree.setChildren(n, f.Embedded.Folders)
			n.touch()
		}
	}
	p.filesForFilter()
	p.tree.rebuild()
	p.keepCursorOn(selected)
	if msg.cut {
		return common.Info("the filter searched the first " + common.Plural(walkLimit, "folder") + " not read before; open a folder to search below it")
	}
	return nil
}

// cancelWalk stops a walk under way (esc cleared the filter).
func (p *Pane) cancelWalk() {
	if p.walk.cancel != nil {
		p.walk.cancel()
		p.walk.cancel = nil
		p.walk.reads.Reset() // its answer is dropped
	}
}
