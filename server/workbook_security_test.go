package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
)

// TestWorkbookSQLReadsNoServerTable is the reproduction: a viewer's
// workbook named users.wbk made the next one's input a view named users,
// and the guard, judging tables by name alone, let that one read
// main.users, the server's accounts, with every bcrypt hash. Now a workbook
// computes in a database of its own that holds its inputs and nothing
// else: main.users is the viewer's own data, which has no hash.
func TestWorkbookSQLReadsNoServerTable(t *testing.T) {
	_, p := demo(t)
	orders := model.SourceRef{Path: "/Data/ImportJobs/Orders.imp"}
	p.runToEnd("admin", orders.Path)
	users := workbookConfig("SELECT * FROM input1", orders)
	users.File.Path = "/Old/users.wbk"
	probe := workbookConfig("SELECT name, password_hash FROM main.users", model.SourceRef{Path: "/Old/users.wbk"})
	p.restore("viewer", "/Users/viewer", buildArchive(t, nil,
		archiveFile{path: "users.wbk", cfg: users}, archiveFile{path: "probe.wbk", cfg: probe}))
	if st := p.runToEnd("viewer", "/Users/viewer/users.wbk"); st.JobStatus != model.StateCompleted {
		t.Fatalf("users.wbk: %+v", st)
	}
	st := p.runToEnd("viewer", "/Users/viewer/probe.wbk")
	if st.JobStatus != model.StateError || strings.Contains(st.Reason, "$2a$") {
		t.Fatalf("the probe %+v, want ERROR with no hash", st)
	}
}

// TestWorkbookInputsAreReadAsTheirUserMay: a viewer's workbook whose input
// he may not see (it was hidden from him after he made the workbook, or
// an administrator restored it for him) ran, and copied that file's data
// into his own. The input is answered as a missing one, not named.
func TestWorkbookInputsAreReadAsTheirUserMay(t *testing.T) {
	_, p := demo(t)
	hidden := "/Analytics/Finance/Revenue by Product.wbk"
	for _, path := range []string{"/Data/ImportJobs/Orders.imp", "/Data/ImportJobs/Customers.imp",
		"/Data/ImportJobs/Products.imp", "/Analytics/Sales.wbk", hidden} {
		if st := p.runToEnd("admin", path); st.JobStatus != model.StateCompleted {
			t.Fatalf("%s: %+v", path, st)
		}
	}
	p.restore("admin", "/Users/viewer", buildArchive(t, []string{archive.SectionOwner}, archiveFile{path: "copy.wbk",
		cfg: workbookConfig("SELECT * FROM input1", model.SourceRef{Path: hidden}), meta: &archive.FileMeta{Owner: "viewer"}}), "includeOwner")
	st := p.runToEnd("viewer", "/Users/viewer/copy.wbk")
	if st.JobStatus != model.StateError || !strings.Contains(st.Reason, "not found") || strings.Contains(st.Reason, "Revenue") {
		t.Fatalf("status %+v, want ERROR answering the hidden input as a missing one", st)
	}
}

func workbookConfig(sql string, inputs ...model.SourceRef) *model.Configuration {
	cfg := &model.Configuration{Version: "1", TypeID: "das.WorkbookType", Properties: map[string][]string{"sql": {sql}}}
	for _, in := range inputs {
		cfg.Sheets = append(cfg.Sheets, model.Sheet{Name: "in", Datasource: &in})
	}
	return cfg
}

// runToEnd triggers a job as user and waits until its newest execution
// has ended; it answers the final status.
func (p *platform) runToEnd(user, path string) model.JobStatus {
	p.t.Helper()
	var ex model.Triggered
	p.want(p.call(user, http.MethodPost, "/api/job-execution/"+refOf(path)+"/trigger", nil), http.StatusOK, &ex)
	if ex.Status != model.StatusSuccess {
		p.t.Fatalf("trigger %s as %s: %+v", path, user, ex)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var st model.JobStatus
		p.want(p.call(user, http.MethodGet, "/api/job-execution/"+refOf(path)+"/status", nil), http.StatusOK, &st)
		if st.JobExecutionID != nil && *st.JobExecutionID >= ex.JobExecutionID && st.JobStatus.Final() {
			return st
		}
	}
	p.t.Fatalf("%s did not end within a minute", path)
	return model.JobStatus{}
}
