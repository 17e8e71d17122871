package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestLogsAndReasonsNameOnlyWhatTheReaderMaySee: a job the viewer may
// read that reads from files he may not see (a workbook of the finance
// folder, the finance database) logged their paths and the database's URL,
// and its status reason named them: the viewer learnt the hidden folder's
// contents by reading a job he was given. The administrator who ran it
// still reads every name.
func TestLogsAndReasonsNameOnlyWhatTheReaderMaySee(t *testing.T) {
	_, p := demo(t)
	hiddenWorkbook := "/Analytics/Finance/Revenue by Product.wbk"
	hiddenConnection := "/Analytics/Finance/Finance PostgreSQL.dst"
	secrets := []string{"/Analytics/Finance", "Revenue by Product", "Finance PostgreSQL", "ledger"}
	p.want(p.call("admin", http.MethodPost, "/rest/workbook", `{file:{path:"/Analytics/Reads Finance.wbk"},`+
		`properties:{sql:["SELECT * FROM input1"]},sheets:[{name:in,datasource:{path:"`+hiddenWorkbook+`"}}]}`), http.StatusOK, nil)
	p.want(p.call("admin", http.MethodPost, "/rest/export-job", `{file:{path:"/Analytics/Writes Finance.exp"},`+
		`properties:{path:["out.csv"]},connection:"`+strings.TrimSuffix(hiddenConnection, ".dst")+`",`+
		`sheet:{name:Summary,workbook:"/Analytics/Sales.wbk"}}`), http.StatusOK, nil)
	for _, job := range []string{"/Analytics/Reads Finance.wbk", "/Analytics/Writes Finance.exp"} {
		st := p.runToEnd("admin", job)
		if st.JobStatus != model.StateError {
			t.Fatalf("%s: %+v, want ERROR", job, st)
		}
		logPath := fmt.Sprintf("/file-job?jobExecutionId=%d", *st.JobExecutionID)
		adminLog := p.call("admin", http.MethodGet, logPath, nil)
		if !strings.Contains(string(adminLog.body)+st.Reason, "Finance") {
			t.Fatalf("%s: the administrator reads no name of what failed: %s / %s", job, st.Reason, adminLog.body)
		}
		for _, read := range []struct{ what, path string }{
			{"status", "/api/job-execution/" + refOf(job) + "/status"},
			{"log", logPath},
			{"trace", fmt.Sprintf("/job/download-trace/%d", *st.JobExecutionID)},
		} {
			a := p.call("viewer", http.MethodGet, read.path, nil)
			p.want(a, http.StatusOK, nil)
			for _, s := range secrets {
				if strings.Contains(string(a.body), s) {
					t.Errorf("%s: the viewer's %s names %q: %s", job, read.what, s, a.body)
				}
			}
		}
	}
}
