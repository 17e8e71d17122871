package api_test

import (
	"fmt"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// The embedded server answers user management, the licence and job data in
// the documented shapes of testdata/dialect.
func TestE2EPeopleAndDataInTheDocumentedShapes(t *testing.T) {
	url, admin, _, _ := demoServer(t)
	ranToEnd(t, admin, "/Data/ImportJobs/Orders.imp")
	orders := idOf(t, admin, model.KindImportJob, "/Data/ImportJobs/Orders.imp")
	for _, tt := range []struct{ path, documented string }{
		{"/rest/user-management/users", "users.json"},
		{"/rest/user-management/logged-in-user", "logged-in-user.json"},
		{"/rest/license-details", "license-details.json"},
		{fmt.Sprintf("/rest/data/import-job/%d", orders), "data-metadata.json"},
	} {
		t.Run(tt.documented, func(t *testing.T) {
			var got, doc any
			rawGet(t, url, tt.path, &got)
			documented(t, tt.documented, &doc)
			sameShape(t, tt.path, doc, got)
		})
	}
}
