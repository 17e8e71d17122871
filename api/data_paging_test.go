package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// ignoringPages serves downloads as a platform that does not page does:
// the start and length a client asks for are dropped, every row comes.
func ignoringPages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/download") {
			r.URL.RawQuery = ""
		}
		next.ServeHTTP(w, r)
	})
}

// Against a platform that sends the whole data, a page read still takes
// one page and stops reading there.
func TestE2EDataPageOfAnUnpagedDownload(t *testing.T) {
	c := api.New(servertest.Start(t, server.Config{DemoData: true}, ignoringPages).URL, "admin", "admin")
	ranToEnd(t, c, "/Data/ImportJobs/Orders.imp")
	orders := idOf(t, c, model.KindImportJob, "/Data/ImportJobs/Orders.imp")
	n := 0
	columns, err := c.ReadDataPage(t.Context(), model.KindImportJob, orders, "", 0, 7, func([]string) error { n++; return nil })
	if err != nil || len(columns) == 0 || n != 7 {
		t.Fatalf("%d rows, columns %v, %v", n, columns, err)
	}
}
