package ui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/theme"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Smallest terminal the console lays itself out in; below it shows one line.
const (
	MinWidth  = 40
	MinHeight = 10
)

// Options configure a console.
type Options struct {
	// Context is the shared context; its Client may be nil when Login is
	// set, and the console then opens with the login screen.
	Context *common.Context
	// Panes overrides the pane list (tests); nil means the console's own.
	Panes []PaneEntry
	// Login builds the login screen shown when the server answers 401 or
	// when there is no client yet. Nil: a 401 is said in the status line.
	Login func(*common.Context) common.Dialog
	// HeartbeatOff stops the periodic health check (golden tests).
	HeartbeatOff bool
	// Commands are extra root commands that belong to no pane (:profile).
	Commands []common.Command
	// Mouse turns on the wheel (it scrolls as the arrows do) and clicks on
	// the header's tabs. Off by default: while the console holds the mouse
	// the terminal's own text selection needs shift.
	Mouse bool
}

// startPane is the pane on screen at the start: the first in the list.
const startPane = 0

// Model is the root of the console: it routes messages, owns the header,
// the status and command lines, help and the dialog stack, and leaves
// everything else to the panes.
type Model struct {
	ctx      *common.Context
	opts     Options
	panes    []common.Pane
	paneIDs  []common.PaneID // the pane list's IDs, in the panes' order
	paneKeys []key.Binding   // 1…9, one a pane
	active   int
	commands []common.Command

	dialogs []common.Dialog
	cmdline commandLine
	help    help.Model
	spinner spinner.Model

	status   status
	messages messageLog
	cameFrom []int // the panes jumps left, most recent last (esc returns)
	watch    watch
	tasks    tasks
	health   health
	width    int
	height   int
	fitter   common.Fitter // the pane's view cut to the body
	// The header and the help line as last drawn: a dozen lipgloss renders
	// each, most of a frame, and View runs after every message.
	header, helpLine lineCache
	// helpTop is the first line of `?` on screen: a small terminal scrolls it.
	helpTop int

	// heldReads are the first reads of the panes not on screen, held back
	// from Init until the first frame is drawn (see awaitFirstFrame);
	// holding is set while they wait, drawing once that frame's content is
	// in.
	heldReads []tea.Cmd
	holding   bool
	drawing   bool

	platform   platform      // the platform's release and licence (platform.go)
	quitDialog common.Dialog // the open question "quit while a transfer runs?"
	quitting   bool          // tasks cancelled; the console ends when no transfer runs
}

// New returns the console.
func New(opts Options) *Model {
	ctx := opts.Context
	if ctx.ReadOnly { // whoever set the client, a read-only session's refuses writes
		ctx.Client = ctx.Client.AsReadOnly()
	}
	entries := opts.Panes
	if entries == nil {
		entries = defaultPanes(ctx)
	}
	panes := make([]common.Pane, len(entries))
	ids := make([]common.PaneID, len(entries))
	for i, e := range entries {
		if e.ID != "" && slices.Contains(ids[:i], e.ID) {
			panic("ui: two panes registered as " + string(e.ID))
		}
		panes[i], ids[i] = e.Pane, e.ID
	}
	m := &Model{
		ctx:      ctx,
		opts:     opts,
		panes:    panes,
		paneIDs:  ids,
		paneKeys: paneKeys(panes),
		help:     help.New(),
		spinner:  spinner.New(spinner.WithSpinner(spinner.MiniDot)),
		tasks:    tasks{running: map[int64]task{}},
	}
	m.help.Styles = ctx.Styles.Help
	m.commands = append(m.builtinCommands(), paneCommands(entries)...)
	for _, cmd := range opts.Commands {
		m.commands = append(m.commands, cmd.WithOwner(-1))
	}
	for i, p := range panes {
		if c, ok := p.(common.Commander); ok {
			for _, cmd := range c.Commands() {
				m.commands = append(m.commands, cmd.WithOwner(i))
			}
		}
	}
	m.cmdline = newCommandLine(ctx, m.commands)
	return m
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	for i, p := range m.panes {
		if i == startPane {
			cmds = append(cmds, p.Init())
		} else {
			m.heldReads = append(m.heldReads, p.Init())
		}
	}
	m.heldReads = append(m.heldReads, m.readPlatform())
	m.holding = true
	cmds = append(cmds, m.awaitFirstFrame())
	if m.ctx.Client == nil && m.opts.Login != nil {
		m.openDialog(m.opts.Login(m.ctx))
	}
	if !m.opts.HeartbeatOff {
		// Tests without a heartbeat do without the watch's ticks too.
		m.watch.every = defaultWatch
		cmds = append(cmds, m.scheduleHeartbeat(), m.scheduleWatch())
	}
	return tea.Batch(cmds...)
}

// ActivePane returns the ID of the active pane.
func (m *Model) ActivePane() common.PaneID { return m.paneIDs[m.active] }

// Pane returns the pane at index i (tests).
func (m *Model) Pane(i int) common.Pane { return m.panes[i] }

// Dialog returns the top dialog, nil when none is open.
func (m *Model) Dialog() common.Dialog {
	if len(m.dialogs) == 0 {
		return nil
	}
	return m.dialogs[len(m.dialogs)-1]
}

// Status returns the text of the status line.
func (m *Model) Status() string { return m.status.text }

// Update implements tea.Model: dialogs first, then the root's own messages,
// then keys to the active pane and everything else to every pane; then,
// until they have left, whether the held reads may go.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	if m.holding {
		cmd = tea.Batch(cmd, m.awaitFirstFrame())
	}
	return m, cmd
}

// firstFrameDrawTime is how long the held reads wait once the pane on
// screen has what its first frame shows: Bubble Tea draws on its
// renderer's tick (120 a second, see console.go) and tells no one when,
// so the wait spans one tick and the drawing of a whole first frame (1 to
// 2 ms). Sent as soon as the content is in, they ran beside that drawing,
// and the server answering them took the cores the frame waited for.
const firstFrameDrawTime = 16 * time.Millisecond

// firstFrameDrawnMsg says that firstFrameDrawTime has passed.
type firstFrameDrawnMsg struct{}

// awaitFirstFrame lets the held reads go once the first frame is drawn,
// and at once when the user goes to another pane, which must not wait.
func (m *Model) awaitFirstFrame() tea.Cmd {
	switch {
	case !m.holding:
		return nil
	case m.active != startPane:
		return m.releaseHeldReads()
	case m.drawing:
		return nil
	}
	if l, ok := m.panes[startPane].(common.Loader); ok && !l.Loaded() {
		return nil
	}
	m.drawing = true
	return tea.Tick(firstFrameDrawTime, func(time.Time) tea.Msg { return firstFrameDrawnMsg{} })
}

// releaseHeldReads starts the reads held back for the first frame and
// tells the panes (common.FirstFrameMsg), once.
func (m *Model) releaseHeldReads() tea.Cmd {
	if !m.holding {
		return nil
	}
	m.holding = false
	cmds := append(m.heldReads, m.broadcast(common.FirstFrameMsg{}))
	m.heldReads = nil
	return tea.Batch(cmds...)
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	for _, route := range []func(tea.Msg) (tea.Cmd, bool){m.routeTerminal, m.routeTasks, m.routeNavigation} {
		if cmd, ok := route(msg); ok {
			return m, cmd
		}
	}
	return m, m.broadcast(msg)
}

// routeTerminal takes what the terminal sends and what the status line,
// the header's transfer progress and help show.
func (m *Model) routeTerminal(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil, true
	case tea.BackgroundColorMsg:
		// Panes are not told: their caches key on the styles' Generation.
		m.ctx.Styles = theme.New(msg.IsDark(), m.ctx.Styles.NoColor)
		m.help.Styles = m.ctx.Styles.Help
		return nil, true
	case tea.KeyPressMsg:
		return m.handleKey(msg), true
	case tea.MouseWheelMsg:
		return m.wheel(msg), true
	case tea.MouseClickMsg:
		return m.click(msg), true
	case common.StatusMsg:
		if msg.Err != nil {
			m.health.observeErr(msg.Err)
		}
		m.messages.add(m.ctx.Now(), msg)
		return m.status.set(msg), true
	case common.TransferProgressMsg:
		m.tasks.progress(msg)
		return nil, true
	case statusExpiredMsg:
		m.status.expire(msg)
		return nil, true
	case showHelpMsg:
		m.showHelp()
		return nil, true
	case showLogMsg:
		m.openDialog(newLogDialog(m.ctx, &m.messages))
		return nil, true
	}
	return nil, false
}

// routeTasks takes the tasks, timers, health, logins and the platform's read.
func (m *Model) routeTasks(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.TaskStartedMsg:
		return m.tasks.start(msg, m.ctx.Now(), m.spinner.Tick), true
	case common.TaskDoneMsg:
		m.tasks.done(msg.ID)
		if m.quitting {
			return m.quitWhenNoTransfer(), true
		}
		back := m.observeHealth(func() { m.health.observe(msg.Msg) })
		_, cmd := m.update(msg.Msg)
		return tea.Batch(cmd, back), true
	case spinner.TickMsg:
		if m.tasks.shown() == 0 {
			return nil, true
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		m.ctx.Spinner = m.spinner.View()
		return tea.Batch(cmd, m.broadcast(msg)), true
	case watchTimerMsg:
		return m.watchTick(msg), true
	case watchRequest:
		return m.setWatch(msg.every), true
	case firstFrameDrawnMsg:
		return m.releaseHeldReads(), true
	case heartbeatMsg:
		return m.heartbeat(), true
	case healthMsg:
		back := m.observeHealth(func() { m.health.observe(msg) })
		if common.IsUnauthorized(msg.err) {
			return tea.Batch(m.unauthorized(common.UnauthorizedMsg{Err: msg.err}), m.scheduleHeartbeat()), true
		}
		return tea.Batch(back, m.scheduleHeartbeat()), true
	case common.UnauthorizedMsg:
		return m.unauthorized(msg), true
	case common.LoggedInMsg:
		m.loggedIn(msg)
		return tea.Batch(m.broadcast(msg), m.readPlatform()), true
	case platformMsg:
		m.gotPlatform(msg)
		return nil, true
	}
	return nil, false
}

// routeNavigation takes dialogs, pane switches and jumps, and quitting.
func (m *Model) routeNavigation(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.OpenDialogMsg:
		m.openDialog(msg.Dialog)
		return nil, true
	case common.FocusPaneMsg:
		m.jump(m.paneIndex(msg.Pane))
		return nil, true
	case switchPaneMsg:
		m.switchTo(m.paneIndex(msg.pane))
		return nil, true
	case common.GotoPathMsg:
		m.jump(m.pathPane())
		return m.broadcast(msg), true
	case common.BackMsg:
		if n := len(m.cameFrom); n > 0 {
			m.focus(m.cameFrom[n-1])
			m.cameFrom = m.cameFrom[:n-1]
		}
		return nil, true
	case quitConfirmedMsg, StopMsg:
		return m.quit(), true
	case quitAnywayMsg:
		return tea.Quit, true
	case quitRequestMsg:
		return m.requestQuit(), true
	}
	return nil, false
}

// broadcast gives a non-key message to every dialog and every pane.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		d, cmd := m.dialogs[i].Update(msg)
		cmds = append(cmds, cmd)
		if d == nil {
			m.dialogs = append(m.dialogs[:i], m.dialogs[i+1:]...)
			continue
		}
		m.dialogs[i] = d
	}
	for i, p := range m.panes {
		var cmd tea.Cmd
		m.panes[i], cmd = p.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

func (m *Model) resize(width, height int) {
	m.width, m.height = width, height
	bodyW, bodyH := m.bodySize()
	for _, p := range m.panes {
		p.SetSize(bodyW, bodyH)
	}
	for _, d := range m.dialogs {
		d.SetSize(bodyW, bodyH)
	}
	m.help.SetWidth(width)
	m.cmdline.setWidth(width)
}

// bodySize is the pane area: the terminal less the header, the status line
// and the help line.
func (m *Model) bodySize() (int, int) {
	return max(0, m.width), max(0, m.height-3)
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

func (m *Model) openDialog(d common.Dialog) {
	d.SetSize(m.bodySize())
	m.dialogs = append(m.dialogs, d)
}

// paneIndex is the place in the pane list of the pane registered as id, -1
// when none is.
func (m *Model) paneIndex(id common.PaneID) int {
	if id == "" {
		return -1
	}
	return slices.Index(m.paneIDs, id)
}

// maxCameFrom bounds the panes esc can walk back through.
const maxCameFrom = 16

// jump focuses a pane at a pane's (or a command's) request and remembers
// where the user came from, for common.BackMsg.
func (m *Model) jump(i int) {
	if i == m.active || i < 0 || i >= len(m.panes) {
		return
	}
	if len(m.cameFrom) == maxCameFrom {
		m.cameFrom = m.cameFrom[1:]
	}
	m.cameFrom = append(m.cameFrom, m.active)
	m.focus(i)
}

// observeHealth reads an outcome with observe; when it finds the server
// back after it was down, every pane is told (common.ServerBackMsg) and an
// error in the status line from the time it was away goes.
func (m *Model) observeHealth(observe func()) tea.Cmd {
	wasDown := m.health.state == healthDown
	observe()
	if !wasDown || m.health.state != healthUp {
		return nil
	}
	if m.status.level == common.LevelError {
		m.status.clear()
	}
	return m.broadcast(common.ServerBackMsg{})
}

// switchPaneMsg is the user's own switch to a pane (`:folders`), which
// common.FocusPaneMsg, a pane's jump, is not.
type switchPaneMsg struct{ pane common.PaneID }

// switchTo shows pane i at the user's own asking (1…9, tab, a click on a
// tab, a `:` command): the jumps before are forgotten, so esc never leaves
// a pane the user chose.
func (m *Model) switchTo(i int) {
	if i < 0 || i >= len(m.panes) {
		return
	}
	m.cameFrom = nil
	m.focus(i)
}

func (m *Model) focus(i int) {
	if i < 0 || i >= len(m.panes) || i == m.active {
		return
	}
	if l, ok := m.panes[m.active].(common.Leaver); ok {
		l.Leave()
	}
	m.active = i
}

func (m *Model) unauthorized(msg common.UnauthorizedMsg) tea.Cmd {
	m.health.state = healthUnauthorized
	if m.opts.Login == nil {
		return m.status.set(common.StatusMsg{Level: common.LevelError,
			Text: common.Explain("the server refused the credentials of "+m.ctx.User, msg.Err)})
	}
	if _, open := m.Dialog().(loginScreen); !open {
		m.openDialog(m.opts.Login(m.ctx))
	}
	return nil
}

// loginScreen is implemented by the login dialog so that a burst of 401s
// opens it once.
type loginScreen interface{ LoginScreen() }

func (m *Model) loggedIn(msg common.LoggedInMsg) {
	m.ctx.Client, m.ctx.Server, m.ctx.User, m.ctx.Profile = msg.Client, msg.Server, msg.User, msg.Profile
	if msg.ReadOnly {
		m.ctx.Client = msg.Client.AsReadOnly()
	}
	m.ctx.ReadOnly = msg.ReadOnly
	m.health.state = healthUnknown
}

type quitConfirmedMsg struct{}

// StopMsg ends the console from outside (dapconsole ssh: the server stops,
// the session went idle or its client away) as the quit dialog's "quit"
// does: running tasks are cancelled.
type StopMsg struct{}

// quit cancels every task and ends the console once no transfer runs: a
// cancelled backup removes its incomplete file before its task ends, and
// the console waits for that rather than leave the file behind.
func (m *Model) quit() tea.Cmd {
	m.tasks.cancelAll()
	m.quitting = true
	if cmd := m.quitWhenNoTransfer(); cmd != nil {
		return cmd
	}
	// A transfer ends within moments of its cancel; one that does not (a
	// file system that hangs) must not hold the console open for good.
	return tea.Tick(quitGrace, func(time.Time) tea.Msg { return quitAnywayMsg{} })
}

// quitGrace is how long quitting waits for cancelled transfers to end.
const quitGrace = 5 * time.Second

type quitAnywayMsg struct{}

func (m *Model) quitWhenNoTransfer() tea.Cmd {
	if len(m.tasks.transfers()) > 0 {
		return nil
	}
	return tea.Quit
}
