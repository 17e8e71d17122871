package cli

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/restoreplan"
)

// errPlanRefused is a dry run whose plan the platform would refuse.
var errPlanRefused = errors.New("the platform would refuse this restore")

// planRestore plans restoring archive into ref, through a client that
// refuses every write: planning changes nothing.
func planRestore(ctx context.Context, client *api.Client, ref api.Ref, archive io.ReaderAt, size int64, opt restoreplan.Options) (*zip.Reader, *restoreplan.Target, restoreplan.Plan, error) {
	zr, err := zip.NewReader(archive, size)
	if err != nil {
		return nil, nil, restoreplan.Plan{}, fmt.Errorf("read the archive: %w", err)
	}
	target, err := restoreplan.ReadTarget(ctx, client.AsReadOnly(), ref)
	if err != nil {
		return nil, nil, restoreplan.Plan{}, err
	}
	plan, err := restoreplan.Compute(zr, target, opt)
	return zr, target, plan, err
}

// showPlan prints a plan, refusals first; a plan the platform would refuse
// is a failure (exit 1).
func showPlan(plan restoreplan.Plan, out *output) error {
	t := newTable("ACTION", "PATH", "REASON")
	for _, f := range plan.Files {
		t.add(string(f.Action), f.Path, f.Reason)
	}
	if err := out.show(plan, t); err != nil {
		return err
	}
	if plan.Outcome == restoreplan.OutcomeRefused {
		return errPlanRefused
	}
	return nil
}
