package folders

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
	"github.com/dapconsole/dapconsole/ui/common"
)

// planRestoreMsg is what the restore form decided: the pane plans it
// before anything is sent.
type planRestoreMsg struct{ req restoreRequest }

// restorePlanned answers a plan: what the restore would do, and the
// target's reads, kept to plan again (send only what changed, on or off)
// and to diff without reading the platform twice.
type restorePlanned struct {
	req    restoreRequest
	target *restoreplan.Target
	plan   restoreplan.Plan
	err    error
}

func (m restorePlanned) Failure() error { return m.err }

// planRestore reads the target and plans the restore off the loop, through
// a client that refuses every write: planning changes nothing.
func (p *Pane) planRestore(req restoreRequest) tea.Cmd {
	client, files := p.ctx.Client, p.ctx.Files
	return common.StartTask("planning the restore into "+req.path, common.Quick, func(ctx context.Context) tea.Msg {
		out := restorePlanned{req: req}
		out.target, out.err = restoreplan.ReadTarget(ctx, client.AsReadOnly(), api.Path(req.path))
		if out.err != nil {
			out.err = fmt.Errorf("plan of the restore into %s: %w", req.path, out.err)
			return out
		}
		out.plan, out.err = computePlan(files, req, out.target)
		return out
	})
}

// computePlan plans req from its ZIP file and the target read before.
func computePlan(files common.Files, req restoreRequest, target *restoreplan.Target) (restoreplan.Plan, error) {
	var plan restoreplan.Plan
	err := withArchive(files, req.file, func(zr *zip.Reader) error {
		var err error
		plan, err = restoreplan.Compute(zr, target, req.options())
		return err
	})
	return plan, err
}

// withArchive opens a local ZIP file for fn.
func withArchive(files common.Files, name string, fn func(*zip.Reader) error) error {
	f, err := files.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: not a ZIP archive: %w", name, err)
	}
	return fn(zr)
}

func (r restoreRequest) options() restoreplan.Options {
	return restoreplan.Options{Flags: r.flags, SkipUnchanged: r.skipUnchanged}
}

// gotPlan shows a plan in its dialog; a failed plan sends nothing and says
// why in the status line.
func (p *Pane) gotPlan(msg restorePlanned) tea.Cmd {
	if msg.err != nil {
		return common.Fail("plan of the restore", msg.err)
	}
	return common.OpenDialog(newPlanDialog(p.ctx, msg))
}

// trimmedArchive is the body of a restore that sends only what changed:
// the archive without the files the plan found unchanged, written into a
// pipe as the upload reads it, so no copy is kept.
func trimmedArchive(files common.Files, req restoreRequest) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(withArchive(files, req.file, func(zr *zip.Reader) error {
			return restoreplan.Trimmed(pw, zr, *req.plan, req.target, req.options())
		}))
	}()
	return pr
}

// planDialog shows what a restore would do before anything is sent:
// counts per action, the files with refusals first, and whether the
// platform would refuse the restore as a whole; y sends it (not when it
// would be refused), n or esc cancels and nothing is written.
type planDialog struct {
	report
	req       restoreRequest
	target    *restoreplan.Target
	plan      restoreplan.Plan
	replan    common.Requests // plans made again after a toggle
	replaning bool
}

// replanned answers a plan made again with other options.
type replanned struct {
	ticket common.Ticket
	req    restoreRequest
	plan   restoreplan.Plan
	err    error
}

func (m replanned) Failure() error { return m.err }

func newPlanDialog(ctx *common.Context, msg restorePlanned) *planDialog {
	d := &planDialog{report: newReport(ctx), req: msg.req, target: msg.target}
	d.keys = d.bindings
	d.empty = "the archive holds no file"
	d.show(msg.plan)
	return d
}

// show takes a plan: its summary and its list.
func (d *planDialog) show(plan restoreplan.Plan) {
	d.plan = plan
	d.danger = d.req.flags.Has(api.RestoreOverwrite)
	d.title = "Plan of the restore"
	if d.danger {
		d.title = "Restore with overwrite?"
	}
	d.sub = d.req.file + " → " + d.req.path
	done := ""
	if d.nothingToSend() {
		done = "nothing to send: every file is unchanged"
	}
	d.showPlan(plan, "the platform would take this restore", "the platform would refuse this restore: nothing is sent", done, d.optionsLine())
}

// showPlan puts a plan in a report: whether it would be taken (taken,
// refused, or done when set: nothing to send), the count of each action,
// options, and the files, refusals first, each with its reason.
func (r *report) showPlan(plan restoreplan.Plan, taken, refused, done, options string) {
	st := r.ctx.Styles
	outcome := reportLine{text: st.Symbols.Notice + " " + taken, style: st.StatusNotice}
	switch {
	case plan.Outcome == restoreplan.OutcomeRefused:
		outcome = reportLine{text: st.Symbols.Error + " " + refused, style: st.StatusError}
	case done != "":
		outcome = reportLine{text: st.Symbols.Notice + " " + done, style: st.StatusNotice}
	}
	r.head = []reportLine{outcome, {text: planCounts(plan), style: st.Value}, {text: options, style: st.Label}}
	items := make([]reportLine, 0, len(plan.Files))
	for _, f := range plan.Files {
		style := st.Row
		switch f.Action {
		case restoreplan.Refuse, restoreplan.NeedsSecret:
			style = st.StatusError
		case restoreplan.Unchanged, restoreplan.Skip:
			style = st.DimRow
		}
		text := f.Path
		if f.Reason != "" {
			text += ": " + f.Reason
		}
		items = append(items, reportLine{text: text, style: style, lead: fmt.Sprintf("%-13s", f.Action)})
	}
	r.setItems(items)
}

// restoreFlagsText names a restore's flags, "none" for none.
func restoreFlagsText(flags api.RestoreFlags) string {
	if names := flags.Names(); len(names) > 0 {
		return strings.Join(names, ", ")
	}
	return "none"
}

// optionsLine says the restore's flags and whether only what changed goes.
func (d *planDialog) optionsLine() string {
	flags := restoreFlagsText(d.req.flags)
	send := "everything in the archive"
	if d.req.skipUnchanged {
		send = "only what changed"
	}
	return "flags: " + flags + "; sends " + send
}

// planCounts is "2 refuse, 3 create, 1 unchanged", in the order a reader
// looks for them.
func planCounts(plan restoreplan.Plan) string {
	var counts []string
	for _, a := range []restoreplan.Action{restoreplan.Refuse, restoreplan.NeedsSecret, restoreplan.Create,
		restoreplan.Replace, restoreplan.Unchanged, restoreplan.Skip} {
		if n := plan.Count(a); n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(counts) == 0 {
		return "no file"
	}
	return strings.Join(counts, ", ")
}

// nothingToSend: every file is left out as unchanged.
func (d *planDialog) nothingToSend() bool {
	return d.req.skipUnchanged && len(d.plan.Files) > 0 && d.plan.Count(restoreplan.Unchanged)+d.plan.Count(restoreplan.Skip) == len(d.plan.Files)
}

// whyNotSend is why y does nothing: "" when the restore may go.
func (d *planDialog) whyNotSend() string {
	switch {
	case d.replaning:
		return "the plan is being made again"
	case d.plan.Outcome == restoreplan.OutcomeRefused:
		return "the platform would refuse this restore (see the plan's refusals)"
	case d.nothingToSend():
		return "nothing to send: every file is unchanged"
	}
	return ""
}

func (d *planDialog) bindings() common.Bindings {
	k := d.ctx.Keys
	return append(common.Bindings{
		{Key: k.Yes, Help: "restore as planned", Short: "restore", Run: d.send, Write: true, Disabled: d.whyNotSend(), Hint: 1},
		{Key: k.No, Help: "cancel: nothing is sent", Short: "cancel", Run: d.close, Hint: 2},
		{Key: k.Back, Help: "cancel: nothing is sent", Run: d.close},
		{Key: k.Toggle, Help: "send only what changed, or everything", Short: "only changed", Run: d.toggleSkip, Hint: 3},
		{Key: k.Diff, Help: "diff the backup with the folder", Short: "diff", Run: d.diff, Hint: 4},
		{Key: k.Move, Hint: 5, Column: common.NoHelp},
	}, d.scrollBindings()...)
}

func (d *planDialog) send() tea.Cmd {
	d.closed = true
	req := d.req
	req.plan, req.target = &d.plan, d.target
	return common.Send(req)
}

func (d *planDialog) close() tea.Cmd {
	d.closed = true
	return common.Info("restore cancelled: nothing was sent")
}

// diff compares the archive with the folder the plan read.
func (d *planDialog) diff() tea.Cmd {
	return diff(d.ctx, diffRequest{file: d.req.file, path: d.req.path, target: d.target})
}

// toggleSkip plans again with "send only what changed" switched, off the
// loop: a plan of 10,000 files takes a moment.
func (d *planDialog) toggleSkip() tea.Cmd {
	d.req.skipUnchanged = !d.req.skipUnchanged
	d.replaning = true
	ticket, req, target, files := d.replan.Next(), d.req, d.target, d.ctx.Files
	return common.StartTask("planning the restore again", common.Quick, func(context.Context) tea.Msg {
		plan, err := computePlan(files, req, target)
		return replanned{ticket: ticket, req: req, plan: plan, err: err}
	})
}

// Update implements common.Dialog.
func (d *planDialog) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	if m, ok := msg.(replanned); ok {
		if !d.replan.Current(m.ticket) {
			return d, nil
		}
		d.replaning = false
		if m.err != nil {
			return d, common.Fail("plan of the restore", m.err)
		}
		d.req = m.req
		d.show(m.plan)
		return d, nil
	}
	return d.update(d, msg)
}

// View implements common.Dialog.
func (d *planDialog) View() string {
	st := d.ctx.Styles
	k := d.ctx.Keys
	yes := button(st.Button, k.Yes, "restore")
	if d.whyNotSend() != "" || d.ctx.ReadOnly {
		yes = ""
	} else if d.danger {
		yes = button(st.ButtonDanger, k.Yes, "restore")
	}
	return d.view(buttons(yes, button(st.ButtonFocused, k.No, "cancel")))
}
