package dataview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// ran triggers the job at path and waits until it completed.
func ran(t *testing.T, c *api.Client, path string) {
	t.Helper()
	ctx := t.Context()
	if _, err := c.TriggerJob(ctx, api.Path(path)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, err := c.JobStatus(ctx, api.Path(path))
		if err != nil {
			t.Fatal(err)
		}
		switch st.JobStatus {
		case model.StateCompleted:
			return
		case model.StateError, model.StateCanceled:
			t.Fatalf("%s: %+v", path, st)
		}
	}
	t.Fatalf("%s did not complete", path)
}

func configID(t *testing.T, c *api.Client, kind model.Kind, path string) int64 {
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

// opened opens the view at the size and runs its reads to the end.
func opened(t *testing.T, c *api.Client, target Target, width, height int) *View {
	t.Helper()
	ctx := common.NewContext(c, "http://dap.test", "admin", "", false)
	v := &View{ctx: ctx, target: target}
	v.SetSize(width, height)
	uitest.Run[common.Dialog](v, v.readSheets(), nil)
	return v
}

// demo is the demo platform as admin with Orders, Customers and Sales run.
func demo(t *testing.T) *api.Client {
	t.Helper()
	c := uitest.DemoClient(t)
	for _, p := range []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp", "/Analytics/Sales.wbk"} {
		ran(t, c, p)
	}
	return c
}

func TestPagesAndScrolls(t *testing.T) {
	c := demo(t)
	orders := Target{Kind: model.KindImportJob, ConfigID: configID(t, c, model.KindImportJob, "/Data/ImportJobs/Orders.imp"), Path: "/Data/ImportJobs/Orders.imp"}
	v := opened(t, c, orders, 80, 24)
	if len(v.rows) != v.pageLength() || v.start != 0 || len(v.columns) == 0 {
		t.Fatalf("first page: start %d, %d rows, columns %v", v.start, len(v.rows), v.columns)
	}
	first := strings.Join(v.rows[0], ",")
	uitest.Run[common.Dialog](v, uitest.Press[common.Dialog](v, "pgdown"), nil)
	if v.start != v.pageLength() || strings.Join(v.rows[0], ",") == first {
		t.Fatalf("second page: start %d", v.start)
	}
	uitest.Run[common.Dialog](v, uitest.Press[common.Dialog](v, "G"), nil)
	if want := v.lastStart(); v.start != want || v.start+len(v.rows) != int(v.records()) {
		t.Fatalf("last page: start %d (want %d), %d rows of %d", v.start, want, len(v.rows), v.records())
	}
	uitest.Run[common.Dialog](v, uitest.Press[common.Dialog](v, "g"), nil)
	if v.start != 0 || strings.Join(v.rows[0], ",") != first {
		t.Fatalf("back to the first page: start %d", v.start)
	}
	uitest.Press[common.Dialog](v, "right", "right")
	if head := strings.Split(uitest.Screen(v.View()), "\n")[4]; v.col != 2 || strings.Contains(head, v.columns[0]) || !strings.Contains(head, v.columns[2]) {
		t.Fatalf("scrolled right:\n%s", v.View())
	}
	uitest.Press[common.Dialog](v, "left")
	if v.col != 1 {
		t.Fatalf("scrolled left: %d", v.col)
	}
	if d, _ := v.Update(uitest.Key("esc")); d != nil {
		t.Fatal("esc does not close")
	}
}

func TestWorkbookSheets(t *testing.T) {
	c := demo(t)
	sales := Target{Kind: model.KindWorkbook, ConfigID: configID(t, c, model.KindWorkbook, "/Analytics/Sales.wbk"), Path: "/Analytics/Sales.wbk"}
	v := opened(t, c, sales, 120, 40)
	if len(v.sheets) != 3 || strings.Join(v.columns, ",") != "order_id,region,amount,customer" {
		t.Fatalf("sheets %+v columns %v", v.sheets, v.columns)
	}
	uitest.Run[common.Dialog](v, uitest.Press[common.Dialog](v, "]"), nil)
	if v.sheet != 1 || strings.Join(v.columns, ",") == "order_id,region,amount,customer" {
		t.Fatalf("next sheet: %d %v", v.sheet, v.columns)
	}
}

func TestNoDataYet(t *testing.T) {
	c := uitest.DemoClient(t)
	finance := "/Analytics/Finance/Revenue by Product.wbk" // never run by the demo
	v := opened(t, c, Target{Kind: model.KindWorkbook, ConfigID: configID(t, c, model.KindWorkbook, finance), Path: finance}, 80, 24)
	if !strings.Contains(v.View(), "No data yet") {
		t.Fatalf("view:\n%s", v.View())
	}
}

// Closing the view cancels the read in flight: its answer never lands.
func TestCloseCancelsTheRead(t *testing.T) {
	c := demo(t)
	ctx := common.NewContext(c, "http://dap.test", "admin", "", false)
	v, _ := Open(ctx, Target{Kind: model.KindImportJob, ConfigID: configID(t, c, model.KindImportJob, "/Data/ImportJobs/Orders.imp"), Path: "/Data/ImportJobs/Orders.imp"})
	v.SetSize(80, 24)
	cmd := v.readSheets()
	if d, _ := v.Update(uitest.Key("esc")); d != nil {
		t.Fatal("esc does not close")
	}
	for _, msg := range uitest.Expand(cmd) {
		if m, ok := msg.(sheetsMsg); ok && m.err == nil {
			t.Fatalf("the read went on after the close: %+v", m)
		}
	}
}

// Golden screens of the view at 80x24 and 120x40. Regenerate with
// `go test ./ui/dataview -run TestGolden -update`.
func TestGolden(t *testing.T) {
	c := demo(t)
	orders := Target{Kind: model.KindImportJob, ConfigID: configID(t, c, model.KindImportJob, "/Data/ImportJobs/Orders.imp"), Path: "/Data/ImportJobs/Orders.imp"}
	sales := Target{Kind: model.KindWorkbook, ConfigID: configID(t, c, model.KindWorkbook, "/Analytics/Sales.wbk"), Path: "/Analytics/Sales.wbk"}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, tc := range []struct {
			name   string
			target Target
			keys   []string
		}{
			{"Import", orders, nil},
			{"ImportSecondPageScrolled", orders, []string{"pgdown", "right"}},
			{"Workbook", sales, nil},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size.w, size.h), func(t *testing.T) {
				v := opened(t, c, tc.target, size.w, size.h)
				uitest.Run[common.Dialog](v, uitest.Press[common.Dialog](v, tc.keys...), nil)
				golden.RequireEqual(t, []byte(uitest.Screen(v.View())))
			})
		}
	}
}

// benchView is a view holding one page of a sheet of records rows, as
// after its read.
func benchView(records int64) *View {
	ctx := common.NewContext(nil, "http://dap.test", "admin", "", false)
	v := &View{ctx: ctx, target: Target{Kind: model.KindImportJob, ConfigID: 1, Path: "/Data/ImportJobs/Big.imp"}}
	v.SetSize(120, 40)
	v.sheets = []model.SheetDetails{{Name: "Big", RecordCount: records}}
	columns := []string{"id", "region", "amount", "customer", "note"}
	rows := make([][]string, v.pageLength())
	for i := range rows {
		rows[i] = []string{fmt.Sprint(i), "north", "12.50", "Customer " + fmt.Sprint(i), strings.Repeat("x", 40)}
	}
	ticket := v.reads.Next()
	v.Update(pageMsg{ticket: ticket, start: int(records) / 2, columns: columns, rows: rows})
	return v
}

// BenchmarkFrame draws frames of the view over a sheet of 100 and of
// 100,000 rows: it holds one page either way, so a frame costs the same.
// Each frame follows a move of the cursor, so every one is drawn anew.
func BenchmarkFrame(b *testing.B) {
	for _, n := range []int64{100, 100_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			v := benchView(n)
			down, up := uitest.Key("down"), uitest.Key("up")
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if i%2 == 0 {
					v.Update(down)
				} else {
					v.Update(up)
				}
				i++
				_ = v.View()
			}
		})
	}
}

// v on a file opens the view when the file keeps data, and says why not
// otherwise.
func TestOpenFile(t *testing.T) {
	ctx := common.NewContext(uitest.DemoClient(t), "http://dap.test", "admin", "", false)
	for _, tc := range []struct {
		name, path string
		id         int64
		opens      bool
		says       string
	}{
		{"an import", "/Data/ImportJobs/Orders.imp", 3, true, ""},
		{"a workbook", "/Analytics/Sales.wbk", 7, true, ""},
		{"a connection", "/Data/Connections/Local Files.dst", 2, false, "only imports, data links, uploads and workbooks keep data"},
		{"an unknown kind", "/Data/notes.txt", 9, false, "its kind is not known"},
		{"no configuration id", "/Data/ImportJobs/Orders.imp", 0, false, "configuration id is not known"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs := uitest.Expand(OpenFile(ctx, tc.path, "", tc.id))
			open, opened := uitest.First[common.OpenDialogMsg](msgs)
			if opened != tc.opens || opened && open.Dialog.(*View).target.Path != tc.path {
				t.Fatalf("opened %v, want %v: %#v", opened, tc.opens, msgs)
			}
			if st, ok := uitest.First[common.StatusMsg](msgs); tc.says != "" && (!ok || !strings.Contains(st.Text, tc.says)) {
				t.Fatalf("said %q, want %q", st.Text, tc.says)
			}
		})
	}
}
