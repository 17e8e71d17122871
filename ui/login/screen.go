package login

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Config is what the login screen needs besides the shared context.
type Config struct {
	// ProfilesPath is the profiles file a successful login updates.
	ProfilesPath string
	// Verify makes the one authenticated call; credentials.CheckWithServer.
	Verify credentials.Verifier
	// ForceReadOnly is --read-only: it holds whatever profile is logged in.
	ForceReadOnly bool
	// Served is a console served over SSH (dapconsole ssh) on a host shared
	// by its people: the server and user are the session's and cannot be
	// changed, and the password is only checked and kept in the session's
	// memory; no profile or keyring entry of the host is written.
	Served bool
}

// Fields of the screen, in focus order.
const (
	fieldServer = iota
	fieldUser
	fieldPassword
	fieldCount
)

var fieldLabels = [fieldCount]string{"Server", "User", "Password"}

// Screen is the login dialog: server, user and a masked password. Enter
// checks them with one call in a task; only an accepted login is saved (the
// profile to disk, the password to the keyring) and handed to the root as a
// common.LoggedInMsg.
type Screen struct {
	ctx     *common.Context
	cfg     Config
	profile string // the profile to save under; empty lets credentials.Login name it
	reason  string
	inputs  [fieldCount]common.TextInput
	focus   int

	checking bool
	problem  string
	width    int
	height   int
}

// checkedMsg is the outcome of the check a Screen started.
type checkedMsg struct {
	screen   *Screen
	saved    credentials.Profile
	client   *api.Client
	notice   string
	err      error
	readOnly bool
}

// New returns the login screen, filled from the context's current account
// (after a 401, the profile in use); reason says why it shows, empty for the
// usual words. It reads the
// context, so call it from Update (the root's Options.Login does).
func New(ctx *common.Context, cfg Config, reason string) *Screen {
	if reason == "" {
		reason = defaultReason(ctx, cfg)
	}
	return ForProfile(ctx, cfg, credentials.Profile{Name: ctx.Profile, Server: ctx.Server, User: ctx.User}, reason)
}

// defaultReason says why the screen shows: a first start, or a refusal.
func defaultReason(ctx *common.Context, cfg Config) string {
	switch {
	case cfg.Served && ctx.Client == nil:
		return "Your platform password for " + credentials.Key(ctx.User, ctx.Server) + ": it stays in this session's memory."
	case ctx.Client == nil:
		return "Log in to a platform server; the password goes to the OS keyring, never to a file."
	}
	return "The server refused the password of " + credentials.Key(ctx.User, ctx.Server) + "."
}

// ForProfile returns the login screen for a profile whose password is not at
// hand or was refused: server and user filled, the focus on what is missing.
// It only keeps ctx, so a task may build it.
func ForProfile(ctx *common.Context, cfg Config, profile credentials.Profile, reason string) *Screen {
	s := &Screen{ctx: ctx, cfg: cfg, profile: profile.Name, reason: reason}
	for i := range s.inputs {
		s.inputs[i] = common.NewTextInput(ctx)
	}
	s.inputs[fieldPassword].EchoMode = textinput.EchoPassword
	s.inputs[fieldPassword].EchoCharacter = '•'
	s.inputs[fieldServer].Placeholder = "https://dap.example.com"
	s.inputs[fieldServer].SetValue(profile.Server)
	s.inputs[fieldUser].SetValue(profile.User)
	switch {
	case profile.Server == "":
		s.focusField(fieldServer)
	case profile.User == "":
		s.focusField(fieldUser)
	default:
		s.focusField(fieldPassword)
	}
	return s
}

// LoginScreen marks the dialog for the root, so a burst of 401s opens it once.
func (s *Screen) LoginScreen() {}

// Focused returns the label of the focused field (tests).
func (s *Screen) Focused() string { return fieldLabels[s.focus] }

func (s *Screen) focusField(i int) {
	s.focus = (i%fieldCount + fieldCount) % fieldCount
	if s.cfg.Served {
		s.focus = fieldPassword // server and user are the session's
	}
	for j := range s.inputs {
		if j == s.focus {
			s.inputs[j].Focus()
		} else {
			s.inputs[j].Blur()
		}
	}
}

// SetSize implements common.Dialog.
func (s *Screen) SetSize(width, height int) {
	s.width, s.height = width, height
	for i := range s.inputs {
		s.inputs[i].SetWidth(max(4, s.innerWidth()-s.labelWidth()-4)) // marker, space, cursor
	}
}

// closable: after a 401 the console has a session to go back to; at the
// first start there is nothing behind the screen.
func (s *Screen) closable() bool { return s.ctx.Client != nil }

// Update implements common.Dialog.
func (s *Screen) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case checkedMsg:
		if msg.screen != s {
			return s, nil
		}
		return s.checked(msg)
	case tea.KeyPressMsg:
		return s.press(msg)
	}
	return s, nil
}

func (s *Screen) press(msg tea.KeyPressMsg) (common.Dialog, tea.Cmd) {
	k := s.ctx.Keys
	switch {
	case key.Matches(msg, k.Back):
		if s.closable() && !s.checking {
			return nil, nil
		}
		return s, nil
	case s.checking:
		return s, nil // one check at a time; the fields hold still meanwhile
	case key.Matches(msg, k.Confirm):
		if s.focus != fieldPassword && strings.TrimSpace(s.inputs[s.focus].Value()) != "" &&
			s.inputs[fieldPassword].Value() == "" {
			s.focusField(s.focus + 1) // enter walks down the form until there is a password
			return s, nil
		}
		return s, s.submit()
	case key.Matches(msg, k.NextField):
		s.focusField(s.focus + 1)
		return s, nil
	case key.Matches(msg, k.PrevField):
		s.focusField(s.focus - 1)
		return s, nil
	}
	cmd := s.inputs[s.focus].Update(msg)
	s.problem = ""
	return s, cmd
}

// submit validates the fields and starts the check in a task.
func (s *Screen) submit() tea.Cmd {
	server, err := credentials.NormalizeServer(s.inputs[fieldServer].Value())
	if err != nil {
		s.problem = err.Error()
		s.focusField(fieldServer)
		return nil
	}
	user := strings.TrimSpace(s.inputs[fieldUser].Value())
	password := s.inputs[fieldPassword].Value()
	switch {
	case user == "":
		s.problem = "type a user name"
		s.focusField(fieldUser)
		return nil
	case password == "":
		s.problem = "type the password"
		s.focusField(fieldPassword)
		return nil
	}
	s.checking, s.problem = true, ""
	cfg, name := s.cfg, s.profile
	return common.StartTask("checking credentials of "+credentials.Key(user, server), common.Quick,
		func(ctx context.Context) tea.Msg {
			return check(ctx, s, cfg, credentials.Profile{Name: name, Server: server, User: user}, password)
		})
}

// check runs off the Update loop: one authenticated call, then the profile
// and the password are stored. It reads the profiles file afresh and shares
// no state with the model.
func check(ctx context.Context, s *Screen, cfg Config, profile credentials.Profile, password string) checkedMsg {
	if cfg.Served {
		if err := cfg.Verify(ctx, profile.Server, profile.User, password); err != nil {
			return checkedMsg{screen: s, err: fmt.Errorf("login %s: %w", credentials.Key(profile.User, profile.Server), err)}
		}
		return checkedMsg{screen: s, saved: profile, client: api.New(profile.Server, profile.User, password), readOnly: cfg.ForceReadOnly}
	}
	profiles, err := credentials.LoadProfiles(cfg.ProfilesPath)
	if err != nil {
		return checkedMsg{screen: s, err: err}
	}
	if existing, ok := profiles.Get(profile.Name); ok {
		profile.ReadOnly = existing.ReadOnly
	}
	saved, notice, err := credentials.Login(ctx, profiles, profile, password, cfg.Verify)
	if err != nil {
		return checkedMsg{screen: s, err: err}
	}
	return checkedMsg{
		screen: s, saved: saved, notice: notice,
		client:   api.New(saved.Server, saved.User, password),
		readOnly: saved.ReadOnly || cfg.ForceReadOnly,
	}
}

func (s *Screen) checked(msg checkedMsg) (common.Dialog, tea.Cmd) {
	s.checking = false
	if msg.err != nil {
		s.problem = describe(msg.err)
		if api.IsUnauthorized(msg.err) {
			s.inputs[fieldPassword].SetValue("")
			s.focusField(fieldPassword)
		}
		return s, nil
	}
	loggedIn := common.LoggedInMsg{
		Client: msg.client, Server: msg.saved.Server, User: msg.saved.User,
		Profile: msg.saved.Name, ReadOnly: msg.readOnly,
	}
	status := common.Info("logged in as " + credentials.Key(msg.saved.User, msg.saved.Server) + ", profile " + msg.saved.Name)
	if msg.notice != "" {
		// The keyring advice: said plainly, not with the ✓ of a success.
		status = common.Info(msg.notice)
	}
	return nil, tea.Batch(func() tea.Msg { return loggedIn }, status)
}

// describe turns a failed check into one line for the screen.
func describe(err error) string {
	switch {
	case api.IsUnauthorized(err):
		return "wrong user or password"
	case api.IsUnreachable(err):
		return "nothing answers at that server URL"
	case errors.Is(err, context.DeadlineExceeded):
		return "the server did not answer in time"
	}
	return err.Error()
}

func (s *Screen) innerWidth() int {
	st := s.ctx.Styles.Dialog
	return max(10, min(60, s.width-st.GetHorizontalFrameSize()))
}

func (s *Screen) labelWidth() int {
	w := 0
	for _, l := range fieldLabels {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// View implements common.Dialog. When the box is taller than the space
// given, the reason goes first, then the buttons: the fields stay.
func (s *Screen) View() string {
	st := s.ctx.Styles
	inner := s.innerWidth()
	title := st.DialogTitle.Render(ansi.Truncate("Log in", inner, "…"))
	var reason []string
	if s.reason != "" {
		reason = strings.Split(st.Label.Width(inner).Render(s.reason), "\n")
	}
	var fields []string
	for i, label := range fieldLabels {
		marker := "  "
		if i == s.focus {
			marker = st.FieldFocused.Render(st.Symbols.Cursor) + " "
		}
		padded := label + strings.Repeat(" ", s.labelWidth()-ansi.StringWidth(label))
		fields = append(fields, ansi.Truncate(marker+st.Label.Render(padded)+" "+s.inputs[i].View(), inner, "…"))
	}
	switch {
	case s.checking:
		fields = append(fields, st.StatusBusy.Render(ansi.Truncate(s.ctx.Spinner+" checking…", inner, "…")))
	case s.problem != "":
		fields = append(fields, strings.Split(st.StatusError.Width(inner).Render(st.Symbols.Error+" "+s.problem), "\n")...)
	}
	buttons := st.ButtonFocused.Render("enter log in")
	if s.closable() {
		buttons += "  " + st.Button.Render("esc cancel")
	} else {
		buttons += "  " + st.Button.Render("ctrl+c quit")
	}
	footer := []string{ansi.Truncate(buttons, inner, "…")}

	if avail := s.height - st.Dialog.GetVerticalFrameSize(); avail > 0 {
		for over := 1 + len(reason) + len(fields) + len(footer) - avail; over > 0; over-- {
			switch {
			case len(reason) > 0:
				reason = reason[:len(reason)-1]
			case len(footer) > 0:
				footer = nil
			default:
				fields = fields[:max(1, len(fields)-1)]
			}
		}
	}
	lines := append(append(append([]string{title}, reason...), fields...), footer...)
	return st.Dialog.Width(inner + st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// ShortHelp implements help.KeyMap.
func (s *Screen) ShortHelp() []key.Binding {
	k := s.ctx.Keys
	if s.closable() {
		return []key.Binding{k.NextField, k.Confirm, k.Back}
	}
	return []key.Binding{k.NextField, k.Confirm}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.ShortHelp(), {s.ctx.Keys.PrevField}}
}
