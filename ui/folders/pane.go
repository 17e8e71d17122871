package folders

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Pane is the folder tree: folders open and close in place, their children
// read when first opened; the permissions of the selected folder open
// beside the tree (or over it when the terminal is narrow).
type Pane struct {
	ctx           *common.Context
	tree          *tree
	cursor        int // index into tree.rows
	offset        int // first row on screen
	width, height int

	filter common.FilterField

	// reads holds, per folder id (0 for the root), the folder's read in
	// flight: a folder not in it is not being read, and an answer to a read
	// a newer one replaced is dropped.
	reads map[int64]*common.Requests

	// gotoPath holds the segments of a `:cd` still to walk once their
	// parents are read.
	gotoPath []string
	// walk reads, for a filter, the folders not read yet.
	walk walker
	// jumpedIn says the tree was shown by a jump from elsewhere (:cd, a
	// job's "where it lives"), to which esc returns.
	jumpedIn bool
	// gotoReread holds the folders the walk read again for a segment it did
	// not find, so that each is read again once per `:cd`.
	gotoReread map[int64]bool
	// gotoQuiet: the walk follows a folder the console renamed or moved,
	// whose write already said so; it ends without "at PATH".
	gotoQuiet bool

	rows  rowCache
	perms *permEditor // nil while closed

	// fileReads tags the latest read of the file lists; saidMissing is
	// set once the status line said which kinds the server lists not.
	fileReads    common.Requests
	filesLoading bool
	filesGen     int // counts the file indexes installed
	saidMissing  bool
	// firstFrameOut is set by common.FirstFrameMsg: the file lists (every
	// connection among them, thousands on a big platform) are read after
	// the first frame, which shows the root folder's folders only.
	firstFrameOut bool

	people people // for the owner and group pick lists

	lastTransfer  int                     // id of the latest backup or restore
	transfers     map[int]*transferDialog // the running ones, by id
	lastBackup    string                  // offered to restore: the file the latest backup wrote or restore read
	restoreFlags  api.RestoreFlags        // the flags of the latest restore, offered again
	skipUnchanged bool                    // the latest restore's "send only what changed", offered again
	backupFlags   api.BackupFlags         // the flags of the latest backup, offered again
	zips          []string                // the ZIP files the restore form's picker offers

	// gen counts changes: every Update and SetSize may change the screen,
	// so each starts a new generation; View reuses its last frame within one.
	gen    int
	frame  frame
	crumbs crumbsCache
}

// New returns the folder tree pane.
func New(ctx *common.Context) *Pane {
	return &Pane{ctx: ctx, tree: newTree(), transfers: map[int]*transferDialog{}, filter: common.NewFilterField(ctx, "filter"), reads: map[int64]*common.Requests{}, rows: newRowCache()}
}

// dropRenderings forgets the rows and breadcrumbs as drawn, whose nodes a
// new tree leaves behind. New styles need no call: the caches key on them.
func (p *Pane) dropRenderings() {
	p.rows = newRowCache()
	p.crumbs = crumbsCache{}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Folders" }

// Init implements common.Pane: read the root folder.
// The file lists are read once the root has come and the first frame is
// out (see gotChildren and common.FirstFrameMsg).
func (p *Pane) Init() tea.Cmd { return p.read(nil, common.Quick) }

// Loaded implements common.Loader: the root folder's read has answered.
func (p *Pane) Loaded() bool { return !p.reading(0) }

// readFilesOnce reads the file lists when the tree has a root, the first
// frame is out and no index is there or on its way.
func (p *Pane) readFilesOnce() tea.Cmd {
	if p.tree.root == nil || !p.firstFrameOut || p.ctx.FileIndex != nil || p.filesLoading {
		return nil
	}
	return p.readFiles()
}

// SetSize implements common.Pane.
func (p *Pane) SetSize(width, height int) {
	p.gen++
	p.width, p.height = width, height
	p.filter.SetWidth(width)
	if p.perms != nil {
		p.perms.setSize(p.permsSize())
	}
	p.scrollToCursor()
}

// Leave implements common.Leaver: the permissions panel closes when the
// user switches panes.
func (p *Pane) Leave() {
	p.jumpedIn = false // left by the user: esc no longer walks back
	if p.perms != nil {
		p.gen++
		p.perms = nil
		p.SetSize(p.width, p.height)
	}
}

// CapturingInput implements common.InputCapturer.
func (p *Pane) CapturingInput() bool {
	return p.filter.Active() || (p.perms != nil && p.perms.capturingInput())
}

// nextRead tags a new read of a folder, dropping the answer to the one
// before.
func (p *Pane) nextRead(nodeID int64) common.Ticket {
	r := p.reads[nodeID]
	if r == nil {
		r = new(common.Requests)
		p.reads[nodeID] = r
	}
	return r.Next()
}

// reading reports whether a read of the folder is in flight.
func (p *Pane) reading(nodeID int64) bool {
	_, ok := p.reads[nodeID]
	return ok
}

// read asks for the children of folder n (of the root when n is nil or the
// root) in a task of kind; how n shows meanwhile is the caller's
// (readVisibly shows it loading, a quiet reread keeps it as it is).
func (p *Pane) read(n *node, kind common.TaskKind) tea.Cmd {
	client := p.ctx.Client
	if n == nil || n.parent == nil {
		if client == nil {
			return nil // not logged in yet: LoggedInMsg reads the root
		}
		ticket, readRoot := p.nextRead(0), p.ctx.FirstRoot.Or(client.RootFolder)
		return common.StartTask("reading /", kind, func(ctx context.Context) tea.Msg {
			f, err := readRoot(ctx)
			return childrenMsg{ticket: ticket, folder: f, err: err}
		})
	}
	ticket, id, path := p.nextRead(n.id), n.id, n.path()
	return common.StartTask("reading "+path, kind, func(ctx context.Context) tea.Msg {
		f, err := client.Folder(ctx, api.FileID(id))
		return childrenMsg{ticket: ticket, nodeID: id, folder: f, err: err}
	})
}

// readVisibly reads folder n again, showing it as loading until the answer.
func (p *Pane) readVisibly(n *node) tea.Cmd {
	n.state = common.Loading
	n.touch()
	return p.read(n, common.Quick)
}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	p.gen++
	for _, route := range []func(tea.Msg) (tea.Cmd, bool){p.routeReads, p.routeWrites, p.updateCopy} {
		if cmd, ok := route(msg); ok {
			return p, cmd
		}
	}
	return p, p.updateTransfers(msg)
}

// routeReads takes the reads of folders, file lists, job states and people, and what says to read again.
func (p *Pane) routeReads(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case walkMsg:
		return p.gotWalk(msg), true
	case childrenMsg:
		return p.gotChildren(msg), true
	case common.WatchTickMsg:
		return p.watch(), true
	case common.FirstFrameMsg:
		p.firstFrameOut = true
		return p.readFilesOnce(), true
	case common.GotoPathMsg:
		p.jumpedIn = true
		return p.startGoto(msg.Path), true
	case common.LoggedInMsg:
		return p.reset(), true
	case filesMsg:
		return p.gotFiles(msg), true
	case peopleMsg:
		return p.gotPeople(msg), true
	case jobStatesMsg:
		p.gotStates(msg)
		return nil, true
	case common.ServerBackMsg:
		return p.rereadFailed(), true
	case common.FilesChangedMsg:
		return p.readFiles(), true
	case common.JobsPolledMsg:
		return p.followJobs(msg), true
	}
	return nil, false
}

// routeWrites takes the keys, the permissions' answers and the folder writes.
func (p *Pane) routeWrites(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case permsMsg, addGroupMsg, setFlagsMsg, deleteGroupMsg:
		if p.perms != nil {
			return p.perms.update(msg), true
		}
		return nil, true
	case tea.KeyPressMsg:
		return p.handleKey(msg), true
	case folderWrite:
		return p.runFolderWrite(msg), true
	case folderWritten:
		return p.folderWriteDone(msg), true
	case renameCommand:
		return p.command("rename", func(n *node) (tea.Msg, error) { return p.renameWrite(n, msg.name) }), true
	case moveCommand:
		return p.command("move", func(n *node) (tea.Msg, error) { return p.moveWrite(n, msg.target) }), true
	}
	return nil, false
}

// reset forgets what was read as the previous user and reads the root as
// the new one; the filter stays, as its field still shows it.
func (p *Pane) reset() tea.Cmd {
	p.cancelWalk()
	p.walk.done = false
	filter := p.tree.filter
	p.tree = newTree()
	p.tree.filter = filter
	p.cursor, p.offset, p.perms = 0, 0, nil
	p.dropRenderings()
	p.ctx.FileIndex, p.filesLoading = nil, false
	p.people = people{}
	// Answers read as the previous user are dropped.
	p.reads = map[int64]*common.Requests{}
	p.fileReads.Reset()
	return p.read(nil, common.Quick)
}

func (p *Pane) gotChildren(msg childrenMsg) tea.Cmd {
	if r := p.reads[msg.nodeID]; r == nil || !r.Current(msg.ticket) {
		return nil // a newer read replaced this one
	}
	delete(p.reads, msg.nodeID)
	selected := p.selected()
	var n *node
	var files tea.Cmd
	if msg.nodeID == 0 {
		if msg.err != nil {
			if p.tree.root != nil {
				p.tree.root.state = common.LoadFailed
				p.tree.root.touch()
			}
			p.gotoPath = nil
			return common.Fail("reading the root folder", msg.err)
		}
		n = p.tree.setRoot(msg.folder)
		files = p.readFilesOnce()
	} else {
		n = p.tree.byID[msg.nodeID]
		if n == nil {
			return nil // the folder went away meanwhile
		}
		if msg.err != nil {
			n.state = common.LoadFailed
			n.touch()
			p.gotoPath = nil
			return common.Fail("reading "+n.path(), msg.err) // a 401 brings the login screen
		}
		p.tree.setChildren(n, msg.folder.Embedded.Folders)
	}
	loadedCmd := p.folderLoaded(n)
	p.keepCursorOn(selected)
	return tea.Batch(loadedCmd, files, p.continueGoto())
}

// selected returns the folder under the cursor, nil before the root is read.
func (p *Pane) selected() *node {
	if p.cursor >= 0 && p.cursor < len(p.tree.rows) {
		return p.tree.rows[p.cursor]
	}
	return nil
}

// keepCursorOn puts the cursor back on n after the rows changed, or keeps
// its index when n is gone.
func (p *Pane) keepCursorOn(n *node) {
	if n != nil {
		if i := p.tree.indexOf(n, p.cursor); i >= 0 {
			p.cursor = i
		}
	}
	p.cursor = max(0, min(p.cursor, len(p.tree.rows)-1))
	p.scrollToCursor()
}

// command runs a `:` command on the selected folder: build turns it into
// the write, or says what is wrong.
func (p *Pane) command(name string, build func(n *node) (tea.Msg, error)) tea.Cmd {
	if cmd := p.readOnlyRefusal(name); cmd != nil {
		return cmd
	}
	n := p.selected()
	if n == nil {
		return common.Problem(name + ": no folder selected")
	}
	w, err := build(n)
	if err != nil {
		return common.Fail(name, err)
	}
	return p.runFolderWrite(w.(folderWrite))
}

// back leaves the innermost state: the filter, then the marks.
func (p *Pane) back() tea.Cmd {
	if p.tree.filter != "" {
		p.cancelWalk()
		p.setFilter("")
		return nil
	}
	marked := p.tree.marked()
	for _, n := range marked {
		p.tree.setMarked(n, false)
	}
	if len(marked) == 0 && p.jumpedIn {
		// Nothing left to close, and the tree was opened from elsewhere
		// (:cd, "where it lives"): esc goes back there.
		p.jumpedIn = false
		return common.Send(common.BackMsg{})
	}
	return nil
}

func (p *Pane) moveCursor(delta int) {
	p.cursor = max(0, min(p.cursor+delta, len(p.tree.rows)-1))
	p.scrollToCursor()
}

// scrollToCursor keeps the cursor inside the window of rows on screen.
func (p *Pane) scrollToCursor() {
	p.offset = common.ScrollOffset(p.cursor, p.offset, p.listHeight(), len(p.tree.rows))
}

// open expands a folder, reading its children the first time; on an open
// folder it steps into the first child.
func (p *Pane) open(n *node) tea.Cmd {
	if n.expanded && n.state == common.Loaded {
		if len(n.children)+len(n.files) > 0 && p.tree.filter == "" {
			p.moveCursor(1)
		}
		return nil
	}
	n.expanded = true
	n.touch()
	var cmd tea.Cmd
	switch n.state {
	case common.Loaded:
		p.syncFiles(n)
		cmd = p.readStates(n)
	case common.NotLoaded, common.LoadFailed:
		cmd = p.readVisibly(n)
	}
	p.tree.rebuild()
	p.keepCursorOn(n)
	return cmd
}

// close collapses an open folder, or moves to the parent of a closed one.
func (p *Pane) close(n *node) {
	if n.expanded && n.parent != nil {
		n.expanded = false
		n.touch()
		p.tree.rebuild()
		p.keepCursorOn(n)
		return
	}
	if n.parent != nil {
		p.keepCursorOn(n.parent)
	}
}

// refresh reads again the selected folder if it is open, else its parent
// (and with it the states of its jobs), and the file lists.
func (p *Pane) refresh(n *node) tea.Cmd {
	target := n
	if (!n.expanded || n.isFile()) && n.parent != nil {
		target = n.parent
	}
	cmds := []tea.Cmd{p.readVisibly(target), p.readFiles()}
	if p.perms != nil {
		cmds = append(cmds, p.perms.read())
	}
	return tea.Batch(cmds...)
}

func (p *Pane) handleFilterKey(msg tea.KeyPressMsg) tea.Cmd {
	action, cmd := p.filter.Update(msg, p.ctx.Keys)
	switch action {
	case common.FilterEdited:
		p.setFilter(p.filter.Value())
		if p.filter.Value() != "" {
			return tea.Batch(cmd, p.walkForFilter())
		}
	case common.FilterCleared:
		p.cancelWalk()
		p.setFilter("")
	case common.FilterLeft:
		return p.handleKey(msg)
	}
	return cmd
}

func (p *Pane) setFilter(text string) {
	selected := p.selected()
	if text == "" {
		p.filter.Clear()
	}
	p.tree.filter = text
	p.filesForFilter()
	p.tree.rebuild()
	p.keepCursorOn(selected)
}

// startGoto walks to a folder path, reading folders on the way.
func (p *Pane) startGoto(path string) tea.Cmd { return p.walkTo(path, false) }

// walkTo walks to a folder path, reading folders on the way; quiet ends
// it without saying "at PATH".
func (p *Pane) walkTo(path string, quiet bool) tea.Cmd {
	clean := strings.Trim(path, "/ ")
	p.gotoPath, p.gotoReread, p.gotoQuiet = nil, map[int64]bool{}, quiet
	if clean != "" {
		p.gotoPath = strings.Split(clean, "/")
	}
	if p.tree.filter != "" {
		p.setFilter("")
	}
	p.perms = nil
	if p.tree.root == nil || p.tree.root.state != common.Loaded {
		if p.reading(0) {
			return nil
		}
		return p.read(nil, common.Quick)
	}
	p.keepCursorOn(p.tree.root)
	return p.continueGoto()
}

// continueGoto steps down the pending path as far as the folders read so
// far allow, and reads the next one.
func (p *Pane) continueGoto() tea.Cmd {
	if p.gotoPath == nil || p.tree.root == nil {
		return nil
	}
	at := p.tree.root
	for i, seg := range p.gotoPath {
		if at.state != common.Loaded {
			if at.state != common.Loading {
				return p.open(at)
			}
			return nil
		}
		next := at.child(seg)
		if next == nil && !p.gotoReread[at.id] {
			// Read before: the folder may have been made elsewhere since.
			p.gotoReread[at.id] = true
			return p.read(at, common.Quick)
		}
		if next == nil {
			missing := "/" + strings.Join(p.gotoPath[:i+1], "/")
			p.gotoPath = nil
			p.keepCursorOn(at)
			return common.Problem(fmt.Sprintf("no folder %s (or you may not see it)", missing))
		}
		if !at.expanded {
			at.expanded = true
			at.touch()
			p.tree.rebuild()
		}
		at = next
	}
	p.gotoPath = nil
	p.keepCursorOn(at)
	if p.gotoQuiet {
		return nil
	}
	return common.Info("at " + at.path())
}

// narrow reports whether the permissions take the whole pane.
func (p *Pane) narrow() bool { return p.width < 90 }

// listHeight is the number of tree rows on screen.
func (p *Pane) listHeight() int {
	h := p.height - 1 // breadcrumbs
	if p.filter.Active() || p.tree.filter != "" {
		h--
	}
	return max(0, h)
}

func (p *Pane) treeWidth() int {
	if p.perms != nil && !p.narrow() {
		return p.width / 2
	}
	return p.width
}

func (p *Pane) permsSize() (int, int) {
	if p.narrow() {
		return p.width, p.height
	}
	return p.width - p.treeWidth() - 1, p.height
}
