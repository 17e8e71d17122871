// Package ui is the console: a root Bubble Tea model that composes the pane
// models (folders, connections, jobs), the shared key map, help and dialogs.
//
// # Shape
//
// ui/common holds what every pane shares: the Pane interface, the Context
// (styles, the one KeyMap, the api client, who is logged in, read-only),
// the Binding a view declares each of its keys with,
// the messages panes send the root (StatusMsg, OpenDialogMsg, GotoPathMsg,
// FocusPaneMsg, UnauthorizedMsg) and StartTask for background work. ui/dialog
// holds the reusable dialogs (Confirm, Form). The root (this package) owns
// the header, the status line, the `:` command line, help and the dialog
// stack, and routes: the top dialog gets every key first; keys go to the
// active pane only; every other message goes to every pane and dialog.
//
// # Plugging a pane in
//
// A pane is a package under ui/ (ui/connections, ui/jobs) with a
// constructor taking the shared context:
//
//	func New(ctx *common.Context) *Pane   // *Pane implements common.Pane
//
// and its line in defaultPanes (panes.go), the pane list:
//
//	{Pane: jobs.New(ctx), ID: common.JobsPane, Help: "show the job dashboard"},
//
// Its place in the list gives it its tab and its key (1…9, named in help by
// its title); its ID (a common.PaneID) is the `:` command that shows it and
// the name other panes send the user to it by,
// common.FocusPaneMsg{Pane: common.JobsPane}, which the root looks up in the
// list: a pane goes anywhere in it and no jump moves. A pane that shows
// folder paths (common.PathResolver, the folders pane) is the one `:cd` and
// common.GotoPathMsg go to.
//
// Rules for a pane:
//   - never block in Update: network calls, and reads of the local disk,
//     go through common.StartTask, which runs them off the loop (the root
//     shows a spinner and the label) and delivers the task's own typed
//     message; a form whose submit needs the disk returns a dialog.Check;
//   - drop stale results one way: each kind of request (a list read, a
//     view's read, a timer) has a common.Requests; its Next ticket travels
//     in the request's message and the answer is used only while Current;
//     Reset on common.LoggedInMsg drops what was asked as the previous user;
//   - name the method that starts a read read… (readList, readHistory: it
//     returns the task) and the one that takes its answer got… (gotList);
//   - cache renderings keyed on what they show and on
//     ctx.Styles.Generation(): the root swaps the styles when the terminal
//     reports its background and tells no pane; draw only with the theme's
//     styles and symbols (job states, marks, text inputs: common.TextInput);
//   - report a failed action one way, common.Fail(action, err) (or, from
//     inside a task that has no result of its own yet, common.Failed): a
//     401 then reaches the login screen, anything else the status line in
//     plain words (common.Explain), and the header's health reads the error;
//     a result message that carries an error implements common.Failer, so
//     the health reads it even when the pane says nothing. Say what is
//     wrong with what the user asked, when no call failed, with
//     common.Problem, and successes with common.Notify;
//   - declare the keys of what the pane shows once, in Bindings (see
//     "Keys" below), and handle key presses through them; take each key
//     from ctx.Keys, adding a binding there, in ui/common/keys.go, when a
//     pane needs a new one;
//   - implement common.InputCapturer while a text field has the focus, so
//     that typing `q` or `1` is text, not quit or a pane switch;
//   - open confirmations and forms with common.OpenDialog(dialog.NewConfirm(...))
//     or dialog.NewForm; what they decide comes back as the pane's own message.
//
// # Keys
//
// Each view declares its keys once, as lazygit's controllers and k9s's
// KeyActions do: Pane.Bindings returns a common.Binding per key of what
// the pane shows now (its list, a history opened from it, a panel over
// it), and everything about keys comes from that list. What a binding says:
//   - Handle runs the first matching binding that works; a key whose
//     binding is disabled runs nothing and the status line says why
//     ("delete: read-only session");
//   - Write marks a key that changes the server: a read-only session
//     disables it (Binding.Why), nothing else needs saying;
//   - Disabled is why a key does nothing here and now ("" when it works):
//     e over SSH, trigger on a connection. A disabled key leaves the hint
//     bar; `?` lists it apart, marked ✗, and its title gives the reasons;
//   - Hint is the key's place in the hint bar (0: not there), Short its
//     words there; Column is its column in `?` (common.NoHelp: not there);
//     a binding without Run is shown only (↑↓ "move", whose keys Up and
//     Down handle);
//   - the root adds its own keys (1…9, tab, :, L, ?, q; esc dismisses an
//     error) before the pane's, except where the pane takes a key itself.
//
// A pane's keys, for example:
//
//	func (p *Pane) Bindings() common.Bindings {
//		k := p.ctx.Keys
//		bs := common.ListBindings(k, p.listHeight(), len(p.rows), 1, 0, p.moveCursor)
//		return append(bs,
//			common.Binding{Key: k.Open, Help: "details", Run: p.openSelected, Hint: 2},
//			common.Binding{Key: k.Delete, Help: "delete the person (asks first)", Short: "delete",
//				Run: p.askDelete, Write: true, Disabled: p.whyNoDelete(), Hint: 3, Column: 1},
//		)
//	}
//
// and in Update:
//
//	case tea.KeyPressMsg:
//		cmd, _ := p.Bindings().Handle(p.ctx, msg)
//		return p, cmd
//
// While a text field has the focus (common.InputCapturer) the pane gets
// every key and its Bindings should say what enter and esc do there.
//
// # Registering `:` commands
//
// A pane that implements common.Commander lists its commands:
//
//	func (p *Pane) Commands() []common.Command {
//		return []common.Command{{Name: "trigger", Args: "PATH|ID", Help: "trigger a job",
//			Run: func(args string) tea.Cmd { return common.Send(triggerRequest{ref: args}) }}}
//	}
//
// Run only parses; it returns a command delivering the pane's own message (or
// common.Problem saying what is wrong with the arguments), or a task when the
// work needs files or the network. The root focuses the pane and runs it.
// The root's own commands are :cd PATH, :q, :help, :watch and :log, besides
// the pane list's (:folders, :conn, :jobs).
//
// # Login on 401
//
// Options.Login builds the login screen (a common.Dialog). The root opens it
// when any result reports a 401 (common.UnauthorizedMsg) or when it starts
// without a client; the login screen sends common.LoggedInMsg with the new
// client, which the root installs in the shared context.
package ui
