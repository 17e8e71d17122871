package ui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The header's health follows what the server did: answered (even with a
// refusal), refused the credentials, or did not answer at all.
func TestHealthObservesTheServer(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer slow.Close()
	gone := uitest.GoneURL()

	rootFolderErr := func(base string, timeout time.Duration) error {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		_, err := api.New(base, "admin", "admin").RootFolder(ctx)
		if err == nil {
			t.Fatalf("reading %s: no error", base)
		}
		return err
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, cancelledErr := api.New(slow.URL, "admin", "admin").RootFolder(cancelled)
	_, readOnlyErr := api.New(gone, "analyst", "analyst", api.WithReadOnly()).TriggerJob(context.Background(), api.Path("/Data/Orders.imp"))

	tests := []struct {
		name  string
		err   error
		start healthState
		want  healthState
	}{
		{"an answer", nil, healthDown, healthUp},
		{"a refusal is an answer", &api.Error{Op: "GET /x", Status: http.StatusForbidden}, healthDown, healthUp},
		{"a 401", &api.Error{Op: "GET /x", Status: http.StatusUnauthorized}, healthUp, healthUnauthorized},
		{"nothing listens", rootFolderErr(gone, 5*time.Second), healthUp, healthDown},
		{"no answer in time", rootFolderErr(slow.URL, 50*time.Millisecond), healthUp, healthDown},
		{"a cancelled call says nothing", cancelledErr, healthUp, healthUp},
		// It marked the server down, and the next poll's answer, finding it
		// back, cleared the refusal from the status line at once (seen as
		// a flaky TestSSHReadOnlyKeyCannotTrigger).
		{"a write a read-only session kept back says nothing", readOnlyErr, healthUp, healthUp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := health{state: tt.start}
			h.observe(healthMsg{err: tt.err})
			if h.state != tt.want {
				t.Errorf("after %v: state %d, want %d", tt.err, h.state, tt.want)
			}
		})
	}
}
