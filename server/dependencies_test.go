package server_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
)

// configID returns the configuration id of the file at path.
func configID(t testing.TB, srv *server.Server, path string) int64 {
	t.Helper()
	f, err := srv.Store().FileByPath(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return f.ConfigID
}

func TestDependencies(t *testing.T) {
	srv, p := demo(t)
	id := func(path string) int64 { return configID(t, srv, path) }
	const (
		local     = "/Data/Connections/Local Files.dst"
		orders    = "/Data/ImportJobs/Orders.imp"
		customers = "/Data/ImportJobs/Customers.imp"
		events    = "/Data/ImportJobs/Events.imp"
		link      = "/Data/DataLinks/Orders With Errors.lnk"
		sales     = "/Analytics/Sales.wbk"
		byRegion  = "/Analytics/Sales by Region.wbk"
		revenue   = "/Analytics/Finance/Revenue by Product.wbk"
		export    = "/Exports/Sales by Region.exp"
		dashboard = "/Visualization/Sales Dashboard.gra"
		list      = "/Data/ImportJobs/Customer List.imp"
		perRegion = "/Analytics/Customers per Region.wbk"
		listOut   = "/Exports/Customers per Region.exp"
	)
	cases := []struct {
		name, user, path string
		want             []string
	}{
		{"connection, downstream, direct", "admin", fmt.Sprintf("/api/connections/%d/dependencies?direction=downstream&level=1", id(local)),
			[]string{orders, customers, events, link, export, list, listOut}},
		{"connection, upstream", "admin", fmt.Sprintf("/api/connections/%d/dependencies?direction=upstream", id(local)), nil},
		{"connection, all levels", "admin", fmt.Sprintf("/api/connections/%d/dependencies", id(local)),
			[]string{orders, customers, events, link, export, sales, byRegion, revenue, dashboard, list, perRegion, listOut}},
		{"connection, all levels, viewer", "viewer", fmt.Sprintf("/api/connections/%d/dependencies", id(local)),
			[]string{orders, customers, events, link, sales, byRegion, dashboard, list, perRegion}},
		{"import job, both, direct", "admin", fmt.Sprintf("/api/import-job/%d/dependencies?level=1", id(orders)),
			[]string{local, sales}},
		{"data link on the import-job endpoint", "admin", fmt.Sprintf("/api/import-job/%d/dependencies?direction=upstream", id(link)),
			[]string{local}},
		{"file upload on the import-job endpoint", "admin", fmt.Sprintf("/api/import-job/%d/dependencies?direction=upstream", id("/Users/analyst/Regions.upl")),
			[]string{"/.system/FileUploadDataStore.dst"}},
		{"workbook, upstream, all levels", "admin", fmt.Sprintf("/api/workbook/%d/dependencies?direction=upstream", id(byRegion)),
			[]string{sales, orders, customers, local}},
		{"workbook, upstream, two levels", "admin", fmt.Sprintf("/api/workbook/%d/dependencies?direction=upstream&level=2", id(byRegion)),
			[]string{sales, orders, customers}},
		{"workbook, both spelled out", "admin", fmt.Sprintf("/api/workbook/%d/dependencies?direction=both&level=1", id(sales)),
			[]string{orders, customers, byRegion, revenue}},
		{"export job", "admin", fmt.Sprintf("/api/export-job/%d/dependencies?direction=upstream&level=1", id(export)),
			[]string{byRegion, local}},
		{"infographic", "admin", fmt.Sprintf("/api/infographics/%d/dependencies?direction=upstream&level=3", id(dashboard)),
			[]string{byRegion, sales, orders, customers}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var deps model.Dependencies
			a := p.call(tc.user, http.MethodGet, tc.path, nil)
			p.want(a, 200, &deps)
			if deps.Dependencies == nil {
				t.Fatalf("dependencies is not an array: %s", a.body)
			}
			var got []string
			for _, d := range deps.Dependencies {
				got = append(got, d.File.Path)
				kind, _ := model.KindOfPath(d.File.Path)
				if d.ID != id(d.File.Path) || d.File.Type != string(kind) || d.File.UUID == "" || d.File.Name == "" {
					t.Errorf("entry %+v", d)
				}
			}
			sort.Strings(got)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("got %v\nwant %v", got, want)
			}
		})
	}

	failures := []struct {
		name, user, path string
		code             int
	}{
		{"non-numeric id", "admin", "/api/connections/Local/dependencies", 400},
		{"unknown id", "admin", "/api/connections/9999/dependencies", 404},
		{"wrong kind for the endpoint", "admin", fmt.Sprintf("/api/workbook/%d/dependencies", id(local)), 404},
		{"invisible", "viewer", fmt.Sprintf("/api/workbook/%d/dependencies", id(revenue)), 404},
		{"bad direction", "admin", fmt.Sprintf("/api/connections/%d/dependencies?direction=sideways", id(local)), 400},
		{"level zero", "admin", fmt.Sprintf("/api/connections/%d/dependencies?level=0", id(local)), 400},
		{"level not a number", "admin", fmt.Sprintf("/api/connections/%d/dependencies?level=all", id(local)), 400},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			p.wantFailure(p.call(tc.user, http.MethodGet, tc.path, nil), tc.code, "")
		})
	}
}

func TestDependencyCycle(t *testing.T) {
	srv, p := demo(t)
	ctx := context.Background()
	// Sales reads Sales by Region, which reads Sales: a cycle an update can make.
	sales, _ := srv.Store().FileByPath(ctx, "/Analytics/Sales.wbk")
	cfg, err := srv.Store().Configuration(ctx, sales)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Sources = append(cfg.Sources, model.SourceRef{Path: "/Analytics/Sales by Region.wbk"})
	if err := srv.Store().UpdateConfiguration(ctx, sales, cfg); err != nil {
		t.Fatal(err)
	}
	var deps model.Dependencies
	p.get("admin", fmt.Sprintf("/api/workbook/%d/dependencies", sales.ConfigID), &deps)
	seen := map[string]bool{}
	for _, d := range deps.Dependencies {
		if seen[d.File.Path] || d.File.Path == sales.Path {
			t.Fatalf("%s listed twice or the file itself listed: %+v", d.File.Path, deps)
		}
		seen[d.File.Path] = true
	}
	if !seen["/Analytics/Sales by Region.wbk"] || !seen["/Data/Connections/Local Files.dst"] || !seen["/Visualization/Sales Dashboard.gra"] {
		t.Fatalf("cycle walk missed files: %v", seen)
	}
}
