package restoreplan

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// source is an archive the generator cuts from: a backup of a demo folder.
type source struct {
	folder string
	files  []*zip.File
}

func backupOf(t *testing.T, client *api.Client, folder string, flags api.BackupFlags) source {
	t.Helper()
	var b bytes.Buffer
	if _, err := client.Backup(context.Background(), api.Path(folder), flags, &b, nil); err != nil {
		t.Fatalf("backup %s: %v", folder, err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return source{folder: folder, files: zr.File}
}

// dataStore is an import job's or a data link's link to its connection.
var dataStore = regexp.MustCompile(`"dataStore":\{[^}]*\}`)

// generate cuts an archive from src: some of its files (their folders and
// the permissions entry kept), one of them changed now and then, one whose
// connection is nowhere, and now and then an owner or a group the platform
// does not know.
func generate(t *testing.T, rng *rand.Rand, src source) *zip.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	changed, broken := false, false
	for _, f := range src.files {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(r)
		r.Close()
		out := body.Bytes()
		switch {
		case f.Name == metadataName && rng.IntN(4) == 0:
			out = bytes.Replace(out, []byte(`"owner":"analyst"`), []byte(`"owner":"ghost"`), 1)
		case f.Name == metadataName && rng.IntN(4) == 0:
			out = bytes.Replace(out, []byte(`"name":"viewers"`), []byte(`"name":"ghosts"`), 1)
		case !broken && dataStore.Match(out) && rng.IntN(3) == 0:
			out = dataStore.ReplaceAll(out, []byte(`"dataStore":{"path":"/Gone/Away.dst","uuid":"00000000-0000-4000-8000-000000000000"}`))
			broken = true
		case !f.FileInfo().IsDir() && f.Name != metadataName && !changed && rng.IntN(4) == 0:
			out = bytes.Replace(out, []byte(`"description":"`), []byte(`"description":"changed `), 1)
			changed = true
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(out)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	full, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	drop := map[string]bool{}
	for _, f := range full.File {
		if !f.FileInfo().IsDir() && f.Name != metadataName && rng.IntN(3) == 0 {
			drop[f.Name] = true
		}
	}
	var cut bytes.Buffer
	if err := copyWithout(&cut, full, drop); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(cut.Bytes()), int64(cut.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestPlanPredictsTheRestore restores generated archives with generated
// flags into the embedded platform, and requires the plan computed before
// each to predict the outcome: refused or not, and when not, which files
// are restored and which skipped.
func TestPlanPredictsTheRestore(t *testing.T) {
	p := servertest.Start(t, server.Config{DemoData: true}, nil)
	client := api.New(p.URL, "admin", "admin")
	ctx := context.Background()
	all := api.BackupIncludeOwner | api.BackupIncludeGroupPermissions | api.BackupIncludeDataPermissions
	sources := []source{
		backupOf(t, client, "/Data", all),
		backupOf(t, client, "/Analytics", all|api.BackupIgnoreMissingDependencies),
		backupOf(t, client, "/Exports", api.BackupIgnoreMissingDependencies),
		backupOf(t, client, "/Data/ImportJobs", api.BackupIgnoreMissingDependencies),
	}
	flagsOf := []api.RestoreFlags{api.RestoreOverwrite, api.RestoreSkipFilesWithMissingDependencies, api.RestoreIncludeOwner,
		api.RestoreIncludeGroupPermissions, api.RestoreIgnoreUnknownGroups, api.RestoreSubstituteMissingUser, api.RestoreIncludeDataPermissions}
	seed := uint64(rand.Int64())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 29))
	outcomes, actions, reasons := map[string]int{}, map[Action]int{}, map[string]int{}
	for i := range 60 {
		src := sources[rng.IntN(len(sources))]
		archive := generate(t, rng, src)
		into := []string{src.folder, src.folder, fmt.Sprintf("/Restored/%d", i), "/Data"}[rng.IntN(4)]
		var opt Options
		for _, f := range flagsOf {
			if rng.IntN(2) == 0 {
				opt.Flags |= f
			}
		}
		opt.SkipUnchanged = rng.IntN(3) == 0
		name := fmt.Sprintf("%d %s into %s flags %s skip-unchanged %v", i, src.folder, into, opt.Flags, opt.SkipUnchanged)

		target, err := ReadTarget(ctx, client, api.Path(into))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		plan, err := Compute(archive, target, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sent bytes.Buffer
		if err := Trimmed(&sent, archive, plan, target, opt); err != nil {
			t.Fatal(err)
		}
		result, err := client.Restore(ctx, api.Path(into), bytes.NewReader(sent.Bytes()), int64(sent.Len()), opt.Flags, nil)
		refused := err != nil
		if err != nil && !api.IsConflict(err) && !api.IsBadRequest(err) {
			t.Fatalf("%s: restore: %v", name, err)
		}
		if refused != (plan.Outcome == OutcomeRefused) {
			t.Fatalf("%s: the plan says %s, the restore %v\nplan: %+v", name, plan.Outcome, err, plan.Files)
		}
		outcomes[plan.Outcome]++
		for _, f := range plan.Files {
			actions[f.Action]++
			if f.Action == Refuse {
				reasons[strings.Fields(f.Reason)[0]]++
			}
		}
		if refused {
			continue
		}
		var restored, planned, skipped, planSkipped []string
		for _, r := range result.Restored {
			if _, ok := model.KindOfPath(r); ok {
				restored = append(restored, r)
			}
		}
		for _, s := range result.Skipped {
			skipped = append(skipped, s.Path)
		}
		for _, f := range plan.Files {
			switch {
			case f.Action == Create, f.Action == Replace, f.Action == Unchanged && !opt.SkipUnchanged:
				planned = append(planned, f.Path)
			case f.Action == Skip:
				planSkipped = append(planSkipped, f.Path)
			}
		}
		for _, l := range [][]string{restored, planned, skipped, planSkipped} {
			slices.Sort(l)
		}
		if !slices.Equal(restored, planned) || !slices.Equal(skipped, planSkipped) {
			t.Fatalf("%s:\nrestored %v\nplanned  %v\nskipped %v\nplanned %v", name, restored, planned, skipped, planSkipped)
		}
	}
	t.Logf("outcomes %v, actions %v, refusals %v", outcomes, actions, reasons)
	if outcomes[OutcomeOK] == 0 || outcomes[OutcomeRefused] == 0 {
		t.Errorf("the generator made only %v", outcomes)
	}
	for _, a := range []Action{Create, Replace, Unchanged, Skip, Refuse} {
		if actions[a] == 0 {
			t.Errorf("no plan held %s: %v", a, actions)
		}
	}
}
