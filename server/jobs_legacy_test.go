package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestLegacyJobEndpoints: the older job forms answer as the platform's
// older releases do, with the newer ones' rules for bad input and for a
// job the caller may not use.
func TestLegacyJobEndpoints(t *testing.T) {
	srv, p := demo(t)
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	connection := storeFile(t, srv, "/Data/Connections/Warehouse.dst")
	hidden := storeFile(t, srv, "/Exports/Sales by Region.exp")
	solo := storeFile(t, srv, "/Analytics/Finance/Revenue by Product.wbk") // never run: not in the demo's schedule
	tests := []struct {
		name, user, method, path string
		code                     int
		body                     string // a fragment of the answer
	}{
		{"status of a job never run", "admin", "GET", fmt.Sprintf("/rest/job-configuration/job-status/%d", solo.ConfigID), 200, "{}"},
		{"status of a hidden job", "viewer", "GET", fmt.Sprintf("/rest/job-configuration/job-status/%d", hidden.ConfigID), 200, "isn't accessible"},
		{"status of an unknown configuration", "admin", "GET", "/rest/job-configuration/job-status/999999", 200, "isn't accessible"},
		{"status of a bad id", "admin", "GET", "/rest/job-configuration/job-status/x", 400, "not a positive"},
		{"trigger without a configuration", "admin", "POST", "/rest/job-execution", 400, "not a positive"},
		{"trigger by a viewer", "viewer", "POST", fmt.Sprintf("/rest/job-execution?configuration=%d", orders.ConfigID), 200, "isn't accessible"},
		{"trigger a connection", "admin", "POST", fmt.Sprintf("/rest/job-execution?configuration=%d", connection.ConfigID), 200, "not a job"},
		{"kill an unknown execution", "admin", "POST", "/rest/job-execution/job-kill/999999", 200, "doesn't exist"},
		{"list running", "viewer", "GET", "/rest/jobs/list-running", 200, "["},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := p.call(tt.user, tt.method, tt.path, nil)
			if a.code != tt.code || !strings.Contains(string(a.body), tt.body) {
				t.Fatalf("%d %s, want %d with %q", a.code, a.body, tt.code, tt.body)
			}
		})
	}

	a := p.call("admin", http.MethodPost, fmt.Sprintf("/rest/job-execution?configuration=%d", solo.ConfigID), nil)
	if a.code != 200 || !strings.Contains(string(a.body), `"job-execution-id"`) {
		t.Fatalf("trigger: %d %s", a.code, a.body)
	}
	a = p.call("admin", http.MethodGet, fmt.Sprintf("/rest/job-configuration/job-status/%d", solo.ConfigID), nil)
	if a.code != 200 || !strings.Contains(string(a.body), `"jobStatus"`) || !strings.Contains(string(a.body), `"id"`) {
		t.Fatalf("status after a trigger: %d %s", a.code, a.body)
	}
}
