package api_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// TestFailureAnswers checks that every failure the server can answer
// becomes an *api.Error with the status and reason, recognised by the
// helpers, and that nothing panics on answers that are not JSON.
func TestFailureAnswers(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "analyst", "analyst-pw")
	readFolder := func(ctx context.Context, c *api.Client) error { _, err := c.Folder(ctx, api.FileID(4)); return err }
	jobStatus := func(ctx context.Context, c *api.Client) error { _, err := c.JobStatus(ctx, api.FileID(48)); return err }

	tests := []struct {
		name       string
		call       func(context.Context, *api.Client) error
		answer     answer
		status     int
		reason     string // the Reason, or a part of it for non-JSON answers
		paths      []string
		is         func(error) bool
		notHelpers []func(error) bool
	}{
		{
			name:   "401 wrong password",
			call:   readFolder,
			answer: answer{status: 401, body: `{"status":"failure","reason":"wrong user name or password"}`},
			status: 401, reason: "wrong user name or password", is: api.IsUnauthorized,
			notHelpers: []func(error) bool{api.IsNotFound, api.IsForbidden, api.IsFailure, api.IsUnreachable},
		},
		{
			name: "403 not allowed",
			call: func(ctx context.Context, c *api.Client) error {
				_, err := c.ChangeOwner(ctx, api.FileID(4), "viewer")
				return err
			},
			answer: answer{status: 403, body: `{"status":"failure","reason":"only the owner or an administrator may change the owner"}`},
			status: 403, reason: "only the owner or an administrator may change the owner", is: api.IsForbidden,
			notHelpers: []func(error) bool{api.IsNotFound, api.IsUnauthorized},
		},
		{
			name:   "404 unknown folder",
			call:   readFolder,
			answer: answer{status: 404, body: `{"status":"failure","reason":"folder 4 not found"}`},
			status: 404, reason: "folder 4 not found", is: api.IsNotFound,
			notHelpers: []func(error) bool{api.IsForbidden, api.IsConflict, api.IsNotSent},
		},
		{
			name:   "409 with the paths it is about",
			call:   func(ctx context.Context, c *api.Client) error { return c.DeleteConnection(ctx, 8) },
			answer: answer{status: 409, body: `{"status":"failure","reason":"connection is in use","paths":["/Data/ImportJobs/Cities.imp","/Analytics/Report.wbk"]}`},
			status: 409, reason: "connection is in use", paths: []string{"/Data/ImportJobs/Cities.imp", "/Analytics/Report.wbk"}, is: api.IsConflict,
		},
		{
			name:   "400 bad input",
			call:   func(ctx context.Context, c *api.Client) error { _, err := c.Connection(ctx, 8); return err },
			answer: answer{status: 400, body: `{"status":"failure","reason":"configuration id must be a number"}`},
			status: 400, reason: "configuration id must be a number", is: api.IsBadRequest,
		},
		{
			name:   "job status failure with HTTP 200",
			call:   jobStatus,
			answer: answer{body: recordedStatusFailure},
			status: 200, reason: "File doesn't exist or isn't accessible with current permissions", is: api.IsFailure,
			notHelpers: []func(error) bool{api.IsNotFound},
		},
		{
			name: "trigger failure with HTTP 200",
			call: func(ctx context.Context, c *api.Client) error {
				_, err := c.TriggerJob(ctx, api.FileID(48))
				return err
			},
			answer: answer{body: recordedStatusFailure},
			status: 200, reason: "File doesn't exist or isn't accessible with current permissions", is: api.IsFailure,
		},
		{
			name:   "stop failure with HTTP 200",
			call:   func(ctx context.Context, c *api.Client) error { return c.StopJob(ctx, api.FileID(48)) },
			answer: answer{body: `{"status":"failure","reason":"job is not running"}`},
			status: 200, reason: "job is not running", is: api.IsFailure,
		},
		{
			name: "sequential trigger failure with HTTP 200",
			call: func(ctx context.Context, c *api.Client) error {
				_, err := c.TriggerSequence(ctx, []int64{48}, nil)
				return err
			},
			answer: answer{body: `{"status":"failure","reason":"workbook Report is not data-driven"}`},
			status: 200, reason: "workbook Report is not data-driven", is: api.IsFailure,
		},
		{
			name:   "connection update failure with HTTP 200",
			call:   func(ctx context.Context, c *api.Client) error { return c.UpdateConnection(ctx, 8, model.Connection{}) },
			answer: answer{body: `{"status":"failure","reason":"typeId missing"}`},
			status: 200, reason: "typeId missing", is: api.IsFailure,
		},
		{
			name:   "HTML from a proxy",
			call:   readFolder,
			answer: answer{status: 502, ctype: "text/html", body: "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>"},
			status: 502, reason: `answer is not JSON (text/html): "<html> <head><title>502 Bad Gateway</title>`,
		},
		{
			name:   "HTML with status 200 where JSON was expected",
			call:   readFolder,
			answer: answer{ctype: "text/html", body: "<!DOCTYPE html><p>Log in</p>"},
			status: 200, reason: `answer is not JSON (text/html): "<!DOCTYPE html><p>Log in</p>"`,
			notHelpers: []func(error) bool{api.IsFailure},
		},
		{
			name:   "empty answer where JSON was expected",
			call:   readFolder,
			answer: answer{},
			status: 200, reason: "empty answer where JSON was expected",
			notHelpers: []func(error) bool{api.IsFailure},
		},
		{
			name:   "JSON that is no failure body with 500",
			call:   readFolder,
			answer: answer{status: 500, body: `{"message":"internal"}`},
			status: 500, reason: `unexpected answer: "{\"message\":\"internal\"}"`,
		},
		{
			name:   "the older releases' failure body with 500",
			call:   readFolder,
			answer: answer{status: 500, body: `{"error":"internal"}`},
			status: 500, reason: "internal",
		},
		{
			name:   "the older releases' failure body with 200",
			call:   jobStatus,
			answer: answer{body: `{"error":"Could not find configuration with id 999"}`},
			status: 200, reason: "Could not find configuration with id 999", is: api.IsFailure,
		},
		{
			name:   "empty 404",
			call:   readFolder,
			answer: answer{status: 404},
			status: 404, reason: "", is: api.IsNotFound,
		},
		{
			name:   "JSON of the wrong shape",
			call:   readFolder,
			answer: answer{body: `{"name":42}`},
			status: 200, reason: "answer does not decode as *model.Folder",
		},
		{
			name:   "truncated JSON",
			call:   jobStatus,
			answer: answer{body: `{"status":"success","job-status":"RUN`},
			status: 200, reason: "answer does not decode as *model.JobStatus",
		},
		{
			name:   "unparseable date-time",
			call:   jobStatus,
			answer: answer{body: `{"status":"success","job-status":"RUNNING","start-time":"yesterday"}`},
			status: 200, reason: "answer does not decode as *model.JobStatus",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(tt.answer)
			err := tt.call(t.Context(), client)
			var e *api.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *api.Error", err, err)
			}
			if e.Status != tt.status {
				t.Errorf("Status = %d, want %d", e.Status, tt.status)
			}
			if tt.reason == "" && e.Reason != "" || !strings.HasPrefix(e.Reason, tt.reason) {
				t.Errorf("Reason = %q, want %q", e.Reason, tt.reason)
			}
			if !reflect.DeepEqual(e.Paths, tt.paths) {
				t.Errorf("Paths = %q, want %q", e.Paths, tt.paths)
			}
			if e.Op == "" || !strings.Contains(err.Error(), e.Op) || !strings.Contains(err.Error(), e.Reason) {
				t.Errorf("Error() = %q does not name the operation %q and the reason", err, e.Op)
			}
			if tt.is != nil && !tt.is(err) {
				t.Errorf("helper does not recognise %v", err)
			}
			for i, helper := range tt.notHelpers {
				if helper(err) {
					t.Errorf("helper %d wrongly recognises %v", i, err)
				}
			}
		})
	}
}

// TestDeleteJobDataUnknownID checks the third answer of delete job data: an
// error carrying the reason, and the DeletionFailed outcome with it.
func TestDeleteJobDataUnknownID(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "admin", "pw")
	for _, status := range []int{http.StatusOK, http.StatusNotFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			rec.answer(answer{status: status, body: specUnknownData})
			d, err := client.DeleteJobData(t.Context(), 99)
			var e *api.Error
			if !errors.As(err, &e) || e.Reason != "DataEntity with id 99 not found" || e.Status != status {
				t.Fatalf("error = %#v, want an *api.Error with status %d and the reason", err, status)
			}
			if d.Outcome != model.DeletionFailed || d.Reason != "DataEntity with id 99 not found" {
				t.Errorf("outcome = %+v, want DeletionFailed with the reason", d)
			}
		})
	}
}

// TestRequestsRefusedBeforeSending checks misuse that needs no server.
func TestRequestsRefusedBeforeSending(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "admin", "pw")
	tests := []struct {
		name string
		call func(context.Context) error
		want error
	}{
		{"zero ref", func(ctx context.Context) error { _, err := client.Folder(ctx, api.Ref{}); return err }, api.ErrEmptyRef},
		{"file id 0", func(ctx context.Context) error { _, err := client.JobStatus(ctx, api.FileID(0)); return err }, api.ErrEmptyRef},
		{"empty path", func(ctx context.Context) error { _, err := client.Backup(ctx, api.Path(""), 0, nil, nil); return err }, api.ErrEmptyRef},
		{"empty file in a selection", func(ctx context.Context) error {
			_, err := client.BackupFiles(ctx, api.FileID(4), []api.Ref{api.FileID(5), {}}, 0, nil, nil)
			return err
		}, api.ErrEmptyRef},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(answer{body: specSuccess})
			if err := tt.call(t.Context()); !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.got) != 0 {
				t.Errorf("a request was sent: %+v", rec.got)
			}
		})
	}
	t.Run("group permission with an empty group", func(t *testing.T) {
		if _, err := client.DeleteGroupPermission(t.Context(), api.FileID(4), ""); err == nil {
			t.Fatal("no error")
		}
	})
	t.Run("dependencies of a kind without an endpoint", func(t *testing.T) {
		if _, err := client.Dependencies(t.Context(), model.KindFolder, 3, api.DependencyQuery{}); err == nil {
			t.Fatal("no error")
		}
	})
}

func unusedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestServerUnreachable checks that a refused connection says so.
func TestServerUnreachable(t *testing.T) {
	base := "http://" + unusedAddress(t)
	client := api.New(base, "admin", "pw")
	_, err := client.RootFolder(t.Context())
	if !api.IsUnreachable(err) {
		t.Fatalf("IsUnreachable(%v) = false", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "server unreachable") || !strings.Contains(msg, base) {
		t.Errorf("error %q does not say the server at %s is unreachable", msg, base)
	}
	if api.IsNotFound(err) || api.IsUnauthorized(err) {
		t.Errorf("unreachable taken for an answer: %v", err)
	}
	if api.IsNotSent(err) {
		t.Errorf("a request no server answered taken for one never sent: %v", err)
	}
}

// TestContextEndsTheCall checks that cancellation and WithTimeout stop a
// call that hangs, and that the error says why.
func TestContextEndsTheCall(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer ts.Close()
	defer close(release)

	t.Run("WithTimeout", func(t *testing.T) {
		client := api.New(ts.URL, "admin", "pw", api.WithTimeout(50*time.Millisecond))
		_, err := client.RunningJobs(t.Context())
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error = %v, want a deadline exceeded", err)
		}
		if api.IsUnreachable(err) {
			t.Errorf("timeout taken for an unreachable server: %v", err)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		client := api.New(ts.URL, "admin", "pw")
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(20*time.Millisecond, cancel)
		_, err := client.RunningJobs(ctx)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error = %v, want context.Canceled", err)
		}
	})
}

// TestBadBaseURL checks that a malformed base URL fails every call with a
// clear reason and no request.
func TestBadBaseURL(t *testing.T) {
	for _, base := range []string{"", "127.0.0.1:8080", "ftp://host", "http://", "http://%zz"} {
		t.Run(fmt.Sprintf("%q", base), func(t *testing.T) {
			_, err := api.New(base, "admin", "pw").RootFolder(t.Context())
			var e *api.Error
			if !errors.As(err, &e) || !strings.Contains(e.Reason, "base URL") {
				t.Fatalf("error = %v, want one about the base URL", err)
			}
		})
	}
}

func TestBaseURLNormalized(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
		{" https://dap.example.com/platform// ", "https://dap.example.com/platform"},
		{"http://admin:hunter2@127.0.0.1:8080/?x=1#top", "http://127.0.0.1:8080"},
	}
	for _, tt := range tests {
		if got := api.New(tt.in, "admin", "pw").BaseURL(); got != tt.want {
			t.Errorf("BaseURL of %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestBasePathPrefix checks that a base URL with a path keeps it in front
// of every endpoint.
func TestBasePathPrefix(t *testing.T) {
	rec := newRecorder(t)
	rec.answer(answer{body: recordedRoot})
	if _, err := api.New(rec.URL+"/platform/", "admin", "pw").RootFolder(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := rec.last(t).uri; got != "/platform/api/filesystem/root-folder" {
		t.Errorf("path = %q, want the prefix kept", got)
	}
}

// TestErrorNamesEachPathOnce: a failure's paths follow its reason only
// where the reason does not name them already.
func TestErrorNamesEachPathOnce(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		paths  []string
		want   string
	}{
		{"named in the reason", "/C.dst is still used by 2 file(s): /A.imp, /B.imp", []string{"/A.imp", "/B.imp"},
			"DELETE /rest/connections/2: 409 Conflict: /C.dst is still used by 2 file(s): /A.imp, /B.imp"},
		{"some left out", "3 file(s) already exist: /A.imp, /B.imp and 1 more", []string{"/A.imp", "/B.imp", "/C.imp"},
			"DELETE /rest/connections/2: 409 Conflict: 3 file(s) already exist: /A.imp, /B.imp and 1 more (/C.imp)"},
		{"none named", "still in use", []string{"/A.imp"},
			"DELETE /rest/connections/2: 409 Conflict: still in use (/A.imp)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := &api.Error{Op: "DELETE /rest/connections/2", Status: http.StatusConflict, Reason: tt.reason, Paths: tt.paths}
			if got := err.Error(); got != tt.want {
				t.Errorf("Error() = %q\nwant %q", got, tt.want)
			}
		})
	}
}
