package folders

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// copyRequest is a copy the form decided, and after a plan the secrets
// given since; backup, once read, is kept, so giving secrets plans again
// without reading the source twice.
type copyRequest struct {
	source  restoreplan.Source
	label   string // what is copied, for titles
	profile string
	into    string
	flags   api.RestoreFlags
	secrets restoreplan.Secrets
	backup  []byte
}

// profilesMsg lists the saved profiles, for the copy form opened on node.
type profilesMsg struct {
	names []string
	node  *node
	err   error
}

func (m profilesMsg) Failure() error { return m.err }

// copyPlanned answers a copy's plan: the target's client, the copy planned
// and the seal of the target's key (nil when the console has none).
type copyPlanned struct {
	req    copyRequest
	target *api.Client
	seal   func(string) string
	copy   *restoreplan.Copy
	err    error
}

func (m copyPlanned) Failure() error { return m.err }

// copySendMsg sends a planned copy; copyDone says how it ended.
type copySendMsg struct{ planned copyPlanned }

type copyDone struct {
	req      copyRequest
	restored int
	err      error
}

func (m copyDone) Failure() error { return m.err }

// whyNoCopy is why C does nothing in this console: "" when it works.
func (p *Pane) whyNoCopy() string {
	if p.ctx.Profiles == nil {
		return "no saved profiles here (none over SSH)"
	}
	return ""
}

// listProfiles reads the saved profiles off the loop, then opens the copy
// form on n.
func (p *Pane) listProfiles(n *node) tea.Cmd {
	profiles := p.ctx.Profiles
	return common.StartTask("reading the saved profiles", common.Quick, func(context.Context) tea.Msg {
		names, err := profiles.Names()
		return profilesMsg{names: names, node: n, err: err}
	})
}

// openCopy asks where to copy the selected folder or the marked files: a
// saved profile other than this session's, a folder there, the restore's
// flags.
func (p *Pane) openCopy(msg profilesMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("reading the saved profiles", msg.err)
	}
	names := slices.DeleteFunc(slices.Clone(msg.names), func(n string) bool { return n == p.ctx.Profile })
	if len(names) == 0 {
		return common.Problem("copy: no other saved profile (dapconsole login --profile NAME saves one)")
	}
	folder, files, label := p.selection(msg.node)
	source := restoreplan.Source{Folder: api.FileID(folder.id), Files: files}
	fields := []dialog.Field{{Name: "profile", Label: "to profile", Text: true, Value: names[0], Choices: names},
		{Name: "into", Label: "into folder", Text: true, Value: folder.path()}}
	for _, f := range api.AllRestoreFlags() {
		fields = append(fields, dialog.Field{Name: f.String(), Label: f.String(), On: p.restoreFlags&f != 0})
	}
	return common.OpenDialog(dialog.NewForm(p.ctx, "Copy "+label+" to another platform", "streamed, no local file; the plan of the other side shows before anything is sent", "plan the copy", fields,
		func(v dialog.Values) (tea.Msg, error) {
			into := strings.TrimRight(strings.TrimSpace(v.Text("into")), "/")
			if !strings.HasPrefix(into, "/") {
				return nil, fmt.Errorf("into folder %q: give an absolute folder path, e.g. /Copies/Data", into)
			}
			var flags api.RestoreFlags
			for _, f := range api.AllRestoreFlags() {
				if v.Bool(f.String()) {
					flags |= f
				}
			}
			return copyRequest{source: source, label: label, profile: v.Text("profile"), into: into, flags: flags}, nil
		}))
}

// planCopy connects to the target, backs the source up into memory (once)
// and plans the copy there, off the loop; nothing is written anywhere.
func (p *Pane) planCopy(req copyRequest) tea.Cmd {
	client, profiles := p.ctx.Client, p.ctx.Profiles
	return common.StartTask("planning the copy to "+req.profile+":"+req.into, common.Quick, func(ctx context.Context) tea.Msg {
		out := copyPlanned{req: req}
		out.target, out.seal, out.err = profiles.Connect(req.profile)
		if out.err != nil {
			out.err = fmt.Errorf("profile %s: %w", req.profile, out.err)
			return out
		}
		if out.req.backup == nil {
			if out.req.backup, out.err = restoreplan.ReadSource(ctx, client, req.source, req.flags, nil); out.err != nil {
				return out
			}
		}
		out.copy, out.err = restoreplan.PlanCopy(ctx, out.req.backup, out.target, api.Path(req.into),
			out.target.BaseURL() != client.BaseURL(), req.secrets, out.seal, restoreplan.Options{Flags: req.flags})
		if out.err != nil {
			out.err = fmt.Errorf("plan on %s: %w", req.profile, out.err)
		}
		return out
	})
}

// sendCopy restores the planned copy on the target.
func sendCopy(planned copyPlanned) tea.Cmd {
	req := planned.req
	return common.StartTask("copy to "+req.profile+":"+req.into, common.Transfer, func(ctx context.Context) tea.Msg {
		res, err := planned.copy.Send(ctx, planned.target, api.Path(req.into), restoreplan.Options{Flags: req.flags}, nil)
		if err != nil {
			err = fmt.Errorf("copy to %s:%s: %w", req.profile, req.into, err)
		}
		return copyDone{req: req, restored: len(res.Restored), err: err}
	})
}

// updateCopy takes the copy's messages.
func (p *Pane) updateCopy(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case profilesMsg:
		return p.openCopy(msg), true
	case copyRequest:
		p.restoreFlags = msg.flags
		return p.planCopy(msg), true
	case copyPlanned:
		if msg.err != nil {
			return common.Fail("plan of the copy", msg.err), true
		}
		return common.OpenDialog(newCopyDialog(p.ctx, msg)), true
	case copySendMsg:
		return sendCopy(msg.planned), true
	case copyDone:
		if msg.err != nil {
			return common.Fail("copy", msg.err), true
		}
		return common.Notify(fmt.Sprintf("copied %s to %s:%s", msg.req.label, msg.req.profile, msg.req.into)), true
	}
	return nil, false
}

// copyDialog shows the plan of a copy on the target: y sends it, or, while
// secrets the target cannot open lack a value, asks for them (masked); n
// or esc send nothing.
type copyDialog struct {
	report
	planned copyPlanned
}

func newCopyDialog(ctx *common.Context, planned copyPlanned) *copyDialog {
	d := &copyDialog{report: newReport(ctx), planned: planned}
	d.keys = d.bindings
	req := planned.req
	d.title = "Copy to " + req.profile + ":" + req.into
	d.sub = "from " + req.label + " (this platform)"
	d.empty = "nothing to copy"
	plan := planned.copy.Plan
	refused := "the target platform would refuse this copy: nothing is sent"
	if d.onlySecretsLack() {
		refused = "secrets the target cannot open lack a value: y asks for them"
	}
	d.showPlan(plan, "the target platform would take this copy", refused, "", "flags: "+restoreFlagsText(req.flags))
	return d
}

// onlySecretsLack: the plan is refused for secrets alone, which y asks for.
func (d *copyDialog) onlySecretsLack() bool {
	plan := d.planned.copy.Plan
	return plan.Count(restoreplan.NeedsSecret) > 0 && plan.Count(restoreplan.Refuse) == 0
}

func (d *copyDialog) whyNotSend() string {
	if d.planned.copy.Plan.Outcome == restoreplan.OutcomeRefused && !d.onlySecretsLack() {
		return "the target platform would refuse this copy (see the plan's refusals)"
	}
	return ""
}

func (d *copyDialog) bindings() common.Bindings {
	k := d.ctx.Keys
	yes := common.Binding{Key: k.Yes, Help: "copy as planned", Short: "copy", Run: d.send, Disabled: d.whyNotSend(), Hint: 1}
	if d.onlySecretsLack() {
		yes.Help, yes.Short, yes.Run = "give the secrets the target cannot open", "give secrets", d.askSecrets
	}
	return append(common.Bindings{yes,
		{Key: k.No, Help: "cancel: nothing is sent", Short: "cancel", Run: d.close, Hint: 2},
		{Key: k.Back, Help: "cancel: nothing is sent", Run: d.close},
		{Key: k.Move, Hint: 3, Column: common.NoHelp},
	}, d.scrollBindings()...)
}

func (d *copyDialog) send() tea.Cmd {
	d.closed = true
	return common.Send(copySendMsg{planned: d.planned})
}

func (d *copyDialog) close() tea.Cmd {
	d.closed = true
	return common.Info("copy cancelled: nothing was sent")
}

// askSecrets opens a form of masked fields, one per secret the target
// cannot open; its values, with those given before, plan the copy again.
func (d *copyDialog) askSecrets() tea.Cmd {
	d.closed = true
	req, needed := d.planned.req, d.planned.copy.Needed
	var fields []dialog.Field
	for _, p := range slices.Sorted(maps.Keys(needed)) {
		for _, prop := range needed[p] {
			fields = append(fields, dialog.Field{Name: p + "\x00" + prop, Label: p + " " + prop, Text: true, Secret: true})
		}
	}
	note := "The target's key seals each value here; it leaves sealed."
	if d.planned.seal == nil {
		note = "This console has no key of the target's: a value goes inside the archive, over the connection to " +
			req.profile + ", and the target seals it; type a SECURE:<n>:<s> value (encrypt.sh on the target) to send none in plain text."
	}
	return common.OpenDialog(dialog.NewForm(d.ctx, "Secrets for "+req.profile, note, "plan again", fields,
		func(v dialog.Values) (tea.Msg, error) {
			next := req
			next.secrets = restoreplan.Secrets{}
			for p, props := range req.secrets {
				next.secrets[p] = maps.Clone(props)
			}
			for _, f := range fields {
				value := v.Text(f.Name)
				if value == "" {
					return nil, errors.New(f.Label + ": give its value")
				}
				p, prop, _ := strings.Cut(f.Name, "\x00")
				if next.secrets[p] == nil {
					next.secrets[p] = map[string]string{}
				}
				next.secrets[p][prop] = value
			}
			return next, nil
		}))
}

// Update implements common.Dialog.
func (d *copyDialog) Update(msg tea.Msg) (common.Dialog, tea.Cmd) { return d.update(d, msg) }

// View implements common.Dialog.
func (d *copyDialog) View() string {
	st, k := d.ctx.Styles, d.ctx.Keys
	yes := ""
	switch {
	case d.onlySecretsLack():
		yes = button(st.Button, k.Yes, "give the secrets")
	case d.whyNotSend() == "":
		yes = button(st.Button, k.Yes, "copy")
	}
	return d.view(buttons(yes, button(st.ButtonFocused, k.No, "cancel")))
}
