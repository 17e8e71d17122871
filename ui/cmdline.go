package ui

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/ui/common"
)

// commandLine is the `:` line: a text input over the status line, with the
// matching commands hinted below it and tab completing the name.
type commandLine struct {
	ctx      *common.Context
	input    common.TextInput
	active   bool
	commands []common.Command
	complete key.Binding
	// candidates are the folder paths the last tab could not choose among.
	candidates []string
}

func newCommandLine(ctx *common.Context, commands []common.Command) commandLine {
	in := common.NewTextInput(ctx)
	in.Prompt = ":"
	sort.SliceStable(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	return commandLine{
		ctx: ctx, input: in, commands: commands,
		complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
	}
}

func (c *commandLine) setWidth(w int) { c.input.SetWidth(max(1, w-2)) }

func (c *commandLine) open() tea.Cmd {
	c.active, c.candidates = true, nil
	c.input.Reset()
	return c.input.Focus()
}

func (c *commandLine) close() {
	c.active = false
	c.input.Blur()
}

func (c *commandLine) update(msg tea.KeyPressMsg, m *Model) tea.Cmd {
	k := c.ctx.Keys
	switch {
	case key.Matches(msg, k.Back):
		c.close()
		return nil
	case key.Matches(msg, k.Confirm):
		line := c.input.Value()
		c.close()
		return m.runCommand(line)
	case key.Matches(msg, c.complete):
		if name, arg, hasArgs := strings.Cut(c.input.Value(), " "); hasArgs && name == "cd" {
			c.completePath(arg, m)
			return nil
		}
		c.completeName()
		return nil
	case msg.String() == "backspace" && c.input.Value() == "":
		c.close()
		return nil
	}
	c.candidates = nil
	return c.input.Update(msg)
}

// completePath completes the folder path of `:cd` as far as the folders
// read so far agree; with several candidates the hint lists them.
func (c *commandLine) completePath(arg string, m *Model) {
	c.candidates = nil
	resolver := m.pathResolver()
	if resolver == nil {
		return
	}
	typed := m.absolutePath(arg)
	if arg == "" || strings.HasSuffix(arg, "/") {
		typed = strings.TrimSuffix(typed, "/") + "/"
	}
	matches := resolver.CompletePath(typed)
	if len(matches) == 0 {
		return
	}
	done := commonPrefix(matches)
	if len(matches) == 1 {
		done += "/"
	} else {
		c.candidates = matches
	}
	if !strings.HasPrefix(arg, "/") && !strings.HasPrefix(arg, ".") {
		// Keep a relative path relative: complete what was typed.
		base := strings.TrimSuffix(m.absolutePath("."), "/") + "/"
		if rel, ok := strings.CutPrefix(done, base); ok {
			done = rel
		}
	}
	c.input.SetValue("cd " + done)
	c.input.CursorEnd()
}

// completeName completes a command's name: the one that matches whole, or
// as far as the matching names agree, the hint listing them.
func (c *commandLine) completeName() {
	matches := c.matching()
	if len(matches) == 0 || strings.Contains(c.input.Value(), " ") {
		return
	}
	names := make([]string, len(matches))
	for i, cmd := range matches {
		names[i] = cmd.Name
	}
	done := commonPrefix(names)
	if len(matches) == 1 {
		done += " "
	}
	c.input.SetValue(done)
	c.input.CursorEnd()
}

// commonPrefix is the longest start all paths share.
func commonPrefix(paths []string) string {
	prefix := paths[0]
	for _, p := range paths[1:] {
		for !strings.HasPrefix(p, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix
}

// matching returns the commands whose name starts with what is typed.
func (c *commandLine) matching() []common.Command {
	typed := strings.TrimSpace(c.input.Value())
	name, _, hasArgs := strings.Cut(typed, " ")
	var out []common.Command
	for _, cmd := range c.commands {
		if (hasArgs && cmd.Name == name) || (!hasArgs && strings.HasPrefix(cmd.Name, name)) {
			out = append(out, cmd)
		}
	}
	return out
}

// hint lists the matching commands with their arguments and help, or the
// folders a tab left to choose from.
func (c *commandLine) hint(width int) string {
	if len(c.candidates) > 0 {
		shown := make([]string, len(c.candidates))
		for i, p := range c.candidates {
			shown[i] = common.Clean(p) // folder paths the server named
		}
		return strings.Join(shown, "  ")
	}
	matches := c.matching()
	if len(matches) == 0 {
		return "no such command"
	}
	parts, names := make([]string, len(matches)), make([]string, len(matches))
	for i, cmd := range matches {
		usage := ":" + cmd.Name
		if cmd.Args != "" {
			usage += " " + cmd.Args
		}
		parts[i], names[i] = usage+" "+cmd.Help, usage
	}
	if full := strings.Join(parts, " · "); ansi.StringWidth(full) <= width {
		return full
	}
	// Too many to say what each does: their names, as many as fit, and
	// how many more; typing narrows them, tab completes.
	return fitNames(names, width)
}

// fitNames joins names as far as width allows, ending with how many more
// there are when not all fit.
func fitNames(names []string, width int) string {
	line := strings.Join(names, "  ")
	if ansi.StringWidth(line) <= width {
		return line
	}
	for n := len(names) - 1; n > 0; n-- {
		line = strings.Join(names[:n], "  ") + fmt.Sprintf("  … +%d (type to narrow, tab completes)", len(names)-n)
		if ansi.StringWidth(line) <= width {
			return line
		}
	}
	return fmt.Sprintf("%d commands (type to narrow, tab completes)", len(names))
}

func (c *commandLine) ShortHelp() []key.Binding {
	k := c.ctx.Keys
	return []key.Binding{c.complete, k.Confirm, k.Back}
}

// pathResolver is the pane that knows the folders, nil in tests without one.
func (m *Model) pathResolver() common.PathResolver {
	if i := m.pathPane(); i >= 0 {
		return m.panes[i].(common.PathResolver)
	}
	return nil
}

// pathPane is the index of the pane that shows folder paths (GotoPathMsg),
// -1 when none does.
func (m *Model) pathPane() int {
	for i, p := range m.panes {
		if _, ok := p.(common.PathResolver); ok {
			return i
		}
	}
	return -1
}

// absolutePath resolves a folder path typed at `:cd` against the selected
// folder; an absolute one is only cleaned.
func (m *Model) absolutePath(typed string) string {
	if strings.HasPrefix(typed, "/") {
		return path.Clean(typed)
	}
	base := "/"
	if r := m.pathResolver(); r != nil {
		base = r.CurrentPath()
	}
	return path.Join(base, typed)
}

// runCommand finds the command a line names and runs it.
func (m *Model) runCommand(line string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimSpace(line), " ")
	if name == "" {
		return nil
	}
	for _, cmd := range m.commands {
		if cmd.Name != name {
			continue
		}
		work := cmd.Run(strings.TrimSpace(args))
		if cmd.Owner() >= 0 {
			m.switchTo(cmd.Owner())
		}
		return work
	}
	return m.status.set(common.StatusMsg{Level: common.LevelError,
		Text: fmt.Sprintf("unknown command :%s — type : then tab to see the commands", name)})
}

// builtinCommands are the root's own commands; they belong to no pane.
// The commands that show a pane come from the pane list (paneCommands).
func (m *Model) builtinCommands() []common.Command {
	cmds := []common.Command{
		{Name: "cd", Args: "PATH", Help: "go to a folder (relative to the selected one; tab completes)", Run: func(args string) tea.Cmd {
			if args == "" {
				return common.Problem(":cd needs a folder path, e.g. :cd /Data/Connections")
			}
			return common.Send(common.GotoPathMsg{Path: m.absolutePath(args)})
		}},
		{Name: "q", Help: "quit", Run: func(string) tea.Cmd { return common.Send(quitRequestMsg{}) }},
		{Name: "quit", Help: "quit", Run: func(string) tea.Cmd { return common.Send(quitRequestMsg{}) }},
		{Name: "help", Help: "list every key", Run: func(string) tea.Cmd { return common.Send(showHelpMsg{}) }},
		watchCommand(),
		{Name: "log", Help: "every message of the session, whole", Run: func(string) tea.Cmd { return common.Send(showLogMsg{}) }},
	}
	for i := range cmds {
		cmds[i] = cmds[i].WithOwner(-1)
	}
	return cmds
}

type quitRequestMsg struct{}

type showHelpMsg struct{}

type showLogMsg struct{}
