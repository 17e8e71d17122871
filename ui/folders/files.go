package folders

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// filesMsg answers a read of every per-kind list.
type filesMsg struct {
	ticket common.Ticket
	index  *common.FileIndex
	err    error
}

func (m filesMsg) Failure() error { return m.err }

// jobStatesMsg answers the status reads of the jobs in one folder, by UUID.
type jobStatesMsg struct {
	folderID int64
	states   map[string]model.JobState
}

// readFiles reads every per-kind list once; the tree takes each folder's
// files from the index the answer carries. The task is quiet: the folders
// are there meanwhile, and the files join them when they come.
func (p *Pane) readFiles() tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	ticket := p.fileReads.Next()
	p.filesLoading = true
	return common.StartTask("reading the file lists", common.Quiet, func(ctx context.Context) tea.Msg {
		index, err := common.ReadFileIndex(ctx, client)
		return filesMsg{ticket: ticket, index: index, err: err}
	})
}

// gotFiles installs a new file index: every folder read so far gets its
// files, and the open ones read their jobs' states.
func (p *Pane) gotFiles(msg filesMsg) tea.Cmd {
	if !p.fileReads.Current(msg.ticket) {
		return nil
	}
	p.filesLoading = false
	if msg.err != nil {
		return common.Fail("reading the file lists", msg.err)
	}
	p.ctx.FileIndex = msg.index
	p.filesGen++
	selected := p.selected()
	changed := false
	var cmds []tea.Cmd
	// Only the open folders take their files now: the others do when they
	// are opened, so a new index costs what is on screen, not the tree.
	for _, n := range p.tree.byID {
		if n.state != common.Loaded || !n.expanded {
			continue
		}
		if p.syncFiles(n) {
			changed = true
		}
		cmds = append(cmds, p.readStates(n))
	}
	if p.tree.filter != "" {
		p.filesForFilter()
		changed = true
	}
	if changed {
		p.tree.rebuild()
		p.keepCursorOn(selected)
	}
	if text := msg.index.MissingText(); text != "" && !p.saidMissing {
		p.saidMissing = true
		cmds = append(cmds, common.Notify(text))
	}
	return tea.Batch(cmds...)
}

// syncFiles gives a folder its files from the newest index, once per
// index, and reports whether its rows changed.
func (p *Pane) syncFiles(n *node) bool {
	if p.ctx.FileIndex == nil || n.filesGen == p.filesGen {
		return false
	}
	n.filesGen = p.filesGen
	return p.tree.attachFiles(n, p.ctx.FileIndex.In(n.path()))
}

// filesForFilter gives every folder known its files while a filter is
// set, open or not, read or not (the index names files by path): the
// filter finds files in closed folders as it finds their sub-folders.
func (p *Pane) filesForFilter() {
	if p.tree.filter == "" {
		return
	}
	for _, n := range p.tree.byID {
		p.syncFiles(n)
	}
}

// folderLoaded gives a folder that was just read its files, and reads the
// states of its jobs when it is open.
func (p *Pane) folderLoaded(n *node) tea.Cmd {
	n.filesGen = 0 // the folder may have been renamed: its files again
	if p.syncFiles(n) {
		p.tree.rebuild()
	}
	for _, f := range n.files {
		forgetStates(f) // a folder read again (r, :watch) reads its jobs' states again
	}
	if n.expanded {
		return p.readStates(n)
	}
	return nil
}

// readStates reads the last state of each job in a folder whose state is
// not read yet, one status call each, in one quiet task.
func (p *Pane) readStates(n *node) tea.Cmd {
	client := p.ctx.Client
	var uuids []string
	for _, f := range n.files {
		if f.file.Kind.Runnable() && !f.stateAsked {
			f.stateAsked = true
			uuids = append(uuids, f.file.UUID)
		}
	}
	if len(uuids) == 0 || client == nil {
		return nil
	}
	folderID := n.id
	return common.StartTask("reading job states in "+n.path(), common.Quiet, func(ctx context.Context) tea.Msg {
		states := make(map[string]model.JobState, len(uuids))
		for _, id := range uuids {
			st, err := client.JobStatus(ctx, api.UUID(id))
			if err != nil {
				continue // the row keeps showing no state; the jobs pane says more
			}
			states[id] = st.JobStatus
		}
		return jobStatesMsg{folderID: folderID, states: states}
	})
}

// rereadFailed reads again, quietly, the folders whose read failed (the
// root's too) and the file lists if they failed: the server is back.
func (p *Pane) rereadFailed() tea.Cmd {
	var cmds []tea.Cmd
	for _, n := range p.tree.byID {
		if n.state == common.LoadFailed && !p.reading(n.id) {
			cmds = append(cmds, p.read(n, common.Quiet))
		}
	}
	if root := p.tree.root; (root == nil || root.state == common.LoadFailed) && !p.reading(0) {
		cmds = append(cmds, p.read(nil, common.Quiet))
	}
	if p.ctx.FileIndex == nil && !p.filesLoading && p.tree.root != nil {
		cmds = append(cmds, p.readFiles())
	}
	return tea.Batch(cmds...)
}

// followJobs takes the jobs poll's news for the jobs of the open folders:
// a job it lists shows the state it lists; one shown queued or running
// that it no longer lists has ended, and its last state is read again.
func (p *Pane) followJobs(msg common.JobsPolledMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, n := range p.tree.byID {
		if !n.expanded || n.state != common.Loaded {
			continue
		}
		ended := false
		for _, f := range n.files {
			st, listed := msg.Running[f.file.UUID]
			switch {
			case listed && st != f.jobState:
				f.jobState = st
				f.touch()
			case !listed && f.jobState.Active():
				forgetStates(f)
				ended = true
			}
		}
		if ended {
			cmds = append(cmds, p.readStates(n))
		}
	}
	return tea.Batch(cmds...)
}

func (p *Pane) gotStates(msg jobStatesMsg) {
	n := p.tree.byID[msg.folderID]
	if n == nil {
		return
	}
	for _, f := range n.files {
		if st, ok := msg.states[f.file.UUID]; ok && st != f.jobState {
			f.jobState = st
			f.touch()
		}
	}
}

// forgetStates makes the next readStates of the folder holding f ask for
// f's state again (after a trigger or a stop).
func forgetStates(f *node) { f.stateAsked = false }

// fileRef addresses a file row by UUID, which every endpoint takes.
func fileRef(f *node) api.Ref { return api.UUID(f.file.UUID) }

// fileLabel is how the status line and dialogs name a file.
func fileLabel(f *node) string { return f.file.Path }

// fileID is the id a file row shows and Y copies: its configuration id.
func configID(f *node) string { return fmt.Sprint(f.file.ID) }
