package cli

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

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

// errDifferent is a diff that found differences: exit 1, as diff(1).
var errDifferent = errors.New("the archive and the folder differ")

func (a *app) folderDiff() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "diff REF FILE",
		Short: "what differs between a backup and the folder now: added, removed and changed files, field by field (exit 1 when they differ)",
		Args:  cobra.ExactArgs(2),
	}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, client, err := a.refAndClient(out, args[0])
		if err != nil {
			return err
		}
		archive, size, err := openArchive(args[1])
		if err != nil {
			return err
		}
		defer archive.Close()
		zr, err := zip.NewReader(archive, size)
		if err != nil {
			return fmt.Errorf("read the archive: %w", err)
		}
		target, err := restoreplan.ReadTarget(ctx, client.AsReadOnly(), ref)
		if err != nil {
			return err
		}
		changes, err := restoreplan.Diff(zr, target)
		if err != nil {
			return err
		}
		t := newTable("CHANGE", "PATH", "FIELD", "ARCHIVE", "LIVE")
		for _, c := range changes {
			t.add(c.Change, c.Path)
			for _, f := range c.Fields {
				if f.Secret {
					f.Archive, f.Live = "(secret)", "(secret, changed)"
				}
				t.add("", "", f.Field, f.Archive, f.Live)
			}
		}
		if err := out.show(changes, t); err != nil {
			return err
		}
		if len(changes) > 0 {
			return fmt.Errorf("%d file(s): %w", len(changes), errDifferent)
		}
		return nil
	})
	return cmd
}

// openArchive opens a local ZIP archive for reading, with its size.
func openArchive(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}
