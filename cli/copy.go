package cli

import (
	"archive/zip"
	"bytes"
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
	cmd.Flags().StringVar(&secretsFile, "secrets", "", "JSON `FILE` of the secrets the target cannot open: {\"/source/path.dst\": {\"password\": \"…\"}}")
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
		// What the restore flags would restore is asked of the backup too.
		backupFlags := api.BackupIgnoreMissingDependencies
		for _, pair := range []struct {
			r api.RestoreFlags
			b api.BackupFlags
		}{{api.RestoreIncludeOwner, api.BackupIncludeOwner}, {api.RestoreIncludeGroupPermissions, api.BackupIncludeGroupPermissions},
			{api.RestoreIncludeSharing, api.BackupIncludeSharing}, {api.RestoreIncludeDataPermissions, api.BackupIncludeDataPermissions}} {
			if opt.Flags.Has(pair.r) {
				backupFlags |= pair.b
			}
		}
		var backup bytes.Buffer
		progress, end := newProgress(a.sys, "backup "+args[0])
		_, err = source.Backup(ctx, ref, backupFlags, &backup, progress)
		end()
		if err != nil {
			return fmt.Errorf("backup of %s: %w", ref, err)
		}
		archive, err := zip.NewReader(bytes.NewReader(backup.Bytes()), int64(backup.Len()))
		if err != nil {
			return fmt.Errorf("read the backup: %w", err)
		}
		plan, err := restoreplan.ReadTarget(ctx, target.AsReadOnly(), into)
		if err != nil {
			return fmt.Errorf("%s: %w", profile, err)
		}
		send := archive
		var needs []restoreplan.File
		var resealed bytes.Buffer
		if target.BaseURL() != source.BaseURL() {
			// Another platform opens no secret this one sealed.
			if needs, err = restoreplan.Reseal(&resealed, archive, secrets, plan.Folder); err != nil {
				return err
			}
			if send, err = zip.NewReader(bytes.NewReader(resealed.Bytes()), int64(resealed.Len())); err != nil {
				return err
			}
		}
		p, err := restoreplan.Compute(send, plan, opt)
		if err != nil {
			return err
		}
		p.Add(needs...)
		if dryRun || p.Outcome == restoreplan.OutcomeRefused {
			return showPlan(p, out)
		}
		var body bytes.Buffer
		if err := restoreplan.Trimmed(&body, send, p, plan, opt); err != nil {
			return err
		}
		progress, end = newProgress(a.sys, "restore into "+args[1])
		result, err := target.Restore(ctx, into, bytes.NewReader(body.Bytes()), int64(body.Len()), opt.Flags, progress)
		end()
		if err != nil {
			return fmt.Errorf("restore into %s: %w", args[1], err)
		}
		return showResult(result, out)
	})
	return cmd
}
