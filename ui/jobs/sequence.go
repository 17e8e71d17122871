package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// planEvery is how often a running plan's executions are read.
const planEvery = time.Second

// planView watches a sequential trigger's execution plan as it runs.
type planView struct {
	entries  []model.PlanEntry
	states   map[int64]model.JobState
	ticks    common.Requests // the schedule a re-read tick must belong to
	inFlight bool
	reads    common.Requests
}

// parseSequence reads `:seq` arguments: jobs (file ids, UUIDs or paths)
// and name=value workbook variables. Jobs are separated by commas or new
// lines, so a path may hold spaces ("/Analytics/Sales by Region.wbk");
// ids, UUIDs and variables may also be separated by spaces, and variables
// may end an item that is a path.
func parseSequence(args string) (sequenceRequest, error) {
	req := sequenceRequest{variables: map[string]string{}}
	for _, item := range strings.FieldsFunc(args, func(r rune) bool { return r == ',' || r == '\n' }) {
		words := strings.Fields(item)
		// Variables come last in an item: name=value, not a path.
		for len(words) > 0 {
			last := words[len(words)-1]
			name, value, ok := strings.Cut(last, "=")
			if !ok || strings.HasPrefix(last, "/") {
				break
			}
			if name == "" {
				return req, fmt.Errorf("variable %q has no name", last)
			}
			req.variables[name] = value
			words = words[:len(words)-1]
		}
		switch {
		case len(words) == 0:
		case strings.HasPrefix(words[0], "/"):
			req.refs = append(req.refs, api.Path(strings.Join(words, " ")))
		default:
			for _, w := range words {
				name, value, ok := strings.Cut(w, "=")
				switch {
				case ok && name == "":
					return req, fmt.Errorf("variable %q has no name", w)
				case ok:
					req.variables[name] = value
				default:
					req.refs = append(req.refs, api.ParseRef(w))
				}
			}
		}
	}
	if len(req.refs) == 0 {
		return req, errors.New("name at least one job: a file id or a path")
	}
	return req, nil
}

// sequenceForm asks for the files (the marked ones filled in) and variables.
func (p *Pane) sequenceForm() tea.Cmd {
	ids := make([]int64, 0, len(p.marked))
	for id := range p.marked {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	files := make([]string, len(ids))
	for i, id := range ids {
		files[i] = strconv.FormatInt(id, 10)
	}
	if len(files) == 0 {
		if r := p.selected(); r != nil {
			files = append(files, strconv.FormatInt(r.job.FileID, 10))
		}
	}
	return p.sequenceFormOf(files)
}

// sequenceFormOf is the sequential trigger's form with files filled in.
func (p *Pane) sequenceFormOf(files []string) tea.Cmd {
	fields := []dialog.Field{
		{Name: "files", Label: "jobs (ids or paths, comma-separated)", Text: true, Value: strings.Join(files, ", ")},
		{Name: "variables", Label: "variables (name=value …)", Text: true},
	}
	note := "Triggers the jobs and everything downstream of them, in order. Paths may hold spaces: separate jobs with commas."
	return common.OpenDialog(dialog.NewForm(p.ctx, "Sequential trigger", note, "trigger", fields,
		func(v dialog.Values) (tea.Msg, error) {
			vars := strings.Fields(v.Text("variables"))
			for _, w := range vars {
				if !strings.Contains(w, "=") {
					return nil, fmt.Errorf("variable %q: write name=value", w)
				}
			}
			return parseSequence(v.Text("files") + " " + strings.Join(vars, " "))
		}))
}

// triggerSequence resolves paths and UUIDs to file ids (the endpoint takes
// ids only) and triggers. A path is checked against the file lists when
// they are read (a file that is not a job is refused before any request);
// its file id comes from the file's entry, run or not, or, on a server
// without that endpoint, from the job's status once it has run.
func (p *Pane) triggerSequence(req sequenceRequest) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	index := p.ctx.FileIndex
	refs := slices.Clone(req.refs)
	for i, ref := range refs {
		if !ref.IsPath() || index.Len() == 0 {
			continue
		}
		e, ok := index.ByPath(ref.String())
		switch {
		case !ok:
			return common.Problem(fmt.Sprintf("sequential trigger: no job at %s (or you may not see it)", common.Clean(ref.String())))
		case !e.Kind.Runnable():
			return common.Problem(fmt.Sprintf("sequential trigger: %s is a %s, not a job", common.Clean(ref.String()), e.Kind))
		case e.UUID != "":
			// By UUID: the real platform's file entry takes no path.
			refs[i] = api.UUID(e.UUID)
		}
	}
	return common.StartTask("sequential trigger", common.Quick, func(ctx context.Context) tea.Msg {
		ids := make([]int64, 0, len(refs))
		for i, ref := range refs {
			if id, err := strconv.ParseInt(ref.String(), 10, 64); err == nil && !ref.IsPath() {
				ids = append(ids, id) // a file id already
				continue
			}
			id, err := fileIDOf(ctx, client, ref)
			if err != nil {
				return common.Failed("sequential trigger: "+req.refs[i].String(), err)
			}
			ids = append(ids, id)
		}
		plan, err := client.TriggerSequence(ctx, ids, req.variables)
		if err == nil && plan.Status == model.StatusFailure {
			err = errors.New(plan.Reason)
		}
		return sequenceMsg{plan: plan, err: err}
	})
}

func (p *Pane) gotSequence(msg sequenceMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("sequential trigger", msg.err)
	}
	p.plan = &planView{entries: msg.plan.ExecutionPlan, states: map[int64]model.JobState{}}
	p.mode = modePlan
	triggered := 0
	for _, e := range msg.plan.ExecutionPlan {
		if e.Trigger && e.JobExecutionID > 0 {
			triggered++
			p.plan.states[e.JobExecutionID] = model.StateQueued
			p.watched[e.JobExecutionID] = fmt.Sprintf("%s #%d", e.JobConfigurationName, e.JobExecutionID)
			p.table.noteStarter(e.JobExecutionID, p.ctx.User)
		}
	}
	clear(p.marked)
	note := fmt.Sprintf("sequential trigger: %d of %d triggered", triggered, len(msg.plan.ExecutionPlan))
	if msg.plan.Notice != "" {
		note += "; " + msg.plan.Notice
	}
	return tea.Batch(common.Notify(note),
		p.readPlan())
}

// readPlan reads the state of each triggered execution of the plan by its
// details (the plan names executions, not files); one round at a time.
func (p *Pane) readPlan() tea.Cmd {
	pl, client := p.plan, p.ctx.Client
	if pl == nil || pl.inFlight || client == nil {
		return nil
	}
	var ids []int64
	for _, e := range pl.entries {
		if e.Trigger && e.JobExecutionID > 0 && !pl.states[e.JobExecutionID].Final() {
			ids = append(ids, e.JobExecutionID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	pl.inFlight = true
	ticket := pl.reads.Next()
	return common.StartTask("reading the plan's executions", common.Quiet, func(ctx context.Context) tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, pollTimeout)
		defer cancel()
		states := make(map[int64]model.JobState, len(ids))
		var mu sync.Mutex
		fanOut(len(ids), func(i int) {
			if d, err := client.JobDetails(ctx, ids[i]); err == nil {
				mu.Lock()
				states[ids[i]] = d.JobStatus
				mu.Unlock()
			}
		})
		return planStatusMsg{ticket: ticket, states: states}
	})
}

func (p *Pane) gotPlanStatus(msg planStatusMsg) tea.Cmd {
	pl := p.plan
	if pl == nil || !pl.reads.Current(msg.ticket) {
		return nil
	}
	pl.inFlight = false
	for id, s := range msg.states {
		pl.states[id] = s
	}
	for _, s := range pl.states {
		if !s.Final() {
			return p.after(planEvery, planTickMsg{ticket: pl.ticks.Next()})
		}
	}
	return nil
}

func (p *Pane) gotPlanTick(msg planTickMsg) tea.Cmd {
	if p.plan == nil || !p.plan.ticks.Current(msg.ticket) {
		return nil
	}
	return p.readPlan()
}

func (p *Pane) planView() string {
	pl, st := p.plan, p.ctx.Styles
	var b strings.Builder
	done := 0
	for _, s := range pl.states {
		if s.Final() {
			done++
		}
	}
	b.WriteString(st.PaneTitle.Render("Sequential plan"))
	b.WriteString(st.Label.Render(fmt.Sprintf("   %d of %d triggered executions ended", done, len(pl.states))))
	b.WriteString("\n\n")
	nameWidth := 12
	for _, e := range pl.entries {
		nameWidth = max(nameWidth, min(40, len(common.Clean(e.JobConfigurationName))))
	}
	b.WriteString(st.Label.Render(fmt.Sprintf("  %-3s %s  %-7s %-8s %s", "#", common.AlignLeft("job", nameWidth), "config", "exec", "state")))
	b.WriteByte('\n')
	for i, e := range pl.entries {
		exec, state := "—", st.DimRow.Render("not triggered")
		if e.Trigger && e.JobExecutionID > 0 {
			exec = "#" + strconv.FormatInt(e.JobExecutionID, 10)
			state = p.stateCell(pl.states[e.JobExecutionID], 30, false)
		}
		fmt.Fprintf(&b, "  %-3d %s  %-7d %-8s %s\n", i+1, common.AlignLeft(common.Clean(e.JobConfigurationName), nameWidth),
			e.JobConfigurationID, exec, state)
	}
	return b.String()
}

// fileIDOf finds the file id of a job named by path or UUID: from its file
// entry, or, where the server has none (an older release), from its status,
// which names it once the job has run. A path is first found in the file
// lists (api.Client.Addressed): the real platform's file entry takes none.
func fileIDOf(ctx context.Context, client *api.Client, ref api.Ref) (int64, error) {
	entry := ref
	if ref.IsPath() {
		var err error
		if entry, err = client.Addressed(ctx, ref); err != nil && !api.IsNotFound(err) {
			return 0, err
		}
	}
	if !entry.IsPath() {
		f, err := client.File(ctx, entry)
		if err == nil && f.ID() > 0 {
			return f.ID(), nil
		}
		if err != nil && !api.IsNotFound(err) {
			return 0, err
		}
	}
	st, err := client.JobStatus(ctx, ref)
	if err != nil {
		return 0, err
	}
	if st.FileID == nil {
		return 0, fmt.Errorf("%s has never run and this server names no file id otherwise: give the id", ref)
	}
	return *st.FileID, nil
}
