package jobs

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestSequentialTriggerTakesEveryKindOfReference: :seq names files by id,
// UUID or path; the endpoint takes ids only, so a UUID is resolved like a
// path rather than sent as an id it is not.
func TestSequentialTriggerTakesEveryKindOfReference(t *testing.T) {
	pl := startPlatform(t, nil)
	events := api.Path("/Data/ImportJobs/Events.imp")
	trig, err := pl.client.TriggerJob(t.Context(), events) // so that path and UUID resolve to a file id
	if err != nil {
		t.Fatal(err)
	}
	d, err := pl.client.JobDetails(t.Context(), trig.JobExecutionID)
	if err != nil {
		t.Fatal(err)
	}
	if err := pl.client.StopJob(t.Context(), events); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, args string }{
		{"file id", strconv.FormatInt(d.File.ID, 10)},
		{"UUID", d.File.UUID},
		{"path", events.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newTestPane(pl.client, 100, 12, time.Now)
			u := askPlan(t, p, tc.args)
			if p.plan == nil {
				t.Fatalf("no plan: %v", uitest.All[common.StatusMsg](u.other))
			}
			if len(p.plan.entries) == 0 || p.plan.entries[0].JobConfigurationID != d.JobConfigurationID {
				t.Errorf("plan %+v, want it to start with configuration %d", p.plan.entries, d.JobConfigurationID)
			}
			if err := pl.client.StopJob(t.Context(), events); err != nil && !api.IsFailure(err) {
				t.Error(err)
			}
		})
	}
}

func TestParseSequencePathsWithSpaces(t *testing.T) {
	cases := []struct {
		args string
		refs []string
		vars map[string]string
	}{
		{"/Analytics/Sales by Region.wbk", []string{"/Analytics/Sales by Region.wbk"}, nil},
		{"/Analytics/Sales by Region.wbk minAmount=5", []string{"/Analytics/Sales by Region.wbk"}, map[string]string{"minAmount": "5"}},
		{"/Data/ImportJobs/Orders.imp, /Analytics/Sales by Region.wbk", []string{"/Data/ImportJobs/Orders.imp", "/Analytics/Sales by Region.wbk"}, nil},
		{"/Data/ImportJobs/Orders.imp\n/Analytics/Sales by Region.wbk", []string{"/Data/ImportJobs/Orders.imp", "/Analytics/Sales by Region.wbk"}, nil},
		{"21 22, /Exports/Sales by Region.exp", []string{"21", "22", "/Exports/Sales by Region.exp"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.args, func(t *testing.T) {
			req, err := parseSequence(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, r := range req.refs {
				refs = append(refs, r.String())
			}
			if strings.Join(refs, "|") != strings.Join(tc.refs, "|") {
				t.Fatalf("refs %q, want %q", refs, tc.refs)
			}
			for k, v := range tc.vars {
				if req.variables[k] != v {
					t.Fatalf("variables %v, want %v", req.variables, tc.vars)
				}
			}
		})
	}
}

// TestSequentialTriggerOfANeverRunPath: a path with spaces of a job that
// never ran resolves to its file id through its file entry; a path the
// file lists do not hold, or that is no job, is refused before any request.
func TestSequentialTriggerOfANeverRunPath(t *testing.T) {
	t.Run("on the embedded platform", func(t *testing.T) { sequenceOfANeverRunPath(t, nil) })
	// whose file entries take no path: the UUID of the file lists is sent
	t.Run("on the real platform", func(t *testing.T) { sequenceOfANeverRunPath(t, servertest.TakingNoPaths) })
}

func sequenceOfANeverRunPath(t *testing.T, wrap func(http.Handler) http.Handler) {
	pl := startPlatform(t, wrap)
	index, err := common.ReadFileIndex(t.Context(), pl.client)
	if err != nil {
		t.Fatal(err)
	}
	workbook, ok := index.ByPath("/Analytics/Sales by Region.wbk")
	if !ok {
		t.Fatal("the index lacks the workbook")
	}
	for _, tc := range []struct{ args, refusal string }{
		{"/Analytics/Nope.wbk", "no job at /Analytics/Nope.wbk"},
		{"/Data/Connections/Warehouse.dst", "is a connection, not a job"},
	} {
		p := newTestPane(pl.client, 100, 12, time.Now)
		p.ctx.FileIndex = index
		req, err := parseSequence(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		_, cmd := p.Update(req)
		said := uitest.All[common.StatusMsg](uitest.Messages(cmd))
		if len(said) != 1 || !strings.Contains(said[0].Text, tc.refusal) {
			t.Fatalf("%s: %#v, want %q", tc.args, said, tc.refusal)
		}
	}
	// Before the pane has the file lists, the task finds the path in them.
	p := newTestPane(pl.client, 100, 12, time.Now)
	u := askPlan(t, p, "/Analytics/Sales by Region.wbk minAmount=0")
	if p.plan == nil || len(p.plan.entries) == 0 || p.plan.entries[0].JobConfigurationID != workbook.ID {
		t.Fatalf("without the lists: plan %+v (statuses %v), want it to start with configuration %d", p.plan, uitest.All[common.StatusMsg](u.other), workbook.ID)
	}
	p = newTestPane(pl.client, 100, 12, time.Now)
	p.ctx.FileIndex = index
	u = askPlan(t, p, "/Analytics/Sales by Region.wbk minAmount=0")
	if p.plan == nil || len(p.plan.entries) == 0 || p.plan.entries[0].JobConfigurationID != workbook.ID {
		t.Fatalf("plan %+v (statuses %v), want it to start with configuration %d", p.plan, uitest.All[common.StatusMsg](u.other), workbook.ID)
	}
}

// askPlan asks p, polling off, for the sequential plan of args and waits
// for the plan or a status line refusing it; the pump is drained when the
// test ends.
func askPlan(t *testing.T, p *Pane, args string) *pump {
	t.Helper()
	p.polling.every = 0
	u := newPump(t, p)
	t.Cleanup(u.drain)
	req, err := parseSequence(args)
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := p.Update(req)
	u.run(cmd)
	u.until("the plan", 10*time.Second, func() bool {
		u.mu.Lock()
		defer u.mu.Unlock()
		return p.plan != nil || len(uitest.All[common.StatusMsg](u.other)) > 0
	})
	return u
}
