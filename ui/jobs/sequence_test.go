package jobs

import (
	"strconv"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
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
			p.polling.every = 0
			u := newPump(t, p)
			defer u.drain()
			req, err := parseSequence(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			_, cmd := p.Update(req)
			u.run(cmd)
			u.until("the plan", 10*time.Second, func() bool {
				u.mu.Lock()
				defer u.mu.Unlock()
				return p.plan != nil || len(statusesOf(u.other)) > 0
			})
			if p.plan == nil {
				t.Fatalf("no plan: %v", statusesOf(u.other))
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
