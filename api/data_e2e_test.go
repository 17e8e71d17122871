package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// ranToEnd triggers a job and waits until it completed.
func ranToEnd(t *testing.T, c *api.Client, path string) {
	t.Helper()
	ref := api.Path(path)
	if _, err := c.TriggerJob(t.Context(), ref); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, err := c.JobStatus(t.Context(), ref)
		if err != nil {
			t.Fatal(err)
		}
		if st.JobStatus == model.StateCompleted {
			return
		}
	}
	t.Fatalf("%s did not complete", path)
}

func idOf(t *testing.T, c *api.Client, kind model.Kind, path string) int64 {
	t.Helper()
	list, err := c.FilesOfKind(t.Context(), kind)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Path == path {
			return e.ID
		}
	}
	t.Fatalf("no %s", path)
	return 0
}

func TestE2EJobData(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	ctx := t.Context()
	ranToEnd(t, admin, "/Data/ImportJobs/Orders.imp")
	orders := idOf(t, admin, model.KindImportJob, "/Data/ImportJobs/Orders.imp")
	meta, err := viewer.DataMetadata(ctx, model.KindImportJob, orders)
	if err != nil || len(meta) != 1 || meta[0].RecordCount == 0 || len(meta[0].Datas) == 0 {
		t.Fatalf("metadata %+v, %v", meta, err)
	}
	sheets, err := viewer.SheetDetails(ctx, orders)
	if err != nil || len(sheets) != 1 || sheets[0].Name != "Orders" || len(sheets[0].Columns) == 0 {
		t.Fatalf("sheets %+v, %v", sheets, err)
	}
	var rows []string
	columns, err := viewer.ReadDataPage(ctx, model.KindImportJob, orders, "", 10, 5, func(r []string) error {
		rows = append(rows, strings.Join(r, ","))
		return nil
	})
	if err != nil || len(columns) != len(sheets[0].Columns) || len(rows) != 5 || !strings.HasPrefix(rows[0], "11,") {
		t.Fatalf("page: columns %v rows %v, %v", columns, rows, err)
	}
	finance := idOf(t, admin, model.KindWorkbook, "/Analytics/Finance/Revenue by Product.wbk")
	_, err = admin.ReadDataPage(ctx, model.KindWorkbook, finance, "Revenue by Product", 0, 5, func([]string) error { return nil })
	if !api.IsNotFound(err) {
		t.Fatalf("a workbook never run: %v", err)
	}
	if _, err := viewer.DataMetadata(ctx, model.KindWorkbook, finance); !api.IsNotFound(err) {
		t.Fatalf("a workbook the viewer may not read: %v", err)
	}
	if _, err := admin.DataMetadata(ctx, model.KindConnection, 1); err == nil {
		t.Fatal("a connection has no data")
	}
}
