package server_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
)

const sequentialTriggerPath = "/api/job-execution/sequential-trigger"

// fileID is the file id of a path, as admin reads it.
func (p *platform) fileID(path string) int64 {
	p.t.Helper()
	var f model.File
	p.get("admin", "/api/filesystem/files/"+refOf(path), &f)
	return f.ID()
}

// TestSequentialPlanLeavesOutWhatTheCallerMayNotSee: a workbook in the
// viewer's home reads from Events.imp. The analyst's plan from Events.imp
// neither lists it nor is refused by it (before: "…/Users/viewer/…:
// execute permission required" named it and queued nothing); it says one file
// was left out. The admin's plan holds it.
func TestSequentialPlanLeavesOutWhatTheCallerMayNotSee(t *testing.T) {
	_, p := demo(t)
	private := &model.Configuration{Version: "1", TypeID: "das.WorkbookType",
		Properties: map[string][]string{"sql": {"SELECT count(*) FROM input1"}, "dataDriven": {"true"}},
		Sheets:     []model.Sheet{{Name: "Events", Datasource: &model.SourceRef{Path: "/Data/ImportJobs/Events.imp"}}}}
	p.restore("admin", "/Users/viewer", buildArchive(t, []string{archive.SectionOwner},
		archiveFile{path: "Private.wbk", cfg: private, meta: &archive.FileMeta{Owner: "viewer"}}), model.FlagIncludeOwner)
	events := p.fileID("/Data/ImportJobs/Events.imp")
	names := func(plan model.ExecutionPlan) []string {
		var out []string
		for _, e := range plan.ExecutionPlan {
			out = append(out, e.JobConfigurationName)
		}
		return out
	}
	var plan model.ExecutionPlan
	a := p.call("analyst", http.MethodPost, sequentialTriggerPath, model.SequentialTrigger{FileIDs: []int64{events}})
	p.want(a, http.StatusOK, &plan)
	if plan.Status != model.StatusSuccess || slices.Contains(names(plan), "Private") || strings.Contains(string(a.body), "viewer") {
		t.Fatalf("analyst's plan %s", a.body)
	}
	if plan.Notice != "1 file(s) you may not see were left out" {
		t.Fatalf("notice %q", plan.Notice)
	}
	var all model.ExecutionPlan
	p.want(p.call("admin", http.MethodPost, sequentialTriggerPath, model.SequentialTrigger{FileIDs: []int64{events}}), http.StatusOK, &all)
	if !slices.Contains(names(all), "Private") || all.Notice != "" {
		t.Fatalf("admin's plan %+v", all)
	}
}

// TestSequentialTriggerBodiesAreCheapToRefuse: 100,000 ids (the reproduction
// cost 75 s of CPU) are refused at once past the cap of 1,000 distinct ids;
// repeats count once, so 100,000 copies of one id trigger it once.
func TestSequentialTriggerBodiesAreCheapToRefuse(t *testing.T) {
	_, p := demo(t)
	many := make([]int64, 100_000)
	for i := range many {
		many[i] = int64(i + 1)
	}
	p.wantFailure(p.call("analyst", http.MethodPost, sequentialTriggerPath, model.SequentialTrigger{FileIDs: many}), http.StatusBadRequest, "at most 1000")
	p.wantFailure(p.call("analyst", http.MethodPost, sequentialTriggerPath, model.SequentialTrigger{FileIDs: many[:1001]}), http.StatusBadRequest, "1001 files")
	events := p.fileID("/Data/ImportJobs/Events.imp")
	for i := range many {
		many[i] = events
	}
	var plan model.ExecutionPlan
	p.want(p.call("analyst", http.MethodPost, sequentialTriggerPath, model.SequentialTrigger{FileIDs: many}), http.StatusOK, &plan)
	if plan.Status != model.StatusSuccess || plan.ExecutionPlan[0].JobConfigurationName != "Events" {
		t.Fatalf("plan %+v", plan)
	}
	triggered := 0
	for _, e := range plan.ExecutionPlan {
		if e.JobConfigurationName == "Events" {
			triggered++
		}
	}
	if triggered != 1 {
		t.Fatalf("Events appears %d times in the plan", triggered)
	}
}
