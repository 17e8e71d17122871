package theme

import (
	"image/color"
	"os"
	"sync/atomic"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Palette is the handful of colours every style is drawn from, chosen for
// the terminal's background.
type Palette struct {
	Text, Subtle, Faint  color.Color
	Accent, AccentText   color.Color
	Selection            color.Color
	OK, Warning, Danger  color.Color
	Border, DialogBorder color.Color
}

// NewPalette picks the light or the dark variant of each colour.
func NewPalette(dark bool) Palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return Palette{
		Text:         ld(c("#1C1C1C"), c("#E4E4E4")),
		Subtle:       ld(c("#5F5F5F"), c("#A8A8A8")),
		Faint:        ld(c("#8A8A8A"), c("#6C6C6C")),
		Accent:       ld(c("#005FAF"), c("#5FAFFF")),
		AccentText:   ld(c("#FFFFFF"), c("#000000")),
		Selection:    ld(c("#D0E4F8"), c("#263A52")),
		OK:           ld(c("#007F00"), c("#5FD75F")),
		Warning:      ld(c("#8F5F00"), c("#FFD75F")),
		Danger:       ld(c("#AF0000"), c("#FF5F5F")),
		Border:       ld(c("#BCBCBC"), c("#4E4E4E")),
		DialogBorder: ld(c("#005FAF"), c("#5FAFFF")),
	}
}

// Symbols tell every state in text, so nothing depends on colour alone.
type Symbols struct {
	Expanded, Collapsed, Leaf string
	// Marked marks a row, one character, the same in every list (the
	// tree, the job dashboard).
	Marked                   string
	On, Off                  string
	Cursor                   string
	Healthy, Unhealthy, Slow string
	Error, Notice, Warning   string
	ReadOnly                 string
	Crumb                    string
	// A job's state starts with one of these, so it reads without colour;
	// completed, warnings and error take Notice, Warning and Error.
	JobRunning, JobQueued, JobCanceled, JobUnknown string
	// Kinds names each kind of file, keyed by its model.Kind, with a glyph
	// and a word, so a row tells it without colour.
	Kinds map[string]string
}

// DefaultSymbols are the symbols of every theme.
var DefaultSymbols = Symbols{
	Expanded:    "▾",
	Collapsed:   "▸",
	Leaf:        "·",
	Marked:      "*",
	On:          "[x]",
	Off:         "[ ]",
	Cursor:      "›",
	Healthy:     "● up",
	Unhealthy:   "✗ down",
	Slow:        "◌ slow",
	Error:       "✗",
	Notice:      "✓",
	Warning:     "!",
	ReadOnly:    "read-only",
	Crumb:       " › ",
	JobRunning:  ">",
	JobQueued:   ".",
	JobCanceled: "-",
	JobUnknown:  "?",
	Kinds:       kindLabels(asciiRequested),
}

// Styles is the one style sheet of the console. A sheet is never changed
// once built: new colours (the terminal reported its background) come as a
// new sheet with a new Generation, and every cache of rendered text keys on
// the Generation it drew with, so it notices the change by itself.
type Styles struct {
	generation uint64

	NoColor bool
	Symbols Symbols

	// Header line.
	Header, AppName, Tab, ActiveTab, Identity lipgloss.Style
	HealthOK, HealthBad, HealthSlow, ReadOnly lipgloss.Style

	// Panes and rows.
	PaneTitle, Breadcrumb, BreadcrumbCurrent lipgloss.Style
	Row, SelectedRow, MarkedRow, DimRow      lipgloss.Style
	TreeGuide, Empty, Placeholder            lipgloss.Style

	// Job states, told apart as the dashboard, a history and a plan show
	// them; JobDataDeleted marks an execution whose data was deleted.
	JobRunning, JobQueued, JobCompleted, JobWarnings lipgloss.Style
	JobCanceled, JobFailed, JobOther, JobDataDeleted lipgloss.Style

	// Forms inside panes and dialogs.
	Label, Value, FieldFocused, ToggleOn, ToggleOff lipgloss.Style

	// Bottom lines.
	StatusNotice, StatusError, StatusInfo, StatusBusy lipgloss.Style
	CommandHint                                       lipgloss.Style
	Help                                              help.Styles

	// TextInput draws every text field: forms, filters, the command line
	// (whose prompt is the accent's), the login screen.
	TextInput textinput.Styles

	// Dialogs: a plain one, and one for destructive confirmations that
	// cannot be missed.
	Dialog, DialogDanger, DialogTitle, DialogDangerTitle lipgloss.Style
	Button, ButtonFocused, ButtonDanger                  lipgloss.Style

	TooSmall lipgloss.Style
}

// generations numbers the sheets New builds; the console's ssh server
// builds them from many sessions at once.
var generations atomic.Uint64

// Generation tells this sheet from every other New built.
func (s *Styles) Generation() uint64 { return s.generation }

// NoColorRequested reports whether the environment asks for no colour
// (https://no-color.org): any non-empty NO_COLOR.
func NoColorRequested() bool { return os.Getenv("NO_COLOR") != "" }

// New builds the style sheet for a dark or light background. With noColor,
// styles carry no colours at all and emphasis is told by bold, underline and
// reverse video, which survive a monochrome terminal.
func New(dark, noColor bool) *Styles {
	p := NewPalette(dark)
	s := &Styles{generation: generations.Add(1), NoColor: noColor, Symbols: DefaultSymbols}
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	border := func(c color.Color) lipgloss.Style {
		st := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
		if !noColor {
			st = st.BorderForeground(c)
		}
		return st
	}

	s.Header = lipgloss.NewStyle()
	s.AppName = fg(p.Accent).Bold(true)
	s.Tab = fg(p.Subtle).Padding(0, 1)
	s.ActiveTab = fg(p.Accent).Bold(true).Underline(true).Padding(0, 1)
	s.Identity = fg(p.Subtle)
	s.HealthOK = fg(p.OK)
	s.HealthBad = fg(p.Danger).Bold(true)
	s.HealthSlow = fg(p.Warning)
	s.ReadOnly = fg(p.Warning).Bold(true)

	s.PaneTitle = fg(p.Accent).Bold(true)
	s.Breadcrumb = fg(p.Subtle)
	s.BreadcrumbCurrent = fg(p.Text).Bold(true)
	s.Row = fg(p.Text)
	s.SelectedRow = lipgloss.NewStyle().Bold(true)
	if noColor {
		s.SelectedRow = s.SelectedRow.Reverse(true)
	} else {
		s.SelectedRow = s.SelectedRow.Foreground(p.Text).Background(p.Selection)
	}
	s.MarkedRow = fg(p.Accent).Bold(true)
	s.DimRow = fg(p.Faint)
	s.TreeGuide = fg(p.Faint)
	s.Empty = fg(p.Faint).Italic(true)
	s.Placeholder = fg(p.Subtle).Italic(true)

	s.JobRunning = fg(p.Accent)
	s.JobQueued = fg(p.Subtle)
	s.JobCompleted = fg(p.OK)
	s.JobWarnings = fg(p.Warning)
	s.JobCanceled = fg(p.Faint)
	s.JobFailed = fg(p.Danger).Bold(true)
	s.JobOther = fg(p.Text)
	s.JobDataDeleted = fg(p.Warning)

	s.Label = fg(p.Subtle)
	s.Value = fg(p.Text)
	s.FieldFocused = fg(p.Accent).Bold(true).Underline(true)
	s.ToggleOn = fg(p.OK).Bold(true)
	s.ToggleOff = fg(p.Faint)

	s.StatusNotice = fg(p.OK)
	s.StatusError = fg(p.Danger).Bold(true)
	s.StatusInfo = fg(p.Subtle)
	s.StatusBusy = fg(p.Accent)
	s.CommandHint = fg(p.Faint)
	s.TextInput = textInputStyles(p, fg, noColor)
	s.Help = help.Styles{
		Ellipsis:       fg(p.Faint),
		ShortKey:       fg(p.Subtle).Bold(true),
		ShortDesc:      fg(p.Faint),
		ShortSeparator: fg(p.Faint),
		FullKey:        fg(p.Subtle).Bold(true),
		FullDesc:       fg(p.Faint),
		FullSeparator:  fg(p.Faint),
	}

	s.Dialog = border(p.DialogBorder)
	s.DialogDanger = border(p.Danger).Border(lipgloss.DoubleBorder())
	s.DialogTitle = fg(p.Accent).Bold(true)
	s.DialogDangerTitle = fg(p.Danger).Bold(true).Underline(true)
	s.Button = fg(p.Subtle).Padding(0, 1)
	s.ButtonFocused = lipgloss.NewStyle().Bold(true).Padding(0, 1).Reverse(true)
	s.ButtonDanger = fg(p.Danger).Bold(true).Padding(0, 1).Reverse(true)

	s.TooSmall = fg(p.Warning).Bold(true)
	return s
}

// textInputStyles draws typed text plainly, placeholders and suggestions
// faint, a field without the focus subtle, and the cursor in the accent
// (in reverse video alone without colour).
func textInputStyles(p Palette, fg func(color.Color) lipgloss.Style, noColor bool) textinput.Styles {
	cursor := p.Accent
	if noColor {
		cursor = nil
	}
	return textinput.Styles{
		Focused: textinput.StyleState{Text: fg(p.Text), Placeholder: fg(p.Faint), Suggestion: fg(p.Faint), Prompt: fg(p.Accent).Bold(true)},
		Blurred: textinput.StyleState{Text: fg(p.Subtle), Placeholder: fg(p.Faint), Suggestion: fg(p.Faint), Prompt: fg(p.Subtle)},
		Cursor:  textinput.CursorStyle{Color: cursor, Shape: tea.CursorBlock, Blink: true},
	}
}

// Toggle renders a boolean as a checkbox whose text, not only its colour,
// says on or off.
func (s *Styles) Toggle(on bool) string {
	if on {
		return s.ToggleOn.Render(s.Symbols.On)
	}
	return s.ToggleOff.Render(s.Symbols.Off)
}
