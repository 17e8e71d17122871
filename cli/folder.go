package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/restoreplan"
)

func (a *app) folderCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "folder", Short: "list, back up, restore, diff, copy and share folders"}
	cmd.AddCommand(a.folderLs(), a.folderBackup(), a.folderRestore(), a.folderDiff(), a.folderCopy(), a.folderPerm())
	return cmd
}

// run wraps a command's work: it gets a context that Ctrl-C cancels, and
// its errors are failures (exit 1) unless marked as usage.
func (a *app) run(work func(ctx context.Context, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		ctx, stop := interruptible(cmd.Context())
		defer stop()
		err := work(ctx, args)
		if err != nil && ctx.Err() != nil {
			return failed(fmt.Errorf("cancelled: %w", err))
		}
		return failed(err)
	}
}

// listedFile is a file of a folder as folder ls writes it in json: the
// per-kind list's entry, its kind, and a job's last status.
type listedFile struct {
	model.FileEntry
	Kind   model.Kind       `json:"kind"`
	Status *model.JobStatus `json:"job-status,omitempty"`
}

// folderListing is folder ls in json: the platform's folder read and the
// files the per-kind lists name inside it.
type folderListing struct {
	Folder model.Folder `json:"folder"`
	Files  []listedFile `json:"files"`
}

func (a *app) folderLs() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ls [REF]",
		Short: "list a folder's sub-folders and files (kind, REF, configuration id, job state); REF is a path, UUID or file id, / by default",
		Args:  cobra.MaximumNArgs(1),
	}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		if err := out.check(); err != nil {
			return err
		}
		ref := api.Path("/")
		if len(args) == 1 {
			var err error
			if ref, err = parseRef(args[0]); err != nil {
				return err
			}
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		listing, err := listFolder(ctx, client, ref)
		if err != nil {
			return err
		}
		// REF is what the other commands take for the row: a folder's file
		// id, a file's UUID. A file's id in the lists is its configuration
		// id (CONF, what conn takes), which a REF would read as another
		// file's id: `job trigger` with it could start another job.
		t := newTable("KIND", "REF", "CONF", "NAME", "STATE")
		for _, f := range listing.Folder.Embedded.Folders {
			t.add(string(model.KindFolder), strconv.FormatInt(f.ID(), 10), "", f.Name+"/", "")
		}
		for _, f := range listing.Files {
			state := ""
			if f.Status != nil {
				state = string(f.Status.JobStatus)
			}
			ref := f.UUID
			if ref == "" {
				ref = f.Path
			}
			t.add(string(f.Kind), ref, strconv.FormatInt(f.ID, 10), path.Base(f.Path), state)
		}
		return out.show(listing, t)
	})
	return cmd
}

// listFolder reads a folder and the files in it, with the last state of
// those that run as jobs.
func listFolder(ctx context.Context, client *api.Client, ref api.Ref) (folderListing, error) {
	var listing folderListing
	var err error
	if ref.IsPath() {
		// FolderByPath names the folder it could not read.
		if listing.Folder, err = client.FolderByPath(ctx, ref.String()); err != nil {
			return listing, err
		}
	} else if listing.Folder, err = client.Folder(ctx, ref); err != nil {
		return listing, fmt.Errorf("read folder %s: %w", ref, err)
	}
	dir := ref.String()
	if !ref.IsPath() {
		file, err := client.File(ctx, ref)
		if err != nil {
			return listing, fmt.Errorf("read the path of %s: %w", ref, err)
		}
		dir = file.Path
	}
	index, err := api.ReadFileIndex(ctx, client)
	if err != nil {
		return listing, err
	}
	listing.Files = []listedFile{}
	// Cleaned as the walk reads it: /Data//ImportJobs/ is /Data/ImportJobs.
	for _, e := range index.In(path.Clean(dir)) {
		f := listedFile{FileEntry: e.FileEntry, Kind: e.Kind}
		if e.Kind.Runnable() {
			status, err := client.JobStatus(ctx, api.UUID(e.UUID))
			if err != nil {
				return listing, fmt.Errorf("read the status of %s: %w", e.Path, err)
			}
			f.Status = &status
		}
		listing.Files = append(listing.Files, f)
	}
	return listing, nil
}

// kebab writes a wire flag name (includeOwner) as a command-line flag
// (include-owner).
func kebab(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// flagSet gives a command one boolean flag per wire flag, in kebab case,
// and reads back which were set.
type flagSet[F ~uint16] struct {
	all  []F
	on   []bool
	name func(F) []string
}

func addFlagSet[F ~uint16](cmd *cobra.Command, all []F, names func(F) []string, what string) *flagSet[F] {
	s := &flagSet[F]{all: all, on: make([]bool, len(all)), name: names}
	for i, f := range all {
		wire := names(f)[0]
		help := flagHelp[what+" "+wire]
		if help == "" {
			help = flagHelp[wire]
		}
		cmd.Flags().BoolVar(&s.on[i], kebab(wire), false, help+" ("+wire+")")
	}
	return s
}

// flagHelp says what each flag of backup and restore does, by wire name,
// or by "backup NAME" / "restore NAME" where the two differ.
var flagHelp = map[string]string{
	model.FlagIgnoreMissingDependencies:                     "back up files whose dependencies are outside the folder",
	"backup " + model.FlagSkipFilesWithMissingDependencies:  "leave out files whose dependencies are outside the folder",
	"restore " + model.FlagSkipFilesWithMissingDependencies: "leave out files whose dependencies are neither in the archive nor on the platform",
	model.FlagIncludeDataPermissions:                        "with the workbooks' data permissions",
	model.FlagIncludeGroupPermissions:                       "with the group permissions",
	model.FlagIncludeSharing:                                "with the sharing (others' permission)",
	model.FlagIncludeOwner:                                  "with the owners",
	model.FlagOverwrite:                                     "replace the files that exist",
	model.FlagIgnoreUnknownGroups:                           "leave out the permissions of groups the platform does not know",
	model.FlagSubstituteMissingUser:                         "own the files whose owner the platform does not know",
}

func (s *flagSet[F]) value() F {
	var v F
	for i, f := range s.all {
		if s.on[i] {
			v |= f
		}
	}
	return v
}

func (a *app) folderBackup() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "backup REF -o FILE",
		Short: "download a folder, or chosen files of it (--ids), as a ZIP archive",
		Args:  cobra.ExactArgs(1),
	}
	var file string
	var ids []string
	cmd.Flags().StringVarP(&file, "output", "o", "", "the archive's `FILE`, written only when the whole backup arrived")
	cmd.Flags().StringSliceVar(&ids, "ids", nil, "back up only these files of the folder (file ids, UUIDs or paths, comma-separated)")
	flags := addFlagSet(cmd, api.AllBackupFlags(), api.BackupFlags.Names, "backup")
	_ = cmd.MarkFlagRequired("output")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, err := parseRef(args[0])
		if err != nil {
			return err
		}
		files := make([]api.Ref, len(ids))
		for i, id := range ids {
			if files[i], err = parseRef(id); err != nil {
				return err
			}
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		progress, end := newProgress(a.sys, "backup "+args[0])
		defer end()
		var n int64
		err = writeAtomically(ctx, file, func(f *os.File) error {
			var err error
			if len(files) > 0 {
				n, err = client.BackupFiles(ctx, ref, files, flags.value(), f, progress)
			} else {
				n, err = client.Backup(ctx, ref, flags.value(), f, progress)
			}
			switch {
			case api.IsConflict(err):
				// The platform's reason names its query flags
				// (ignoreMissingDependencies), which this command spells otherwise.
				return fmt.Errorf("backup of %s: %w (here: --ignore-missing-dependencies or --skip-files-with-missing-dependencies)", ref, err)
			case err != nil:
				return fmt.Errorf("backup of %s: %w", ref, err)
			}
			return nil
		})
		end()
		if err != nil {
			return err
		}
		fmt.Fprintf(a.sys.Stderr, "%s: %d bytes\n", file, n)
		return nil
	})
	return cmd
}

func (a *app) folderRestore() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "restore REF FILE",
		Short: "restore a ZIP archive into a folder (--dry-run: say what would happen, change nothing)",
		Args:  cobra.ExactArgs(2),
	}
	out := addOutput(cmd, a.sys)
	var dryRun, skipUnchanged bool
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what the restore would do for every entry, and send nothing that writes")
	cmd.Flags().BoolVar(&skipUnchanged, "skip-unchanged", false, "leave out the files whose configuration is the same as the platform's (a connection in use then need not be overwritten)")
	flags := addFlagSet(cmd, api.AllRestoreFlags(), api.RestoreFlags.Names, "restore")
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
		var send io.Reader = archive
		opt := restoreplan.Options{Flags: flags.value(), SkipUnchanged: skipUnchanged}
		if dryRun || skipUnchanged {
			zr, target, plan, err := planRestore(ctx, client, ref, archive, size, opt)
			if err != nil {
				return err
			}
			if dryRun || plan.Outcome == restoreplan.OutcomeRefused {
				return showPlan(plan, out)
			}
			if plan.Count(restoreplan.Unchanged) == len(plan.Files) {
				fmt.Fprintf(a.sys.Stderr, "%d file(s) unchanged: nothing sent\n", len(plan.Files))
				return out.show(model.RestoreResult{Status: "success", Restored: []string{}, Skipped: []model.SkippedFile{}}, newTable("PATH", "OUTCOME", "REASON"))
			}
			var trimmed bytes.Buffer
			if err := restoreplan.Trimmed(&trimmed, zr, plan, target, opt); err != nil {
				return err
			}
			fmt.Fprintf(a.sys.Stderr, "%d unchanged file(s) left out\n", plan.Count(restoreplan.Unchanged))
			send, size = &trimmed, int64(trimmed.Len())
		}
		progress, end := newProgress(a.sys, "restore "+args[1])
		result, err := client.Restore(ctx, ref, send, size, opt.Flags, progress)
		end()
		if err != nil {
			return fmt.Errorf("restore into %s: %w", ref, err)
		}
		return showResult(result, out)
	})
	return cmd
}

// showResult prints what a restore did.
func showResult(result model.RestoreResult, out *output) error {
	t := newTable("PATH", "OUTCOME", "REASON")
	for _, p := range result.Restored {
		t.add(p, "restored", "")
	}
	for _, s := range result.Skipped {
		t.add(s.Path, "skipped", s.Reason)
	}
	for _, s := range result.KeptHidden {
		t.add(s.Path, "kept hidden properties", s.Reason)
	}
	return out.show(result, t)
}
