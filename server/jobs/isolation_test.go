package jobs

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestWorkbookReachesNothingButItsInputs: a workbook's SQL ran on the
// server's own database, and the guard judged a table by its name alone,
// so an input named like a server table (job_executions, or another job's
// jobdata_<id>) opened main.<that table> to the query. Each of these reads
// something that is not one of the workbook's inputs, and must end ERROR
// without a row of it in the stored data, the reason or the log.
func TestWorkbookReachesNothingButItsInputs(t *testing.T) {
	fx := newFixture(t, 2)
	orders := fx.imported("/Data/ImportJobs/orders.imp", SampleOrders)
	secret := fx.imported("/Users/admin/secret.imp", SampleCustomers)
	secretTable := dataTableName(mustLatest(t, fx, secret))
	// Inputs named like the tables they aim at: their data is the orders'.
	named := func(name string) File {
		f := fx.cat.add("/Users/viewer/"+name+".imp", map[string]string{propPath: SampleOrders}, fx.fsConn)
		fx.trigger(f)
		if st := fx.waitFinal(f); st.JobStatus != model.StateCompleted {
			t.Fatalf("import %s: %+v", name, st)
		}
		return f
	}
	asExecutions := named("job_executions")
	asSecret := named(secretTable)
	dbPath := filepath.Join(fx.dir, "platform.db")
	// Named by an input, a table is that input: the query reads the
	// orders, and only them.
	for i, input := range []File{asExecutions, asSecret} {
		f := fx.cat.add("/Users/viewer/named"+strconv.Itoa(i)+".wbk", map[string]string{propSQL: "SELECT * FROM main." + input.Name}, input)
		id := fx.triggerAs(f, "viewer")
		if st := fx.waitFinal(f); st.JobStatus != model.StateCompleted {
			t.Fatalf("%s: %+v", input.Name, st)
		}
		var orderIDs int64
		if err := fx.db.QueryRow(`SELECT count(DISTINCT order_id) FROM ` + dataTableName(id)).Scan(&orderIDs); err != nil || orderIDs != SampleOrdersRows {
			t.Errorf("%s: %d orders (%v), want the input's %d and nothing else", input.Name, orderIDs, err, SampleOrdersRows)
		}
	}
	cases := []struct {
		name  string
		sql   string
		input File
	}{
		{"the server's table by its schema", "SELECT * FROM main.job_executions", orders},
		{"another job's data by its schema", "SELECT * FROM main." + secretTable, orders},
		{"another job's data in the temp schema", "SELECT * FROM temp." + secretTable, asSecret},
		{"the schema table", "SELECT * FROM sqlite_schema", orders},
		{"the old schema table", "SELECT * FROM sqlite_master", orders},
		{"the temp schema table", "SELECT * FROM sqlite_temp_schema", orders},
		{"a pragma function", "SELECT * FROM pragma_database_list", orders},
		{"a pragma function on a table", "SELECT * FROM pragma_table_info('job_executions')", orders},
		{"a pragma", "PRAGMA table_list", orders},
		{"attach", "ATTACH DATABASE '" + dbPath + "' AS srv", orders},
		{"attach then read", "ATTACH DATABASE '" + dbPath + "' AS srv; SELECT * FROM srv.job_executions", orders},
		{"a temp table", "CREATE TEMP TABLE t AS SELECT * FROM input1", orders},
		{"a second statement", "SELECT 1; SELECT * FROM job_executions", orders},
		{"a data page table", "SELECT * FROM sqlite_dbpage", orders},
		{"load an extension", "SELECT load_extension('/lib/x.so')", orders},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fx.cat.add("/Users/viewer/probe"+strconv.Itoa(i)+".wbk", map[string]string{propSQL: tc.sql}, tc.input)
			id := fx.triggerAs(f, "viewer")
			st := fx.waitFinal(f)
			if st.JobStatus != model.StateError {
				t.Fatalf("status %+v, want ERROR", st)
			}
			if n := fx.tablesLike(dataTableName(id)); n != 0 {
				t.Errorf("the probe stored data")
			}
			fx.noRowsOfTheServer(id, st.Reason)
		})
	}
}

// TestWorkbookErrorsCarryNoRowData: an error SQLite raises while a query
// runs may quote a value (a JSON path, a JSON text); the status reason and
// the log name the failure without it.
func TestWorkbookErrorsCarryNoRowData(t *testing.T) {
	fx := newFixture(t, 2)
	customers := fx.imported("/Data/ImportJobs/customers.imp", SampleCustomers)
	var name string
	if err := fx.db.QueryRow(`SELECT name FROM ` + dataTableName(mustLatest(t, fx, customers)) + ` LIMIT 1`).Scan(&name); err != nil {
		t.Fatal(err)
	}
	for i, sql := range []string{
		"SELECT json_extract('{}', name) FROM input1",
		"SELECT json(name) FROM input1",
	} {
		f := fx.cat.add("/Analytics/leak"+strconv.Itoa(i)+".wbk", map[string]string{propSQL: sql}, customers)
		id := fx.trigger(f)
		st := fx.waitFinal(f)
		if st.JobStatus != model.StateError {
			t.Fatalf("%s: status %+v, want ERROR", sql, st)
		}
		log := fx.logOf(id)
		if strings.Contains(st.Reason, name) || strings.Contains(log, name) {
			t.Errorf("%s: a customer's name in the reason %q or the log %q", sql, st.Reason, log)
		}
	}
	// An error found before the query runs still says what it is.
	f := fx.cat.add("/Analytics/typo.wbk", map[string]string{propSQL: "SELEC name FROM input1"}, customers)
	fx.trigger(f)
	if st := fx.waitFinal(f); !strings.Contains(st.Reason, `near "SELEC": syntax error`) {
		t.Errorf("reason %q does not show the syntax error", st.Reason)
	}
}

// TestWorkbookReadsOnlyInputsItsUserMayRead: the engine copied any input a
// workbook named, whoever ran it; an input its user may not read is
// answered as a missing one, and its data stays out.
func TestWorkbookReadsOnlyInputsItsUserMayRead(t *testing.T) {
	fx := newFixture(t, 2)
	secret := fx.imported("/Users/admin/secret.imp", SampleCustomers)
	fx.cat.hide(secret, "viewer")
	wb := fx.cat.add("/Users/viewer/copy.wbk", map[string]string{propSQL: "SELECT * FROM input1"}, secret)
	id := fx.triggerAs(wb, "viewer")
	st := fx.waitFinal(wb)
	if st.JobStatus != model.StateError || !strings.Contains(st.Reason, "not found") || strings.Contains(st.Reason, secret.Path) {
		t.Fatalf("status %+v, want ERROR answering the hidden input as a missing one", st)
	}
	if n := fx.tablesLike(dataTableName(id)); n != 0 {
		t.Errorf("the workbook stored the hidden input's data")
	}
	// The same workbook run by someone who may read the input works.
	fx.trigger(wb)
	if st := fx.waitFinal(wb); st.JobStatus != model.StateCompleted {
		t.Errorf("run by analyst: %+v", st)
	}
}

// noRowsOfTheServer fails when the execution's reason or log holds a row
// value of the server's tables: a user name of job_executions,
// a customer of the secret import.
func (fx *fixture) noRowsOfTheServer(id int64, reason string) {
	fx.t.Helper()
	log := fx.logOf(id)
	for _, leak := range []string{"analyst", "Customer 0"} {
		if strings.Contains(reason, leak) || strings.Contains(log, leak) {
			fx.t.Errorf("%q of the server's rows in the reason %q or the log %q", leak, reason, log)
		}
	}
}

func (fx *fixture) logOf(id int64) string {
	fx.t.Helper()
	text, _, err := fx.engine.Log(context.Background(), id)
	if err != nil {
		fx.t.Fatal(err)
	}
	return text
}

func (fx *fixture) triggerAs(f File, user string) int64 {
	fx.t.Helper()
	ex, err := fx.engine.Trigger(context.Background(), f, user, model.TriggerRESTAPI, nil)
	if err != nil {
		fx.t.Fatalf("trigger %s: %v", f.Path, err)
	}
	return ex.ID
}
