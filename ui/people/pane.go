package people

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// section is the list on screen.
type section int

const (
	users section = iota
	groups
	roles
	sectionCount
)

var sectionNames = [sectionCount]string{"Users", "Groups", "Roles"}

// row is one line of a list: its cells, by column, and the name it stands for.
type row struct {
	name  string
	cells []string
}

// Pane is the People pane.
type Pane struct {
	ctx           *common.Context
	width, height int

	section section
	users   []model.User
	groups  []model.Group
	roles   []model.Role
	// me is the caller's own account when it may not list the users.
	me          *model.LoggedInUser
	loaded      bool
	err         error
	unsupported bool
	reads       common.Requests

	filter common.FilterField
	// filters, sorts and cursors are per section.
	filters    [sectionCount]string
	sortBy     [sectionCount]int
	descending [sectionCount]bool
	cursor     [sectionCount]int
	offset     [sectionCount]int
	rows       []row // the section's rows, filtered and sorted
	total      int   // the section's rows before the filter
}

// New returns the People pane.
func New(ctx *common.Context) *Pane {
	return &Pane{ctx: ctx, filter: common.NewFilterField(ctx, "filter name, e-mail, groups, roles")}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "People" }

// Init implements common.Pane: the lists are read quietly.
func (p *Pane) Init() tea.Cmd { return p.readLists(common.Quiet) }

// Loaded implements common.Loader.
func (p *Pane) Loaded() bool { return p.loaded || p.err != nil }

// SetSize implements common.Pane.
func (p *Pane) SetSize(width, height int) {
	p.width, p.height = width, height
	p.filter.SetWidth(width)
	p.scroll()
}

// CapturingInput implements common.InputCapturer.
func (p *Pane) CapturingInput() bool { return p.filter.Active() }

// admin reports whether the caller may manage users: the lists were read.
func (p *Pane) admin() bool { return p.loaded && p.me == nil }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) (common.Pane, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p, p.handleKey(msg)
	case listMsg:
		p.gotLists(msg)
		return p, nil
	case writeMsg:
		return p, p.write(msg)
	case wroteMsg:
		if msg.err != nil {
			return p, tea.Batch(common.Fail(msg.label, msg.err), p.readLists(common.Quick))
		}
		return p, tea.Batch(common.Notify(msg.done), p.readLists(common.Quick))
	case common.LoggedInMsg:
		p.reads.Reset()
		p.users, p.groups, p.roles, p.me, p.loaded, p.err = nil, nil, nil, nil, false, nil
		p.build()
		return p, p.readLists(common.Quiet)
	case common.WatchTickMsg:
		return p, p.readLists(common.Quiet)
	}
	return p, nil
}

// readLists reads users, groups and roles; a 403 on the users reads the
// caller's own account instead.
func (p *Pane) readLists(kind common.TaskKind) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	ticket := p.reads.Next()
	return common.StartTask("reading users, groups and roles", kind, func(ctx context.Context) tea.Msg {
		msg := listMsg{ticket: ticket}
		msg.users, msg.err = client.Users(ctx)
		if api.IsForbidden(msg.err) {
			me, err := client.LoggedInUser(ctx)
			msg.me, msg.err = &me, err
			return msg
		}
		if msg.err != nil {
			return msg
		}
		if msg.groups, msg.err = client.Groups(ctx); msg.err != nil {
			return msg
		}
		msg.roles, msg.err = client.Roles(ctx)
		return msg
	})
}

func (p *Pane) gotLists(msg listMsg) {
	if !p.reads.Current(msg.ticket) {
		return
	}
	if msg.err != nil {
		p.err, p.unsupported = msg.err, errors.Is(msg.err, api.ErrUnsupported)
		return
	}
	p.err, p.loaded = nil, true
	p.users, p.groups, p.roles, p.me = msg.users, msg.groups, msg.roles, msg.me
	p.build()
}

// columns of each section, in order; the first is the name.
var columnNames = [sectionCount][]string{
	users:  {"USER", "ENABLED", "E-MAIL", "GROUPS", "ROLES"},
	groups: {"GROUP", "MEMBERS"},
	roles:  {"ROLE", "CAPABILITIES", "USERS"},
}

// build makes the section's rows from what was read, filtered and sorted,
// and keeps the cursor on the same name where it can.
func (p *Pane) build() {
	s := p.section
	var selected string
	if c := p.cursor[s]; c < len(p.rows) {
		selected = p.rows[c].name
	}
	all := p.allRows()
	needle := common.ParseNeedle(p.filters[s])
	p.rows = p.rows[:0]
	for _, r := range all {
		if needle.Match(strings.Join(r.cells, " ")) {
			p.rows = append(p.rows, r)
		}
	}
	p.total = len(all)
	col, desc := p.sortBy[s], p.descending[s]
	slices.SortStableFunc(p.rows, func(a, b row) int {
		c := cmp.Compare(strings.ToLower(a.cells[col]), strings.ToLower(b.cells[col]))
		if c == 0 {
			c = cmp.Compare(a.name, b.name)
		}
		if desc {
			c = -c
		}
		return c
	})
	p.cursor[s] = 0
	for i, r := range p.rows {
		if r.name == selected {
			p.cursor[s] = i
		}
	}
	p.scroll()
}

// allRows are every row of the section shown, before the filter: one per
// user, group or role read.
func (p *Pane) allRows() []row {
	var all []row
	switch p.section {
	case users:
		for _, u := range p.users {
			enabled := "yes"
			if !u.Enabled {
				enabled = "no"
			}
			all = append(all, row{u.Username, []string{u.Username, enabled, u.Email, strings.Join(u.Groups, ", "), strings.Join(u.Roles, ", ")}})
		}
	case groups:
		for _, g := range p.groups {
			all = append(all, row{g.Name, []string{g.Name, strings.Join(p.membersOf(g.Name), ", ")}})
		}
	case roles:
		for _, r := range p.roles {
			all = append(all, row{r.Name, []string{r.Name, strings.Join(r.Capabilities, ", "), common.Plural(p.usersWithRole(r.Name), "user")}})
		}
	}
	return all
}

// usersWithRole counts the users holding a role.
func (p *Pane) usersWithRole(role string) int {
	n := 0
	for _, u := range p.users {
		if slices.Contains(u.Roles, role) {
			n++
		}
	}
	return n
}

// membersOf are the users in a group, by name.
func (p *Pane) membersOf(group string) []string {
	var out []string
	for _, u := range p.users {
		if slices.Contains(u.Groups, group) {
			out = append(out, u.Username)
		}
	}
	return out
}

// listHeight is how many rows the list shows: the pane less its title,
// the filter line and the column heads.
func (p *Pane) listHeight() int { return max(1, p.height-3) }

func (p *Pane) scroll() {
	s := p.section
	p.cursor[s] = max(0, min(p.cursor[s], len(p.rows)-1))
	p.offset[s] = common.ScrollOffset(p.cursor[s], p.offset[s], p.listHeight(), len(p.rows))
}

// selectedUser is the user under the cursor in the users list.
func (p *Pane) selectedUser() (model.User, bool) {
	if p.section != users || p.cursor[users] >= len(p.rows) {
		return model.User{}, false
	}
	name := p.rows[p.cursor[users]].name
	for _, u := range p.users {
		if u.Username == name {
			return u, true
		}
	}
	return model.User{}, false
}

// selectedName is the name under the cursor, "" on an empty list.
func (p *Pane) selectedName() string {
	if p.cursor[p.section] >= len(p.rows) {
		return ""
	}
	return p.rows[p.cursor[p.section]].name
}

func (p *Pane) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if p.filter.Active() {
		action, cmd := p.filter.Update(msg, p.ctx.Keys)
		p.filters[p.section] = p.filter.Value()
		p.build()
		if action == common.FilterLeft {
			return p.handleKey(msg)
		}
		return cmd
	}
	cmd, _ := p.Bindings().Handle(p.ctx, msg)
	return cmd
}

// switchSection shows the next list (step 1) or the previous one.
func (p *Pane) switchSection(step section) tea.Cmd {
	p.section = (p.section + step) % sectionCount
	p.filters[p.section] = "" // the field is one; a list's filter does not outlive leaving it
	p.filter.Clear()
	p.build()
	return nil
}

func (p *Pane) moveCursor(delta int) tea.Cmd {
	p.cursor[p.section] += delta
	p.scroll()
	return nil
}

func (p *Pane) clearFilter() tea.Cmd {
	if p.filters[p.section] == "" {
		return nil
	}
	p.filters[p.section] = ""
	p.filter.Clear()
	p.build()
	return nil
}
