package people

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// notAdministrator is why the write keys do nothing for anyone else.
const notAdministrator = "user management is for administrators"

// writeBindings are the write keys of the section on screen; each works on
// the selected row, and only for an administrator.
func (p *Pane) writeBindings() common.Bindings {
	k := p.ctx.Keys
	why := ""
	if !p.admin() {
		why = notAdministrator
	}
	name := p.selectedName()
	onName := func(do func(name string) tea.Cmd) func() tea.Cmd {
		return func() tea.Cmd {
			if name == "" {
				return nil
			}
			return do(name)
		}
	}
	w := func(b common.Binding) common.Binding {
		b.Write, b.Disabled, b.Column = true, why, 2
		return b
	}
	switch p.section {
	case users:
		onUser := func(do func(u model.User) tea.Cmd) func() tea.Cmd {
			return func() tea.Cmd {
				if u, ok := p.selectedUser(); ok {
					return do(u)
				}
				return nil
			}
		}
		return common.Bindings{
			w(common.Binding{Key: k.New, Help: "new user", Run: func() tea.Cmd { return common.OpenDialog(p.newUserForm()) }, Hint: 5}),
			w(common.Binding{Key: k.Toggle, Help: "disable or enable the user", Short: "enable/disable", Run: onUser(p.toggle), Hint: 6}),
			w(common.Binding{Key: k.Edit, Help: "change e-mail, groups, roles", Short: "edit", Run: onUser(func(u model.User) tea.Cmd {
				return common.OpenDialog(p.editUserForm(u))
			}), Hint: 7}),
			w(common.Binding{Key: k.Password, Run: onUser(func(u model.User) tea.Cmd { return common.OpenDialog(passwordForm(p.ctx, u.Username)) }), Hint: 8}),
			w(common.Binding{Key: k.Delete, Help: "delete the user (asks first)", Short: "delete", Run: onUser(p.askDeleteUser), Hint: 9}),
		}
	case groups:
		return common.Bindings{
			w(common.Binding{Key: k.New, Help: "new group", Run: func() tea.Cmd {
				return common.OpenDialog(nameForm(p.ctx, "New group", "", func(to string) writeMsg {
					return writeMsg{label: "creating group " + to, done: "created group " + to,
						run: func(ctx context.Context, c *api.Client) error { return c.CreateGroup(ctx, to) }}
				}))
			}, Hint: 5}),
			w(common.Binding{Key: k.Edit, Help: "rename the group", Short: "rename", Run: onName(func(name string) tea.Cmd {
				return common.OpenDialog(nameForm(p.ctx, "Rename group "+common.Clean(name), name, func(to string) writeMsg {
					return writeMsg{label: "renaming group " + name, done: "renamed group " + name + " to " + to,
						run: func(ctx context.Context, c *api.Client) error { return c.RenameGroup(ctx, name, to) }}
				}))
			}), Hint: 6}),
			w(common.Binding{Key: k.Delete, Help: "delete the group (asks first)", Short: "delete", Run: onName(p.askDeleteGroup), Hint: 7}),
		}
	}
	return common.Bindings{
		w(common.Binding{Key: k.New, Help: "new role", Run: func() tea.Cmd { return common.OpenDialog(roleForm(p.ctx, model.Role{})) }, Hint: 5}),
		w(common.Binding{Key: k.Edit, Help: "rename the role, change its capabilities", Short: "edit", Run: onName(func(name string) tea.Cmd {
			i := slices.IndexFunc(p.roles, func(r model.Role) bool { return r.Name == name })
			return common.OpenDialog(roleForm(p.ctx, p.roles[i]))
		}), Hint: 6}),
		w(common.Binding{Key: k.Delete, Help: "delete the role (asks first)", Short: "delete", Run: onName(func(name string) tea.Cmd {
			return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete role "+common.Clean(name)+"?",
				"Its users keep their other roles; one left with none gets ANALYST.", "delete", true,
				writeMsg{label: "deleting role " + name, done: "deleted role " + name,
					run: func(ctx context.Context, c *api.Client) error { return c.DeleteRole(ctx, name) }}))
		}), Hint: 7}),
	}
}

func (p *Pane) askDeleteUser(u model.User) tea.Cmd {
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete user "+common.Clean(u.Username)+"?", deleteUserBody(u), "delete", true,
		writeMsg{label: "deleting user " + u.Username, done: "deleted user " + u.Username,
			run: func(ctx context.Context, c *api.Client) error { return c.DeleteUser(ctx, u.Username) }}))
}

func (p *Pane) askDeleteGroup(name string) tea.Cmd {
	members := p.membersOf(name)
	body := fmt.Sprintf("%s in it lose the group, and every permission given to the group goes with it.", common.Plural(len(members), "member"))
	return common.OpenDialog(dialog.NewConfirm(p.ctx, "Delete group "+common.Clean(name)+"?", body, "delete", true,
		writeMsg{label: "deleting group " + name, done: "deleted group " + name,
			run: func(ctx context.Context, c *api.Client) error { return c.DeleteGroup(ctx, name) }}))
}

// write runs a decided write in the background.
func (p *Pane) write(msg writeMsg) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask(msg.label, common.Quick, func(ctx context.Context) tea.Msg {
		return wroteMsg{label: msg.label, done: msg.done, err: msg.run(ctx, client)}
	})
}

// toggle disables an enabled user and enables a disabled one.
func (p *Pane) toggle(u model.User) tea.Cmd {
	u.Enabled = !u.Enabled
	verb := "disabled"
	if u.Enabled {
		verb = "enabled"
	}
	return p.write(writeMsg{label: "changing user " + u.Username, done: verb + " user " + u.Username,
		run: func(ctx context.Context, c *api.Client) error { return c.UpdateUser(ctx, u) }})
}

// deleteUserBody says what the user owns and what becomes of it, as far as
// the platform tells.
func deleteUserBody(u model.User) string {
	switch {
	case u.OwnedFiles == nil:
		return "The platform does not say what the user owns.\nThe user is deleted from the platform; this cannot be undone."
	case *u.OwnedFiles == 0:
		return "The user owns no files.\nThe user is deleted from the platform; this cannot be undone."
	}
	return fmt.Sprintf("The user owns %s; they pass to the system owner, which administrators manage.\nThe user is deleted from the platform; this cannot be undone.",
		common.Plural(*u.OwnedFiles, "file"))
}

// names splits a comma-separated list, dropping empty names.
func names(s string) []string {
	out := []string{}
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (p *Pane) newUserForm() *dialog.Form {
	fields := []dialog.Field{
		{Name: "username", Label: "user name", Text: true},
		{Name: "email", Label: "e-mail", Text: true},
		{Name: "password", Label: "password", Text: true, Secret: true},
		{Name: "groups", Label: "groups", Text: true},
		{Name: "roles", Label: "roles", Text: true, Value: model.RoleAnalyst},
	}
	note := "Groups and roles separated by commas. The password is sent once and kept nowhere; without one, the user cannot log in until it is reset."
	return dialog.NewForm(p.ctx, "New user", note, "create", fields, func(v dialog.Values) (tea.Msg, error) {
		u := model.User{Username: strings.TrimSpace(v.Text("username")), Email: strings.TrimSpace(v.Text("email")), Enabled: true,
			Groups: names(v.Text("groups")), Roles: names(v.Text("roles"))}
		if u.Username == "" {
			return nil, fmt.Errorf("a user needs a name")
		}
		if len(u.Roles) == 0 {
			return nil, fmt.Errorf("a user needs a role (%s or %s)", model.RoleAnalyst, model.RoleAdmin)
		}
		password := v.Text("password")
		return writeMsg{label: "creating user " + u.Username, done: "created user " + u.Username,
			run: func(ctx context.Context, c *api.Client) error { return c.CreateUser(ctx, u, password) }}, nil
	})
}

func (p *Pane) editUserForm(u model.User) *dialog.Form {
	fields := []dialog.Field{
		{Name: "email", Label: "e-mail", Text: true, Value: u.Email},
		{Name: "groups", Label: "groups", Text: true, Value: strings.Join(u.Groups, ", ")},
		{Name: "roles", Label: "roles", Text: true, Value: strings.Join(u.Roles, ", ")},
	}
	return dialog.NewForm(p.ctx, "Change user "+common.Clean(u.Username), "Groups and roles separated by commas.", "save", fields,
		func(v dialog.Values) (tea.Msg, error) {
			u.Email, u.Groups, u.Roles = strings.TrimSpace(v.Text("email")), names(v.Text("groups")), names(v.Text("roles"))
			if len(u.Roles) == 0 {
				return nil, fmt.Errorf("a user needs a role (%s or %s)", model.RoleAnalyst, model.RoleAdmin)
			}
			return writeMsg{label: "changing user " + u.Username, done: "changed user " + u.Username,
				run: func(ctx context.Context, c *api.Client) error { return c.UpdateUser(ctx, u) }}, nil
		})
}

func passwordForm(ctx *common.Context, name string) *dialog.Form {
	fields := []dialog.Field{{Name: "password", Label: "new password", Text: true, Secret: true}}
	return dialog.NewForm(ctx, "Reset the password of "+common.Clean(name), "Sent once, kept nowhere.", "reset", fields,
		func(v dialog.Values) (tea.Msg, error) {
			password := v.Text("password")
			if password == "" {
				return nil, fmt.Errorf("type the new password")
			}
			return writeMsg{label: "resetting the password of " + name, done: "reset the password of " + name,
				run: func(ctx context.Context, c *api.Client) error { return c.SetPassword(ctx, name, password) }}, nil
		})
}

// nameForm asks for a group's name.
func nameForm(ctx *common.Context, title, value string, write func(to string) writeMsg) *dialog.Form {
	fields := []dialog.Field{{Name: "name", Label: "name", Text: true, Value: value}}
	return dialog.NewForm(ctx, title, "", "save", fields, func(v dialog.Values) (tea.Msg, error) {
		to := strings.TrimSpace(v.Text("name"))
		if to == "" || to == value {
			return nil, fmt.Errorf("type a new name")
		}
		return write(to), nil
	})
}

// roleForm creates a role (r.Name empty) or changes one.
func roleForm(ctx *common.Context, r model.Role) *dialog.Form {
	fields := []dialog.Field{
		{Name: "name", Label: "name", Text: true, Value: r.Name},
		{Name: "capabilities", Label: "capabilities", Text: true, Value: strings.Join(r.Capabilities, ", ")},
	}
	title, old := "New role", r.Name
	if old != "" {
		title = "Change role " + common.Clean(old)
	}
	return dialog.NewForm(ctx, title, "Capabilities separated by commas (WORKBOOK_EDIT, …).", "save", fields,
		func(v dialog.Values) (tea.Msg, error) {
			role := model.Role{Name: strings.TrimSpace(v.Text("name")), Capabilities: names(v.Text("capabilities"))}
			if role.Name == "" {
				return nil, fmt.Errorf("a role needs a name")
			}
			if old == "" {
				return writeMsg{label: "creating role " + role.Name, done: "created role " + role.Name,
					run: func(ctx context.Context, c *api.Client) error { return c.CreateRole(ctx, role) }}, nil
			}
			return writeMsg{label: "changing role " + old, done: "changed role " + old,
				run: func(ctx context.Context, c *api.Client) error { return c.UpdateRole(ctx, old, role) }}, nil
		})
}
