package server_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// jobsKillHelperEnv names the data directory the helper process serves.
const jobsKillHelperEnv = "DAP_JOBS_KILL_HELPER_DIR"

// TestJobsKillHelper is the server process TestJobsSurviveSIGKILL kills; it
// does nothing in a normal run. One job runs at a time, so a second trigger
// waits in the queue.
func TestJobsKillHelper(t *testing.T) {
	dir := os.Getenv(jobsKillHelperEnv)
	if dir == "" {
		t.Skip("runs only as the helper process of TestJobsSurviveSIGKILL")
	}
	running, err := server.Start(servertest.TestConfig(server.Config{DataDir: dir, MaxConcurrentJobs: 1}), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("listening on " + running.URL)
	time.Sleep(10 * time.Minute) // killed long before
}

// TestJobsSurviveSIGKILL kills the server with SIGKILL while one import runs
// and another waits behind it: the next start settles both, the running one
// ERROR (its work was cut off) with its start-time, the queued one CANCELED
// with a null start-time, and no partial data survives.
func TestJobsSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	dir := t.TempDir()
	// Seed the demo once, then serve without it, so no schedule triggers anything.
	seeded, err := server.New(servertest.TestConfig(server.Config{DataDir: dir, DemoData: true}))
	if err != nil {
		t.Fatal(err)
	}
	if err := seeded.Close(); err != nil {
		t.Fatal(err)
	}

	cmd, lines := server.StartHelperProcess(t, "TestJobsKillHelper", jobsKillHelperEnv, dir)
	base := ""
	for base == "" && lines.Scan() {
		base, _ = strings.CutPrefix(lines.Text(), "listening on ")
	}
	if base == "" {
		t.Fatal("the helper ended before it listened")
	}

	p := &platform{t: t, base: base}
	events := "/api/job-execution/" + refOf("/Data/ImportJobs/Events.imp")
	var first, second model.Triggered
	p.want(p.call("analyst", http.MethodPost, events+"/trigger", nil), http.StatusOK, &first)
	// Progress shows that rows are read, so its staging table holds data when it dies.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var st model.JobStatus
		p.get("analyst", events+"/status", &st)
		if st.JobStatus == model.StateRunning && st.JobProgress != nil && *st.JobProgress > 0 {
			break
		}
		if st.JobStatus.Final() || time.Now().After(deadline) {
			t.Fatalf("the import is not making progress: %+v", st)
		}
	}
	p.want(p.call("analyst", http.MethodPost, events+"/trigger", nil), http.StatusOK, &second)
	var queued model.JobStatus
	p.get("analyst", events+"/status", &queued)
	if queued.JobStatus != model.StateQueued || *queued.JobExecutionID != second.JobExecutionID {
		t.Fatalf("second trigger %+v, want QUEUED behind the running import", queued)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	srv, p := start(t, server.Config{DataDir: dir})
	var ran model.JobDetails
	p.get("analyst", fmt.Sprintf("/rest/job-execution/job-details/%d", first.JobExecutionID), &ran)
	if ran.JobStatus != model.StateError || !ran.StartTime.Valid() || !ran.StopTime.Valid() {
		t.Errorf("the import that ran when the server died: %+v, want ERROR with start and stop times", ran)
	}
	var st model.JobStatus
	p.get("analyst", events+"/status", &st)
	if st.JobStatus != model.StateCanceled || *st.JobExecutionID != second.JobExecutionID || st.StartTime.Valid() || !st.StopTime.Valid() {
		t.Errorf("the import that waited when the server died: %+v, want CANCELED with a null start-time", st)
	}
	var running []model.RunningJob
	p.get("admin", "/api/job-execution/list-running", &running)
	if len(running) != 0 {
		t.Errorf("list-running after the restart: %+v", running)
	}
	var active, staged int
	db := srv.Store().DB()
	if err := db.QueryRow(`SELECT count(*) FROM job_executions WHERE state IN ('QUEUED', 'RUNNING')`).Scan(&active); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name LIKE 'jobstage%' OR name = ?`,
		fmt.Sprintf("jobdata_%d", first.JobExecutionID)).Scan(&staged); err != nil {
		t.Fatal(err)
	}
	if active != 0 || staged != 0 {
		t.Errorf("after the restart %d executions active and %d tables of the killed run's data", active, staged)
	}
}
