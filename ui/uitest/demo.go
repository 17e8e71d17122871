package uitest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// DemoServer starts the embedded platform with the demo data, in a data
// directory of the test's own, with wrap (when not nil) in front of it.
func DemoServer(t testing.TB, wrap func(http.Handler) http.Handler) *servertest.Platform {
	t.Helper()
	return servertest.Start(t, server.Config{DemoData: true}, wrap)
}

// DemoClient starts the demo platform and returns a client of it, as admin.
func DemoClient(t testing.TB) *api.Client {
	t.Helper()
	return api.New(DemoServer(t, nil).URL, "admin", "admin")
}

// GoneURL is the address of a server that has stopped: a request to it
// fails as one to a server that is down does.
func GoneURL() string {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	return gone.URL
}
