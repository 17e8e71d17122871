package folders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/progress"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// backupRequest and restoreRequest are what the backup and restore forms
// decided; the pane starts the transfer when it gets one.
type backupRequest struct {
	folderID int64
	label    string    // what is backed up, for titles
	files    []api.Ref // chosen folders; empty backs up the whole folder
	flags    api.BackupFlags
	file     string
}

type restoreRequest struct {
	folderID int64 // 0 when the target is a path not in the tree
	path     string
	flags    api.RestoreFlags
	file     string
	// skipUnchanged sends only what changed: the archive without the files
	// the plan found unchanged (plan and target, set once it is planned).
	skipUnchanged bool
	plan          *restoreplan.Plan
	target        *restoreplan.Target
}

// transferProgress reports bytes moved; transferDone ends a transfer.
type transferProgress struct {
	id          int
	done, total int64
}

type transferDone struct {
	id       int
	restore  bool
	folderID int64
	path     string // the restore's target
	file     string
	bytes    int64
	result   model.RestoreResult
	err      error
}

func (m transferDone) Failure() error { return m.err }

// openBackup opens the backup form: of the marked folders and files when
// there are some (the POST backup of chosen files), else of the selected
// folder (the one holding the selected file).
func (p *Pane) openBackup(n *node) tea.Cmd {
	folder, files, label := p.selection(n)
	name := folder.name
	if folder.parent == nil {
		name = "root"
	}
	if len(files) > 0 {
		name += "-selection"
	}
	defaultFile := "./" + strings.ReplaceAll(name, " ", "_") + "-" + p.ctx.Now().Format("2006-01-02") + ".zip"
	fields := []dialog.Field{{Name: "file", Label: "save to", Text: true, Value: defaultFile}}
	for _, f := range api.AllBackupFlags() {
		fields = append(fields, dialog.Field{Name: f.String(), Label: f.String(), On: p.backupFlags&f != 0})
	}
	folderID := folder.id
	return common.OpenDialog(dialog.NewForm(p.ctx, "Backup of "+label, "", "start backup", fields,
		func(v dialog.Values) (tea.Msg, error) {
			var flags api.BackupFlags
			for _, f := range api.AllBackupFlags() {
				if v.Bool(f.String()) {
					flags |= f
				}
			}
			typed, disk := common.ExpandHome(v.Text("file")), p.ctx.Files
			return dialog.Check(func() (tea.Msg, error) {
				file, err := checkNewFile(disk, typed)
				if err != nil {
					return nil, err
				}
				return backupRequest{folderID: folderID, label: label, files: files, flags: flags, file: file}, nil
			}), nil
		}))
}

// selection is what a backup or a copy takes: the marked folders and files
// when there are some (the POST backup of chosen files), with the deepest
// folder holding them all, else the selected folder (the one holding the
// selected file); label names it for titles.
func (p *Pane) selection(n *node) (folder *node, files []api.Ref, label string) {
	if n.isFile() {
		n = n.parent
	}
	folder, label = n, n.path()
	if marked := p.tree.marked(); len(marked) > 0 {
		folder = commonParent(marked)
		for _, m := range marked {
			if m.isFile() {
				files = append(files, fileRef(m))
			} else {
				files = append(files, api.FileID(m.id))
			}
		}
		label = common.Plural(len(marked), "marked file") + " of " + folder.path()
	}
	return folder, files, label
}

// commonParent returns the deepest folder holding every one of nodes.
func commonParent(nodes []*node) *node {
	at := nodes[0].parent
	for _, n := range nodes[1:] {
		for !isAncestor(at, n) {
			at = at.parent
		}
	}
	return at
}

func isAncestor(a, n *node) bool {
	for c := n.parent; c != nil; c = c.parent {
		if c == a {
			return true
		}
	}
	return false
}

// checkNewFile refuses a path that exists or whose folder does not.
func checkNewFile(files common.Files, path string) (string, error) {
	if path == "" {
		return "", errors.New("name the local file to write")
	}
	if _, err := files.Stat(path); err == nil {
		return "", fmt.Errorf("%s exists already: choose another name", path)
	}
	if st, err := files.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return "", fmt.Errorf("folder %s does not exist", filepath.Dir(path))
	}
	return path, nil
}

// checkZipFile refuses a path that is not a file it can read.
func checkZipFile(files common.Files, path string) error {
	st, err := files.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("cannot read %s: %w", path, errors.Unwrap(err))
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not a file", path)
	}
	return nil
}

// openRestore opens the restore form onto the selected folder (the one
// holding the selected file); its target may be changed to a new path,
// which the server creates.
func (p *Pane) openRestore(n *node) tea.Cmd {
	if n.isFile() {
		n = n.parent
	}
	fields := []dialog.Field{{Name: "file", Label: "ZIP file", Text: true, Value: p.lastBackup, Choices: p.zips, Suggested: true},
		{Name: "into", Label: "into folder", Text: true, Value: n.path()}}
	for _, f := range api.AllRestoreFlags() {
		fields = append(fields, dialog.Field{Name: f.String(), Label: f.String(), On: p.restoreFlags&f != 0})
	}
	fields = append(fields, dialog.Field{Name: skipUnchangedField, Label: "send only what changed", On: p.skipUnchanged})
	folderID, path := n.id, n.path()
	return common.OpenDialog(dialog.NewForm(p.ctx, "Restore a backup", "into the folder below; a new path there is created; "+
		"the plan of what it would do shows before anything is sent", "plan the restore", fields,
		func(v dialog.Values) (tea.Msg, error) {
			into := strings.TrimRight(strings.TrimSpace(v.Text("into")), "/")
			if into == "" {
				into = "/"
			}
			if !strings.HasPrefix(into, "/") || strings.Contains(into, "//") || slices.Contains(strings.Split(into, "/"), "..") {
				return nil, fmt.Errorf("into folder %q: give an absolute folder path, e.g. /Copies/Data", into)
			}
			target := folderID
			if into != path {
				target = 0
			}
			file := common.ExpandHome(v.Text("file"))
			if file == "" {
				return nil, errors.New("name the ZIP file to upload")
			}
			var flags api.RestoreFlags
			for _, f := range api.AllRestoreFlags() {
				if v.Bool(f.String()) {
					flags |= f
				}
			}
			req := restoreRequest{folderID: target, path: into, flags: flags, file: file, skipUnchanged: v.Bool(skipUnchangedField)}
			disk := p.ctx.Files
			// The plan, not the form, asks before an overwrite: it names
			// what would be replaced.
			return dialog.Check(func() (tea.Msg, error) {
				return planRestoreMsg{req: req}, checkZipFile(disk, file)
			}), nil
		}))
}

// skipUnchangedField is the restore form's "send only what changed".
const skipUnchangedField = "skip-unchanged"

// zipsMsg lists the ZIP files of the directory backups go to by default.
type zipsMsg struct {
	names []string
	node  *node
	open  func(*node) tea.Cmd // the form that picks from them
}

// listZips reads, off the loop, the ZIP files of the directory a relative
// path names (the working directory, or over SSH the session's own files
// directory), then opens a form on n with them as its picker (the restore's,
// the diff's).
func (p *Pane) listZips(n *node, open func(*node) tea.Cmd) tea.Cmd {
	files := p.ctx.Files
	return common.StartTask("listing the ZIP files", common.Quick, func(context.Context) tea.Msg {
		var names []string
		if dir, err := files.Open("."); err == nil {
			entries, _ := dir.ReadDir(-1)
			dir.Close()
			for _, e := range entries {
				if !e.IsDir() && strings.HasSuffix(strings.ToLower(e.Name()), ".zip") {
					names = append(names, "./"+e.Name())
				}
			}
		}
		return zipsMsg{names: names, node: n, open: open}
	})
}

// updateTransfers starts transfers the forms asked for and follows their end.
func (p *Pane) updateTransfers(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case backupRequest:
		p.backupFlags = msg.flags // offered again, as a restore's are
		return p.startBackup(msg)
	case planRestoreMsg:
		p.lastBackup, p.restoreFlags, p.skipUnchanged = msg.req.file, msg.req.flags, msg.req.skipUnchanged
		return p.planRestore(msg.req)
	case restorePlanned:
		return p.gotPlan(msg)
	case restoreRequest:
		return p.startRestore(msg)
	case transferProgress:
		return p.gotProgress(msg)
	case zipsMsg:
		p.zips = msg.names
		return msg.open(msg.node)
	case diffRequest:
		return diff(p.ctx, msg)
	case diffDone:
		return gotDiff(p.ctx, msg)
	case showTransferMsg:
		return p.showTransfer()
	case transferDone:
		d := p.transfers[msg.id]
		delete(p.transfers, msg.id)
		if d != nil && d.hidden && msg.err != nil && !errors.Is(msg.err, context.Canceled) {
			// Ended in the background: its dialog lists what the server named.
			d.finished, d.outcome, d.hidden = true, msg, false
			return tea.Batch(common.OpenDialog(d), p.transferOutcome(msg))
		}
		return p.transferOutcome(msg)
	}
	return nil
}

// showTransferMsg is :transfer.
type showTransferMsg struct{}

// transferOutcome says how a transfer ended and reads again what a restore
// changed.
func (p *Pane) transferOutcome(msg transferDone) tea.Cmd {
	if common.IsUnauthorized(msg.err) {
		return common.Fail(msg.verb(), msg.err) // the login screen
	}
	if msg.err != nil {
		// The dialog lists the files the server named; the status line
		// keeps the gist, which is Explain's words unless it named some.
		return common.Send(common.StatusMsg{Level: common.LevelError, Text: msg.failureLines()[0], Err: msg.err})
	}
	if !msg.restore {
		p.lastBackup = msg.file
		return common.Notify(fmt.Sprintf("backup written to %s (%s)", msg.file, humanize.IBytes(uint64(msg.bytes))))
	}
	cmds := []tea.Cmd{common.Notify(restoredGist(msg.result)), p.readFiles()}
	if n := p.tree.byID[msg.folderID]; n != nil && n.state == common.Loaded {
		cmds = append(cmds, p.readVisibly(n))
	} else if n, _ := p.tree.deepest(msg.path); n != nil && n.state == common.Loaded {
		cmds = append(cmds, p.readVisibly(n)) // the restore may have created the folders below it
	}
	return tea.Batch(cmds...)
}

// runTransfer starts a transfer's task and shows its dialog; the pane, not
// the dialog, follows its progress, so that it goes on, and the header
// shows how far it is, once the dialog is sent to the background.
func (p *Pane) runTransfer(d *transferDialog, run func(context.Context) tea.Msg) tea.Cmd {
	p.transfers[d.id] = d
	return tea.Batch(common.OpenDialog(d), common.StartTask(d.label, common.Transfer, run), d.listen())
}

// gotProgress takes a running transfer's progress and listens for more.
func (p *Pane) gotProgress(msg transferProgress) tea.Cmd {
	d := p.transfers[msg.id]
	if d == nil {
		return nil
	}
	d.done, d.total = msg.done, msg.total
	return tea.Batch(d.listen(), common.Send(common.TransferProgressMsg{Label: d.label, Done: d.done, Total: d.total}))
}

// showTransfer shows again the dialog of the latest transfer still
// running (:transfer), where esc cancels it.
func (p *Pane) showTransfer() tea.Cmd {
	var latest *transferDialog
	for _, d := range p.transfers {
		if !d.finished && (latest == nil || d.id > latest.id) {
			latest = d
		}
	}
	if latest == nil {
		return common.Info("no backup or restore is running")
	}
	latest.hidden = false
	return common.OpenDialog(latest)
}

// newTransfer prepares what a transfer shares with its dialog: an id, a
// progress channel that always holds the latest count, a cancel function.
func (p *Pane) newTransfer() (int, chan transferProgress, context.Context, context.CancelFunc) {
	p.lastTransfer++
	ctx, cancel := context.WithCancel(context.Background())
	return p.lastTransfer, make(chan transferProgress, 1), ctx, cancel
}

// reporter returns an api.ProgressFunc that replaces the unread count in ch
// with the newest, so the transfer never waits for the screen.
func reporter(id int, ch chan transferProgress) api.ProgressFunc {
	return func(done, total int64) {
		p := transferProgress{id: id, done: done, total: total}
		select {
		case ch <- p:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
		select {
		case ch <- p:
		default:
		}
	}
}

func (p *Pane) startBackup(req backupRequest) tea.Cmd {
	id, ch, ctx, cancel := p.newTransfer()
	client, files := p.ctx.Client, p.ctx.Files
	d := newTransferDialog(p.ctx, id, "Backup of "+req.label, "→ "+req.file, ch, cancel)
	d.label = "backup of " + req.label
	run := func(taskCtx context.Context) tea.Msg {
		defer close(ch)
		stop := context.AfterFunc(taskCtx, cancel)
		defer stop()
		done := transferDone{id: id, folderID: req.folderID, file: req.file}
		done.bytes, done.err = writeBackup(ctx, client, files, req, reporter(id, ch))
		return done
	}
	return p.runTransfer(d, run)
}

// writeBackup downloads the archive into a new file, removed again when the
// download fails, so no half archive is left looking like a backup.
func writeBackup(ctx context.Context, client *api.Client, files common.Files, req backupRequest, progress api.ProgressFunc) (int64, error) {
	f, err := files.OpenFile(req.file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("create %s: %w", req.file, err)
	}
	var n int64
	if len(req.files) > 0 {
		n, err = client.BackupFiles(ctx, api.FileID(req.folderID), req.files, req.flags, f, progress)
	} else {
		n, err = client.Backup(ctx, api.FileID(req.folderID), req.flags, f, progress)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", req.file, cerr)
	}
	if err != nil {
		files.Remove(req.file)
		return n, err
	}
	return n, nil
}

func (p *Pane) startRestore(req restoreRequest) tea.Cmd {
	id, ch, ctx, cancel := p.newTransfer()
	client, files := p.ctx.Client, p.ctx.Files
	d := newTransferDialog(p.ctx, id, "Restore into "+req.path, "← "+req.file, ch, cancel)
	d.restore, d.label = true, "restore into "+req.path
	run := func(taskCtx context.Context) tea.Msg {
		defer close(ch)
		stop := context.AfterFunc(taskCtx, cancel)
		defer stop()
		done := transferDone{id: id, restore: true, folderID: req.folderID, path: req.path, file: req.file}
		var body io.ReadCloser
		size := int64(-1)
		if req.skipUnchanged && req.plan != nil {
			body = trimmedArchive(files, req)
		} else {
			f, err := files.Open(req.file)
			if err != nil {
				done.err = err
				return done
			}
			if st, err := f.Stat(); err == nil {
				size = st.Size()
			}
			body = f
		}
		defer body.Close()
		target := api.Path(req.path)
		if req.folderID != 0 {
			target = api.FileID(req.folderID)
		}
		done.result, done.err = client.Restore(ctx, target, body, size, req.flags, reporter(id, ch))
		done.bytes = size
		return done
	}
	return tea.Batch(common.OpenDialog(d), common.StartTask("restore into "+req.path, common.Transfer, run), d.listen())
}

// transferDialog shows a running backup or restore with a progress bar in
// bytes, then its outcome.
type transferDialog struct {
	ctx           *common.Context
	id            int
	restore       bool
	title, file   string
	progress      <-chan transferProgress
	cancel        context.CancelFunc
	bar           progress.Model
	done, total   int64
	finished      bool
	hidden        bool   // sent to the background (enter)
	label         string // the task's label, for the header's progress
	outcome       transferDone
	width, height int
}

func newTransferDialog(ctx *common.Context, id int, title, file string, ch <-chan transferProgress, cancel context.CancelFunc) *transferDialog {
	bar := progress.New(progress.WithFillCharacters('█', '░'), progress.WithoutPercentage())
	if ctx.Styles.NoColor {
		bar.FullColor, bar.EmptyColor = nil, nil
	}
	return &transferDialog{ctx: ctx, id: id, title: title, file: file, progress: ch, cancel: cancel, bar: bar, total: -1}
}

func (d *transferDialog) listen() tea.Cmd {
	ch := d.progress
	return func() tea.Msg {
		p, ok := <-ch
		if !ok {
			return nil
		}
		return p
	}
}

func (d *transferDialog) SetSize(width, height int) { d.width, d.height = width, height }

func (d *transferDialog) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case transferDone:
		if msg.id == d.id {
			d.finished, d.outcome = true, msg
			if msg.err == nil && !msg.restore {
				d.done = msg.bytes
			}
		}
	case tea.KeyPressMsg:
		k := d.ctx.Keys
		switch {
		case d.finished && key.Matches(msg, k.Back, k.Confirm):
			return nil, nil
		case !d.finished && key.Matches(msg, k.Back):
			d.cancel()
		case !d.finished && key.Matches(msg, k.Confirm):
			// On in the background: the header shows how far it is,
			// :transfer shows this again.
			d.hidden = true
			return nil, nil
		}
	}
	return d, nil
}

func (d *transferDialog) View() string {
	st := d.ctx.Styles
	box := st.Dialog
	inner := max(10, min(64, d.width-box.GetHorizontalFrameSize()))
	lines := []string{st.DialogTitle.Render(ansi.Truncate(common.Clean(d.title), inner, "…")), st.Label.Render(ansi.Truncate(common.Clean(d.file), inner, "…")), ""}
	d.bar.SetWidth(inner)
	switch {
	case !d.finished:
		lines = append(lines, d.progressLines(inner)...)
	case d.outcome.err != nil:
		box = st.DialogDanger
		failure := d.outcome.failureLines()
		lines = append(lines, st.StatusError.Width(inner).Render(st.Symbols.Error+" "+failure[0]))
		for _, l := range failure[1:] {
			lines = append(lines, ansi.Truncate(l, inner, "…"))
		}
	case d.restore:
		lines = append(lines, d.restoreSummary(inner)...)
	default:
		lines = append(lines, st.StatusNotice.Render(fmt.Sprintf("%s backup written: %s", st.Symbols.Notice, humanize.IBytes(uint64(d.done)))))
	}
	if avail := d.height - box.GetVerticalFrameSize(); avail > 0 && len(lines) > avail {
		lines = lines[:avail]
	}
	return box.Width(inner + box.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

func (d *transferDialog) progressLines(inner int) []string {
	st := d.ctx.Styles
	moved := humanize.IBytes(uint64(d.done))
	if d.total > 0 {
		pct := float64(d.done) / float64(d.total)
		return []string{d.bar.ViewAs(pct), st.Label.Render(fmt.Sprintf("%s of %s (%.0f%%)", moved, humanize.IBytes(uint64(d.total)), pct*100))}
	}
	verb := "received"
	if d.restore {
		verb = "sent"
	}
	return []string{st.StatusBusy.Render(ansi.Truncate(d.ctx.Spinner+" "+moved+" "+verb+" (size not known yet)", inner, "…"))}
}

func (m transferDone) verb() string {
	if m.restore {
		return "restore"
	}
	return "backup"
}

// failureLines says why the transfer failed: the server's reason, and the
// files it names one per line, the first few of them.
func (m transferDone) failureLines() []string {
	err, verb := m.err, m.verb()
	if errors.Is(err, context.Canceled) {
		return []string{verb + " cancelled; nothing was kept"}
	}
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.Reason == "" || apiErr.Status == 0 || errors.Is(err, api.ErrUnsupported) {
		// No answer (unreachable: status 0) is no refusal; nor is an older
		// platform's lack of an endpoint (chosen files), which Explain
		// says in words with what to do instead.
		return []string{common.Explain(verb, err)}
	}
	reason, paths := splitPaths(apiErr.Reason, apiErr.Paths)
	lines := []string{fmt.Sprintf("%s refused (%d): %s", verb, apiErr.Status, common.Clean(reason))}
	const shown = 5
	for i, p := range paths {
		if i == shown {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(paths)-shown))
			break
		}
		lines = append(lines, "  "+common.Clean(p))
	}
	return lines
}

// moreOf is how a server ends a list it cut: "and 6 more".
var moreOf = regexp.MustCompile(`^(…\s*)?and \d+ more$`)

// splitPaths takes from a refusal's reason the list of paths it ends with,
// which read better one a line, and returns the paths to list apart. A
// reason that goes on after a path ("entry /a.dbc: an encoded secret this
// server's key does not open …") is kept whole: what follows is the why.
func splitPaths(reason string, paths []string) (string, []string) {
	if len(paths) == 0 {
		return reason, nil
	}
	at := strings.Index(reason, paths[0])
	if at <= 0 {
		return reason, paths
	}
	rest := reason[at:]
	for _, p := range paths {
		rest = strings.ReplaceAll(rest, p, "")
	}
	if moreOf.ReplaceAllString(strings.Trim(rest, " ,;:\n"), "") == "" {
		return strings.TrimRight(reason[:at], ": "), paths
	}
	var apart []string
	for _, p := range paths {
		if !strings.Contains(reason, p) {
			apart = append(apart, p)
		}
	}
	return reason, apart
}

func (d *transferDialog) restoreSummary(inner int) []string {
	st := d.ctx.Styles
	r := d.outcome.result
	lines := []string{st.StatusNotice.Render(st.Symbols.Notice + " " + restoredGist(r))}
	for _, s := range r.Skipped {
		lines = append(lines, ansi.Truncate("  skipped "+common.Clean(s.Path)+": "+common.Clean(s.Reason), inner, "…"))
	}
	for _, k := range r.KeptHidden {
		lines = append(lines, ansi.Truncate("  kept "+common.Clean(k.Path)+": "+common.Clean(k.Reason), inner, "…"))
	}
	return lines
}

func (d *transferDialog) ShortHelp() []key.Binding {
	k := d.ctx.Keys
	if d.finished {
		return []key.Binding{k.Confirm, k.Back}
	}
	return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run in the background")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel the transfer"))}
}

func (d *transferDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// restoredGist says what a restore did: "restored 1 file, skipped 0", or
// only that it succeeded when the server did not list what it restored.
func restoredGist(r model.RestoreResult) string {
	if r.Restored == nil {
		return "restored (the server did not list the files)"
	}
	return fmt.Sprintf("restored %s, skipped %d", common.Plural(len(r.Restored), "file"), len(r.Skipped))
}
