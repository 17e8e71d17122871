package jobs

import (
	"context"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

// TestStopThatLosesTheLockStillEndsTheExecution stops a run while another
// connection holds the write lock for many times the engine's busy timeout,
// as a large restore did: the stop's write fails at first and is tried again
// once the lock is free, so the execution ends CANCELED instead of staying
// RUNNING in its history until the server restarts.
func TestStopThatLosesTheLockStillEndsTheExecution(t *testing.T) {
	fx := newFixtureWaiting(t, 1, 20*time.Millisecond)
	paced := fx.paced("/Data/ImportJobs/running.imp", 2000)
	id := fx.trigger(paced)
	fx.waitFor("the import running", func() bool {
		st, err := fx.engine.Status(context.Background(), paced.ID)
		return err == nil && st.JobStatus == model.StateRunning
	})
	holder := openTestDB(t, fx.dir)
	lock, err := holder.Begin() // _txlock=immediate: BEGIN takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error)
	go func() { stopped <- fx.engine.Stop(context.Background(), paced.ID) }()
	time.Sleep(15 * 20 * time.Millisecond) // the stop's write gives up several times meanwhile
	if err := lock.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if d := fx.details(id); d.JobStatus != model.StateCanceled {
		t.Fatalf("execution %d is %s after its stop, want CANCELED", id, d.JobStatus)
	}
}
