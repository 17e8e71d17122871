package folders

import (
	"slices"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The tree's job states follow the jobs poll without r (issue 30: a job
// stopped from the console showed RUNNING in the tree for ~10 s): a job the
// poll lists shows its state; one shown running that the poll no longer
// lists has its last state read again.
func TestTreeStatesFollowTheJobsPoll(t *testing.T) {
	p := paneWithFiles(t, false)
	p.ctx.Client = api.New("http://127.0.0.1:1", "admin", "admin") // never reached: the tasks are not run
	imports := p.tree.root.child("Data").child("ImportJobs")
	orders := imports.files[slices.IndexFunc(imports.files, func(f *node) bool { return f.name == "Orders.imp" })]

	p.Update(common.JobsPolledMsg{Running: map[string]model.JobState{orders.file.UUID: model.StateRunning}})
	if orders.jobState != model.StateRunning {
		t.Fatalf("a job the poll lists as running shows %q", orders.jobState)
	}
	_, cmd := p.Update(common.JobsPolledMsg{Running: map[string]model.JobState{}})
	var read bool
	for _, m := range uitest.Messages(cmd) {
		if s, ok := m.(common.TaskStartedMsg); ok && s.Label == "reading job states in /Data/ImportJobs" {
			read = true
		}
	}
	if !read {
		t.Error("a running job the poll no longer lists kept its state unread")
	}
}
