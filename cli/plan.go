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

// restorePlan prints what restoring archive into ref would do, through a
// client that refuses every write: a dry run changes nothing.
func (a *app) restorePlan(ctx context.Context, client *api.Client, ref api.Ref, archive io.ReaderAt, size int64, flags api.RestoreFlags, out *output) error {
	zr, err := zip.NewReader(archive, size)
	if err != nil {
		return fmt.Errorf("read the archive: %w", err)
	}
	target, err := restoreplan.ReadTarget(ctx, client, ref)
	if err != nil {
		return err
	}
	plan, err := restoreplan.Compute(zr, target, flags)
	if err != nil {
		return err
	}
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
