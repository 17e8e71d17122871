package api

import (
	"net/http"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// FuzzDecode feeds arbitrary answers to the decoder for every answer type:
// it may fail, never panic, and a failure is always an *Error.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		``, ` `, `{}`, `[]`, `null`, `<html>`, `{"status":"failure"}`, `{"status":true}`, `{"status":"success","job-status":"RUNNING","start-time":null,"job-progress":"5","estimate-time":"3s"}`,
		`{"startTime":"2012-07-06 18:19:09.0","counters":{"X":1}}`, `{"_embedded":{"folders":[{"name":"a","_links":{"self":{"href":"/x/1"}}}]}}`, "\xff\xfe",
	} {
		f.Add([]byte(seed), "application/json")
	}
	c := New("http://127.0.0.1:1", "admin", "pw")
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		resp.Header.Set("Content-Type", contentType)
		for _, out := range []any{
			new(model.Folder), new(model.Permission), new(model.GroupPermissions), new(model.JobStatus), new(model.JobDetails),
			new([]model.RunningJob), new(model.DataDeletion), new(model.Connection), new(model.RestoreResult),
		} {
			_, err := c.decode("GET /fuzz", resp, body, out, true)
			if _, ok := err.(*Error); err != nil && !ok {
				t.Fatalf("error %v is a %T, not an *Error", err, err)
			}
		}
	})
}
