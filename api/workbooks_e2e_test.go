package api_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// The v2 workbook read asks /api/workbooks/<id> first and, on a server
// without it (releases before 7), /api/filesystem/workbooks/<id>; the
// workbook read either way names its data sources as links.
func TestE2EWorkbookV2(t *testing.T) {
	tests := []struct {
		name    string
		lacking []string
		asked   []string // the v2 paths asked, in order, for one read
	}{
		{"release 7 on", nil, []string{"/api/workbooks/"}},
		{"before 7", []string{"/api/workbooks"}, []string{"/api/workbooks/", "/api/filesystem/workbooks/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var asked []string
			url := servertest.Start(t, server.Config{DemoData: true}, func(h http.Handler) http.Handler {
				lacking := servertest.Lacking(tt.lacking...)(h)
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.Contains(r.URL.Path, "workbooks/") {
						mu.Lock()
						asked = append(asked, r.URL.Path[:strings.LastIndexByte(r.URL.Path, '/')+1])
						mu.Unlock()
					}
					lacking.ServeHTTP(w, r)
				})
			}).URL
			admin := api.New(url, "admin", "admin")
			ctx := t.Context()
			ref := func(path string) (id int64, uuid string) {
				f, err := admin.File(ctx, api.Path(path))
				if err != nil {
					t.Fatal(err)
				}
				return f.ID(), f.UUID
			}
			salesID, salesUUID := ref("/Analytics/Sales.wbk")
			_, orders := ref("/Data/ImportJobs/Orders.imp")
			_, customers := ref("/Data/ImportJobs/Customers.imp")
			w, err := admin.WorkbookV2(ctx, api.FileID(salesID))
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			if !slices.Equal(asked, tt.asked) {
				t.Errorf("asked %v, want %v", asked, tt.asked)
			}
			mu.Unlock()
			cfg := w.Configuration()
			var links []string
			for _, l := range cfg.Links() {
				links = append(links, l.UUID)
			}
			if cfg.File.Path != "/Analytics/Sales.wbk" || cfg.File.UUID != salesUUID || !slices.Equal(links, []string{orders, customers}) {
				t.Errorf("v2 read of Sales.wbk as %+v, links %v; want the UUIDs of Orders.imp and Customers.imp", cfg.File, links)
			}
			ordersID, _ := ref("/Data/ImportJobs/Orders.imp")
			if _, err := admin.WorkbookV2(ctx, api.FileID(ordersID)); !api.IsNotFound(err) {
				t.Errorf("an import read as a v2 workbook: %v, want 404", err)
			}
			if _, err := admin.WorkbookV2(ctx, api.Ref{}); err == nil {
				t.Error("no ref read a workbook")
			}
		})
	}
}
