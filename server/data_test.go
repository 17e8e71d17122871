package server_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/store"
)

// ran triggers the job at path as admin and waits until it completed.
func (p *platform) ran(srv *server.Server, path string) store.File {
	p.t.Helper()
	f, err := srv.Store().FileByPath(context.Background(), path)
	if err != nil {
		p.t.Fatal(err)
	}
	ref := "/api/job-execution/" + url.PathEscape(path)
	p.want(p.call("admin", http.MethodPost, ref+"/trigger", nil), http.StatusOK, nil)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var st model.JobStatus
		p.get("admin", ref+"/status", &st)
		switch st.JobStatus {
		case model.StateCompleted:
			return f
		case model.StateError, model.StateCanceled:
			p.t.Fatalf("%s: %+v", path, st)
		}
	}
	p.t.Fatalf("%s did not complete", path)
	return f
}

func csvOf(t *testing.T, a answer) [][]string {
	t.Helper()
	if a.code != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("download: %d %s %s", a.code, a.header.Get("Content-Type"), a.body)
	}
	rows, err := csv.NewReader(strings.NewReader(string(a.body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestJobData(t *testing.T) {
	srv, p := demo(t)
	// Not in the demo's schedule: never run.
	never, _ := srv.Store().FileByPath(context.Background(), "/Analytics/Finance/Revenue by Product.wbk")
	orders := p.ran(srv, "/Data/ImportJobs/Orders.imp")
	p.ran(srv, "/Data/ImportJobs/Customers.imp")
	sales := p.ran(srv, "/Analytics/Sales.wbk")

	var meta []model.DataMetadata
	p.get("viewer", fmt.Sprintf("/rest/data/import-job/%d", orders.ConfigID), &meta)
	if len(meta) != 1 || meta[0].Path != orders.Path || meta[0].RecordCount == 0 || len(meta[0].Datas) == 0 ||
		meta[0].Datas[0].RecordCount != meta[0].RecordCount {
		t.Fatalf("metadata %+v", meta)
	}
	if _, err := time.Parse(model.DateTimeLayout, meta[0].Datas[0].Timestamp); err != nil {
		t.Fatal(err)
	}
	all := csvOf(t, p.call("viewer", http.MethodGet, fmt.Sprintf("/rest/data/import-job/%d/download", orders.ConfigID), nil))
	if int64(len(all)) != meta[0].RecordCount+1 || all[0][0] == "" {
		t.Fatalf("%d lines for %d records; header %v", len(all), meta[0].RecordCount, all[0])
	}
	page := csvOf(t, p.call("viewer", http.MethodGet, fmt.Sprintf("/rest/data/import-job/%d/download?start=5&length=3", orders.ConfigID), nil))
	if len(page) != 4 || strings.Join(page[0], ",") != strings.Join(all[0], ",") || strings.Join(page[1], ",") != strings.Join(all[6], ",") {
		t.Fatalf("page %v", page)
	}

	var sheets []model.SheetDetails
	p.get("analyst", fmt.Sprintf("/rest/sheet-details/%d/", sales.ConfigID), &sheets)
	if len(sheets) != 3 || sheets[0].Name != "Sales" || sheets[0].Path != sales.Path || len(sheets[0].Columns) != 4 ||
		sheets[1].Path != orders.Path {
		t.Fatalf("sheets %+v", sheets)
	}
	var one model.SheetDetails
	p.get("analyst", "/rest/sheet-details?file="+url.QueryEscape(sales.Path)+"&sheetName=Sales", &one)
	if one.Name != "Sales" || one.RecordCount == 0 {
		t.Fatalf("sheet by path %+v", one)
	}
	rows := csvOf(t, p.call("analyst", http.MethodGet, fmt.Sprintf("/rest/data/workbook/%d/Sales/download?length=2", sales.ConfigID), nil))
	if len(rows) != 3 || strings.Join(rows[0], ",") != "order_id,region,amount,customer" {
		t.Fatalf("workbook rows %v", rows)
	}
	input := csvOf(t, p.call("analyst", http.MethodGet, fmt.Sprintf("/rest/data/workbook/%d/%s/download?length=1", sales.ConfigID, url.PathEscape(sheets[1].Name)), nil))
	if strings.Join(input[0], ",") != strings.Join(all[0], ",") {
		t.Fatalf("an input sheet shows the input's data: %v", input)
	}
	p.get("admin", fmt.Sprintf("/rest/data/workbook/%d", sales.ConfigID), &meta)
	if len(meta) != 1 || meta[0].Path != sales.Path || meta[0].RecordCount == 0 {
		t.Fatalf("workbook metadata %+v", meta)
	}

	p.get("admin", fmt.Sprintf("/rest/data/workbook/%d", never.ConfigID), &meta)
	if len(meta) != 1 || len(meta[0].Datas) != 0 || meta[0].RecordCount != 0 {
		t.Fatalf("metadata of a job never run %+v", meta)
	}
	finance := never
	for _, c := range []struct {
		name, user, path string
		code             int
		fragment         string
	}{
		{"no data yet", "admin", fmt.Sprintf("/rest/data/workbook/%d/Revenue%%20by%%20Product/download", never.ConfigID), 404, "no data"},
		{"a workbook by the import path", "admin", fmt.Sprintf("/rest/data/import-job/%d", sales.ConfigID), 404, ""},
		{"an import by the workbook path", "admin", fmt.Sprintf("/rest/data/workbook/%d", orders.ConfigID), 404, ""},
		{"a file the viewer cannot read", "viewer", fmt.Sprintf("/rest/data/workbook/%d", finance.ConfigID), 404, ""},
		{"its data neither", "viewer", fmt.Sprintf("/rest/data/workbook/%d/Revenue%%20by%%20Product/download", finance.ConfigID), 404, ""},
		{"its sheets neither", "viewer", fmt.Sprintf("/rest/sheet-details/%d/", finance.ConfigID), 404, ""},
		{"no such sheet", "admin", fmt.Sprintf("/rest/data/workbook/%d/Nope/download", sales.ConfigID), 404, "Nope"},
		{"bad start", "admin", fmt.Sprintf("/rest/data/import-job/%d/download?start=-1", orders.ConfigID), 400, "start"},
		{"bad length", "admin", fmt.Sprintf("/rest/data/import-job/%d/download?length=x", orders.ConfigID), 400, "length"},
		{"bad id", "admin", "/rest/data/import-job/x", 400, "configuration id"},
		{"sheet details without a file", "admin", "/rest/sheet-details?sheetName=x", 400, "file"},
		{"no credentials", "", fmt.Sprintf("/rest/data/import-job/%d/download", orders.ConfigID), 401, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.wantFailure(p.call(c.user, http.MethodGet, c.path, nil), c.code, c.fragment)
		})
	}
}
