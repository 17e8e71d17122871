package connections

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
)

func TestErrorReason(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	_, unreachable := api.New(gone.URL, "admin", "admin").RootFolder(context.Background())

	tests := []struct {
		name, want string
		err        error
	}{
		{"status and reason", "404 Not Found, no such file", &api.Error{Op: "GET /x", Status: 404, Reason: "no such file"}},
		{"status alone", "403 Forbidden", &api.Error{Op: "GET /x", Status: 403}},
		{"server down", "server unreachable at " + gone.URL, unreachable},
		{"not from the client", "boom", errors.New("boom")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := errorReason(tt.err)
			if got != tt.want {
				t.Errorf("errorReason = %q, want %q", got, tt.want)
			}
			if strings.HasPrefix(got, "0 ") {
				t.Errorf("errorReason = %q names a status that never came", got)
			}
		})
	}
}
