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
	gen      int
	inFlight bool
	req      int
}

// parseSequence reads `:seq` arguments: file ids or paths, and name=value
// workbook variables, in any order.
func parseSequence(args string) (sequenceRequest, error) {
	req := sequenceRequest{variables: map[string]string{}}
	for _, field := range strings.Fields(args) {
		if name, value, ok := strings.Cut(field, "="); ok && !strings.HasPrefix(field, "/") {
			if name == "" {
				return req, fmt.Errorf("variable %q has no name", field)
			}
			req.variables[name] = value
			continue
		}
		req.refs = append(req.refs, parseRef(field))
	}
	if len(req.refs) == 0 {
		return req, errors.New("name at least one job: a file id or a path")
	}
	return req, nil
}

// parseRef reads a file id, a UUID, or else a path.
func parseRef(s string) api.Ref {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return api.FileID(id)
	}
	if isUUID(s) {
		return api.UUID(s)
	}
	return api.Path(s)
}

// isUUID reports whether s is written as a UUID: 8-4-4-4-12 hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
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
	fields := []dialog.Field{
		{Name: "files", Label: "files (ids or paths)", Text: true, Value: strings.Join(files, " ")},
		{Name: "variables", Label: "variables (name=value)", Text: true},
	}
	note := "Triggers the files and everything downstream of them, in order."
	return common.OpenDialog(dialog.NewForm(p.ctx, "Sequential trigger", note, "trigger", fields,
		func(v dialog.Values) (tea.Msg, error) {
			return parseSequence(v.Text("files") + " " + v.Text("variables"))
		}))
}

// triggerSequence resolves paths and UUIDs to file ids (the endpoint takes
// ids only; a job's status names its file id once it has run) and triggers.
func (p *Pane) triggerSequence(req sequenceRequest) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask("sequential trigger", common.Quick, func(ctx context.Context) tea.Msg {
		ids := make([]int64, 0, len(req.refs))
		for _, ref := range req.refs {
			if id, err := strconv.ParseInt(ref.String(), 10, 64); err == nil && !ref.IsPath() {
				ids = append(ids, id) // a file id already
				continue
			}
			st, err := client.JobStatus(ctx, ref)
			if err != nil {
				return common.ReportExplained("sequential trigger: "+ref.String(), err)
			}
			if st.FileID == nil {
				return common.StatusMsg{Level: common.LevelError,
					Text: fmt.Sprintf("sequential trigger: %s has never run, so its file id is unknown here: give the id", ref)}
			}
			ids = append(ids, *st.FileID)
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
		return common.FailExplained("sequential trigger", msg.err)
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
	p.touchAll()
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
	pl.inFlight, pl.req = true, p.nextReq()
	req := pl.req
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
		return planStatusMsg{req: req, states: states}
	})
}

func (p *Pane) gotPlanStatus(msg planStatusMsg) tea.Cmd {
	pl := p.plan
	if pl == nil || msg.req != pl.req {
		return nil
	}
	pl.inFlight = false
	for id, s := range msg.states {
		pl.states[id] = s
	}
	for _, s := range pl.states {
		if !s.Final() {
			pl.gen++
			return p.after(planEvery, planTickMsg{gen: pl.gen})
		}
	}
	return nil
}

func (p *Pane) gotPlanTick(msg planTickMsg) tea.Cmd {
	if p.plan == nil || msg.gen != p.plan.gen {
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
	b.WriteString(st.Label.Render(fmt.Sprintf("  %-3s %s  %-7s %-8s %s", "#", padRight("job", nameWidth), "config", "exec", "state")))
	b.WriteByte('\n')
	for i, e := range pl.entries {
		exec, state := "—", st.DimRow.Render("not triggered")
		if e.Trigger && e.JobExecutionID > 0 {
			exec = "#" + strconv.FormatInt(e.JobExecutionID, 10)
			state = p.stateCell(pl.states[e.JobExecutionID], 30, false)
		}
		fmt.Fprintf(&b, "  %-3d %s  %-7d %-8s %s\n", i+1, padRight(common.Clean(e.JobConfigurationName), nameWidth),
			e.JobConfigurationID, exec, state)
	}
	return b.String()
}
