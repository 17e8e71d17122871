package connections

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

func TestErrorReason(t *testing.T) {
	gone := uitest.GoneURL()
	_, unreachable := api.New(gone, "admin", "admin").RootFolder(context.Background())

	tests := []struct {
		name, want string
		err        error
	}{
		{"status and reason", "404 Not Found, no such file", &api.Error{Op: "GET /x", Status: 404, Reason: "no such file"}},
		{"status alone", "403 Forbidden", &api.Error{Op: "GET /x", Status: 403}},
		{"server down", "server unreachable at " + gone, unreachable},
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

// TestGraphOfAGoneConnection: the dependency endpoint answers 404 for a
// connection deleted since the list was read; the graph says so, and does
// not take the 404 for a platform without its governance plug-in.
func TestGraphOfAGoneConnection(t *testing.T) {
	client := uitest.DemoClient(t)
	ctx := context.Background()
	list, err := client.Connections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Path == "/Data/Connections/MYSQL_QA1.dst" {
			if err := client.DeleteConnection(ctx, e.ID); err != nil {
				t.Fatal(err)
			}
			p := withList(newTestPane(client, 100, 20, false), []model.ConnectionEntry{e})
			other := uitest.Run(p, uitest.Press(p, "enter"), foreign)
			if p.graph == nil || p.graph.unsupported != nil || strings.Contains(uitest.Screen(p.View()), "plug-in") {
				t.Fatalf("the graph of a deleted connection blames a missing plug-in:\n%s", uitest.Screen(p.View()))
			}
			if len(other) == 0 || !strings.Contains(strings.ToLower(fmt.Sprint(other)), "not found") {
				t.Fatalf("messages %v, want one saying not found", other)
			}
			return
		}
	}
	t.Fatal("no MYSQL_QA1 in the demo")
}

// TestGraphWithoutThePlugin: a platform without the governance plug-in
// answers 404 on every dependency address; the graph explains that.
func TestGraphWithoutThePlugin(t *testing.T) {
	client := api.New(servertest.Start(t, server.Config{DemoData: true}, servertest.Lacking("/api/connections/")).URL, "admin", "admin")
	list, err := client.Connections(context.Background())
	if err != nil || len(list) == 0 {
		t.Fatalf("list %v, %v", list, err)
	}
	p := withList(newTestPane(client, 100, 20, false), list[:1])
	uitest.Run(p, uitest.Press(p, "enter"), foreign)
	if p.graph == nil || p.graph.unsupported == nil || !strings.Contains(uitest.Screen(p.View()), "plug-in") {
		t.Fatalf("a platform without the plug-in is not explained:\n%s", uitest.Screen(p.View()))
	}
}
