package common

import (
	"slices"
	"sort"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Binding is one key of a view, declared once, as lazygit's controllers and
// k9s's KeyActions declare theirs: the view's list of bindings is what
// handles its keys (Bindings.Handle), what the hint bar and `?` show
// (Hints, Help), and what a read-only session or a console served over SSH
// disables. Nothing else in a view matches keys, so what help says and what
// a key does cannot drift apart.
type Binding struct {
	// Key is a binding of the shared KeyMap: its keys and their name.
	Key key.Binding
	// Help says what the key does in this view; "" keeps the KeyMap's words.
	Help string
	// Short is Help in fewer words, for the hint bar (lazygit's short
	// description); "" uses Help.
	Short string
	// Run handles the key. A binding without Run is shown only: ↑↓ "move"
	// in the hint bar, whose keys the Up and Down bindings handle.
	Run func() tea.Cmd
	// Write marks a key that changes something on the server: a read-only
	// session disables it.
	Write bool
	// Disabled says why the key does nothing in this view now ("" when it
	// works): the hint bar leaves it out, `?` marks it ✗, and pressing it
	// says this reason in the status line.
	Disabled string
	// Hint is the key's place in the hint bar, 1 first; 0 keeps it out.
	Hint int
	// Column is the key's column in `?` (columns in increasing order, keys
	// in the order listed); NoHelp keeps it out of `?`.
	Column int
}

// NoHelp is the Column of a binding `?` does not list (a hint-bar summary
// such as ↑↓ whose keys have bindings of their own).
const NoHelp = -1

// ReadOnlyReason is why a write key does nothing in a read-only session.
const ReadOnlyReason = "read-only session"

// Bindings is a view's keys.
type Bindings []Binding

// Why says why b does nothing in ctx: its own reason, or, for a write key,
// the session's being read-only; "" when it works.
func (b Binding) Why(ctx *Context) string {
	if b.Disabled != "" {
		return b.Disabled
	}
	if b.Write && ctx.ReadOnly {
		return ReadOnlyReason
	}
	return ""
}

// Shown is the key as help draws it: its keys, with the view's words.
func (b Binding) Shown() key.Binding {
	if b.Help == "" {
		return b.Key
	}
	return Described(b.Key, b.Help)
}

// matches reports whether msg is one of b's keys. It ignores the key's
// Enabled flag on purpose: Why is the one place that disables a key.
func (b Binding) matches(msg tea.KeyPressMsg) bool {
	return slices.Contains(b.Key.Keys(), msg.String())
}

// Handle runs the first binding with a handler that works and whose keys
// include msg. When only disabled bindings have the key, it runs nothing
// and says why (common.Problem). ok is false when no binding has the key:
// the key is not this view's.
func (bs Bindings) Handle(ctx *Context, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	refusal := ""
	for _, b := range bs {
		if b.Run == nil || !b.matches(msg) {
			continue
		}
		if why := b.Why(ctx); why != "" {
			if refusal == "" {
				what := b.Short // the hint bar's words: "delete", not "delete … (asks first)"
				if what == "" {
					what = b.Shown().Help().Desc
				}
				refusal = what + ": " + why
			}
			continue
		}
		return b.Run(), true
	}
	if refusal != "" {
		return Problem(refusal), true
	}
	return nil, false
}

// Has reports whether a binding that works has msg among its keys.
func (bs Bindings) Has(ctx *Context, msg tea.KeyPressMsg) bool {
	return slices.ContainsFunc(bs, func(b Binding) bool { return b.matches(msg) && b.Why(ctx) == "" })
}

// Hints returns the keys of the hint bar: those with a place in it that
// work, in the order of their places.
func (bs Bindings) Hints(ctx *Context) []key.Binding {
	var hinted Bindings
	for _, b := range bs {
		if b.Hint > 0 && b.Why(ctx) == "" {
			hinted = append(hinted, b)
		}
	}
	sort.SliceStable(hinted, func(i, j int) bool { return hinted[i].Hint < hinted[j].Hint })
	out := make([]key.Binding, len(hinted))
	for i, b := range hinted {
		out[i] = b.Shown()
		if b.Short != "" {
			out[i] = Described(b.Key, b.Short)
		}
	}
	return out
}

// Help returns the columns of `?`: the keys that work, by column, and the
// disabled ones apart, each marked ✗, with the reasons they give (each
// once, in order).
func (bs Bindings) Help(ctx *Context) (columns [][]key.Binding, disabled []key.Binding, reasons []string) {
	byColumn := map[int][]key.Binding{}
	var order []int
	for _, b := range bs {
		if b.Column == NoHelp {
			continue
		}
		if why := b.Why(ctx); why != "" {
			h := b.Shown().Help()
			disabled = append(disabled, key.NewBinding(key.WithKeys(b.Key.Keys()...), key.WithHelp(h.Key, h.Desc+" ✗")))
			if !slices.Contains(reasons, why) {
				reasons = append(reasons, why)
			}
			continue
		}
		if _, seen := byColumn[b.Column]; !seen {
			order = append(order, b.Column)
		}
		byColumn[b.Column] = append(byColumn[b.Column], b.Shown())
	}
	sort.Ints(order)
	for _, c := range order {
		columns = append(columns, byColumn[c])
	}
	return columns, disabled, reasons
}

// ListBindings are the keys that move a list's cursor: a line, a page of
// page rows, either end of total rows; move moves the cursor by delta and
// returns what follows (a read of the rows now on screen, or nil). The
// first, ↑↓, is the hint bar's summary of the two.
func ListBindings(k *KeyMap, page, total int, hint, column int, move func(delta int) tea.Cmd) Bindings {
	step := func(delta int) func() tea.Cmd { return func() tea.Cmd { return move(delta) } }
	return Bindings{
		{Key: k.Move, Hint: hint, Column: NoHelp},
		{Key: k.Up, Run: step(-1), Column: column},
		{Key: k.Down, Run: step(1), Column: column},
		{Key: k.PageUp, Run: step(-page), Column: column},
		{Key: k.PageDown, Run: step(page), Column: column},
		{Key: k.Top, Run: step(-total), Column: column},
		{Key: k.Bottom, Run: step(total), Column: column},
	}
}
