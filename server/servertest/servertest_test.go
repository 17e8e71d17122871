package servertest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestTakingNoPaths: the wrap answers 404 where the real platform takes a
// file id or a UUID only (a path with or without its leading %2F, a file
// under the folders' permission addresses) and passes what it takes.
func TestTakingNoPaths(t *testing.T) {
	p := servertest.Start(t, server.Config{DemoData: true}, servertest.TakingNoPaths)
	get := func(t *testing.T, method, path string) int {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, p.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth("admin", "admin")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	fileID := func(path string) string {
		f, err := p.Server.Store().FileByPath(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(f.ID)
	}
	data, orders := fileID("/Data"), fileID("/Data/ImportJobs/Orders.imp")
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/api/filesystem/folders/%2FData", http.StatusNotFound},
		{"GET", "/api/filesystem/folders/Data", http.StatusNotFound},
		{"GET", "/api/filesystem/folders/%2FData/permission/groups", http.StatusNotFound},
		{"POST", "/api/filesystem/folders/Data", http.StatusNotFound},
		{"GET", "/api/filesystem/files/Data%2FImportJobs%2FOrders.imp", http.StatusNotFound},
		{"PUT", "/api/filesystem/files/%2FData%2FImportJobs%2FOrders.imp/command", http.StatusNotFound},
		{"GET", "/api/filesystem/files/%2FData%2FImportJobs%2FOrders.imp/permission", http.StatusNotFound},
		{"GET", "/api/workbooks/%2FAnalytics%2FSales%20by%20Region.wbk", http.StatusNotFound},
		{"GET", "/api/filesystem/folders/" + orders + "/permission", http.StatusNotFound},
		{"GET", "/api/filesystem/folders/" + data, http.StatusOK},
		{"GET", "/api/filesystem/folders/" + data + "/permission", http.StatusOK},
		{"GET", "/api/filesystem/files/" + orders + "/permission", http.StatusOK},
		{"GET", "/api/filesystem/folders/%2FData/backup", http.StatusOK},
		{"GET", "/api/job-execution/%2FData%2FImportJobs%2FOrders.imp/status", http.StatusOK},
	} {
		if got := get(t, tc.method, tc.path); got != tc.want {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, got, tc.want)
		}
	}
}
