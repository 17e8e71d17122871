package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/restoreplan"
)

func (a *app) folderCopy() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "copy REF PROFILE:REF",
		Short: "copy a folder to another platform (a saved profile), streamed, with the target's plan first",
		Args:  cobra.ExactArgs(2),
	}
	out := addOutput(cmd, a.sys)
	var dryRun bool
	var secretsFile string
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the target's plan, and send nothing that writes")
	cmd.Flags().StringVar(&secretsFile, "secrets", "", "JSON `FILE` of the secrets the target cannot open: {\"/source/path.dst\": {\"password\": \"…\"}}; a SECURE: value (encrypt.sh on the target) is sent as it is, any other plain inside the archive, which the target seals")
	flags := addFlagSet(cmd, api.AllRestoreFlags(), api.RestoreFlags.Names, "restore")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		if err := out.check(); err != nil {
			return err
		}
		ref, err := parseRef(args[0])
		if err != nil {
			return err
		}
		profile, rest, ok := strings.Cut(args[1], ":")
		if !ok || profile == "" {
			return usage("%q: want PROFILE:REF, e.g. prod:/Data", args[1])
		}
		into, err := parseRef(rest)
		if err != nil {
			return err
		}
		secrets := restoreplan.Secrets{}
		if secretsFile != "" {
			body, err := os.ReadFile(secretsFile)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(body, &secrets); err != nil {
				return usage("--secrets %s: want {\"/path.dst\": {\"property\": \"value\"}}: %v", secretsFile, err)
			}
		}
		source, err := a.connect()
		if err != nil {
			return err
		}
		target, err := a.connectTo(credentials.Request{Profile: profile, ReadOnly: a.req.ReadOnly})
		if err != nil {
			return err
		}
		opt := restoreplan.Options{Flags: flags.value()}
		progress, end := newProgress(a.sys, "backup "+args[0])
		backup, err := restoreplan.ReadSource(ctx, source, restoreplan.Source{Folder: ref}, opt.Flags, progress)
		end()
		if err != nil {
			return err
		}
		// Another platform opens no secret this one sealed. The command line
		// has no key of the target's: a value of --secrets goes as given, a
		// SECURE: one (encrypt.sh on the target) sealed, any other plain
		// inside the archive, which the target seals.
		c, err := restoreplan.PlanCopy(ctx, backup, target, into, target.BaseURL() != source.BaseURL(), secrets, nil, opt)
		if err != nil {
			return fmt.Errorf("%s: %w", profile, err)
		}
		if dryRun || c.Plan.Outcome == restoreplan.OutcomeRefused {
			return showPlan(c.Plan, out)
		}
		progress, end = newProgress(a.sys, "restore into "+args[1])
		result, err := c.Send(ctx, target, into, opt, progress)
		end()
		if err != nil {
			return fmt.Errorf("restore into %s: %w", args[1], err)
		}
		return showResult(result, out)
	})
	return cmd
}
