package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
)

// TestJobsOnAnOlderPlatform runs the job calls against the embedded
// platform with its /api/job-execution/ endpoints answering 404, as a
// release before 7.2.5 (or one without the REST-v2 plug-in) does: the
// client falls back to the older forms, which the embedded platform serves
// too, and says which generation it talks to.
func TestJobsOnAnOlderPlatform(t *testing.T) {
	platform := servertest.Start(t, server.Config{DemoData: true}, servertest.Lacking("/api/job-execution/"))
	ctx := context.Background()
	analyst := api.New(platform.URL, "analyst", "analyst")
	viewer := api.New(platform.URL, "viewer", "viewer")
	owner, err := platform.Server.Store().UserByName(ctx, "analyst")
	if err != nil {
		t.Fatal(err)
	}
	slow := &model.Configuration{Version: "1", DataStore: &model.SourceRef{Path: localFiles},
		Properties: map[string][]string{"path": {"events.csv"}, "pace.rowsPerSecond": {"50"}}}
	const path = "/Data/ImportJobs/Slow.imp"
	if _, err := platform.Server.Store().CreateFile(ctx, store.NewFile{Path: path, OwnerID: owner.ID, Config: slow}); err != nil {
		t.Fatal(err)
	}
	job := api.Path(path)

	if g := analyst.JobAPI(); g != api.JobAPIUnknown {
		t.Fatalf("generation %v before any call", g)
	}
	st, err := analyst.JobStatus(ctx, job)
	if err != nil || st.JobStatus != model.StateNone || analyst.JobAPI() != api.JobAPILegacy {
		t.Fatalf("status of a job never run: %+v, %v (generation %v)", st, err, analyst.JobAPI())
	}
	triggered, err := analyst.TriggerJob(ctx, job)
	if err != nil || triggered.JobExecutionID == 0 {
		t.Fatalf("trigger: %+v, %v", triggered, err)
	}
	running, err := analyst.RunningJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var listed *model.RunningJob
	for i := range running {
		if running[i].JobExecutionID == triggered.JobExecutionID {
			listed = &running[i]
		}
	}
	if listed == nil {
		t.Fatalf("execution %d not in list-running %+v", triggered.JobExecutionID, running)
	}
	// Addressed by file id, as the console's rows do: list-running told its configuration id.
	st, err = analyst.JobStatus(ctx, api.FileID(listed.FileID))
	if err != nil || st.JobExecutionID == nil || *st.JobExecutionID != triggered.JobExecutionID || !st.JobStatus.Active() {
		t.Fatalf("status while it runs: %+v, %v", st, err)
	}
	if err := viewer.StopJob(ctx, job); !api.IsFailure(err) || !strings.Contains(err.Error(), "isn't accessible with current permissions") {
		t.Fatalf("viewer's stop: %v", err)
	}
	if err := analyst.StopJob(ctx, job); err != nil {
		t.Fatalf("stop: %v", err)
	}
	st, err = analyst.JobStatus(ctx, job)
	if err != nil || st.JobStatus != model.StateCanceled {
		t.Fatalf("status after the stop: %+v, %v", st, err)
	}
	if err := analyst.StopJob(ctx, job); !api.IsFailure(err) {
		t.Fatalf("a second stop: %v, want a failure", err)
	}
	if _, err := viewer.TriggerJob(ctx, job); !api.IsFailure(err) || !strings.Contains(err.Error(), "isn't accessible with current permissions") {
		t.Fatalf("viewer's trigger: %v", err)
	}
	if _, err := analyst.JobStatus(ctx, api.Path("/Data/ImportJobs/Nothing.imp")); !api.IsFailure(err) {
		t.Fatalf("status of a missing job: %v", err)
	}
}

// TestJobAPIGenerationOfANewerPlatform: a server with the REST-v2 job
// endpoints is talked to with them, and the client says so.
func TestJobAPIGenerationOfANewerPlatform(t *testing.T) {
	platform := servertest.Start(t, server.Config{DemoData: true}, nil)
	client := api.New(platform.URL, "viewer", "viewer")
	if _, err := client.JobStatus(context.Background(), api.Path("/Exports/Sales by Region.exp")); !api.IsFailure(err) {
		t.Fatalf("status of a hidden job: %v", err)
	}
	if g := client.JobAPI(); g != api.JobAPIV2 {
		t.Fatalf("generation %v after a REST-v2 answer", g)
	}
}
