package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// pollEvery is how often trigger --wait and log -f ask the platform again.
var pollEvery = time.Second

func (a *app) jobCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "job", Short: "list, follow, trigger and stop jobs"}
	cmd.AddCommand(a.jobLs(), a.jobStatus(), a.jobHistory(), a.jobDetails(), a.jobLog(), a.jobTrigger(), a.jobStop(), a.jobSeq())
	return cmd
}

func timeText(d model.DateTime) string {
	if !d.Valid() {
		return ""
	}
	return d.Time.Format(time.DateTime)
}

func idText(id *int64) string {
	if id == nil {
		return ""
	}
	return strconv.FormatInt(*id, 10)
}

// jobEntry is a job of job ls in json: the per-kind list's entry, its kind
// and its status read.
type jobEntry struct {
	model.FileEntry
	Kind   model.Kind      `json:"kind"`
	Status model.JobStatus `json:"job-status"`
}

func (a *app) jobLs() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "every job with its last state (--running: the running ones, as list-running gives them)",
		Args:  cobra.NoArgs,
	}
	out := addOutput(cmd, a.sys)
	var running bool
	cmd.Flags().BoolVar(&running, "running", false, "only the queued and running jobs")
	cmd.RunE = a.run(func(ctx context.Context, _ []string) error {
		if err := out.check(); err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		if running {
			jobs, err := client.RunningJobs(ctx)
			if err != nil {
				return fmt.Errorf("list the running jobs: %w", err)
			}
			t := newTable("EXECUTION", "STATE", "JOB", "FILE ID", "STARTED")
			for _, j := range jobs {
				started := ""
				if !j.StartTime.Time().IsZero() {
					started = j.StartTime.Time().Format(time.DateTime)
				}
				t.add(strconv.FormatInt(j.JobExecutionID, 10), string(j.JobStatus), j.FileName, strconv.FormatInt(j.FileID, 10), started)
			}
			return out.show(jobs, t)
		}
		index, err := api.ReadFileIndex(ctx, client)
		if err != nil {
			return err
		}
		jobs := []jobEntry{}
		t := newTable("PATH", "KIND", "STATE", "EXECUTION", "STOPPED")
		for _, kind := range api.ListedKinds {
			if !kind.Runnable() {
				continue
			}
			for _, e := range index.OfKind(kind) {
				status, err := client.JobStatus(ctx, api.UUID(e.UUID))
				if err != nil {
					return fmt.Errorf("read the status of %s: %w", e.Path, err)
				}
				jobs = append(jobs, jobEntry{FileEntry: e.FileEntry, Kind: kind, Status: status})
				t.add(e.Path, string(kind), string(status.JobStatus), idText(status.JobExecutionID), timeText(status.StopTime))
			}
		}
		return out.show(jobs, t)
	})
	return cmd
}

func (a *app) jobStatus() *cobra.Command {
	cmd := &cobra.Command{Use: "status REF", Short: "the status of the job a file holds", Args: cobra.ExactArgs(1)}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, client, err := a.refAndClient(out, args[0])
		if err != nil {
			return err
		}
		status, err := client.JobStatus(ctx, ref)
		if err != nil {
			return fmt.Errorf("status of %s: %w", ref, err)
		}
		t := newTable("STATE", "EXECUTION", "STARTED", "STOPPED", "REASON")
		t.add(string(status.JobStatus), idText(status.JobExecutionID), timeText(status.StartTime), timeText(status.StopTime), status.Reason)
		return out.show(status, t)
	})
	return cmd
}

// refAndClient checks the output format and the ref, then connects.
func (a *app) refAndClient(out *output, arg string) (api.Ref, *api.Client, error) {
	if err := out.check(); err != nil {
		return api.Ref{}, nil, err
	}
	ref, err := parseRef(arg)
	if err != nil {
		return ref, nil, err
	}
	client, err := a.connect()
	return ref, client, err
}

func (a *app) jobHistory() *cobra.Command {
	cmd := &cobra.Command{Use: "history REF", Short: "the executions of the job a file holds, newest first", Args: cobra.ExactArgs(1)}
	out := addOutput(cmd, a.sys)
	var length int
	cmd.Flags().IntVar(&length, "limit", 50, "at most `N` executions (0: as many as the platform gives)")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, client, err := a.refAndClient(out, args[0])
		if err != nil {
			return err
		}
		// The history is a configuration's: its id comes from the details of
		// the job's newest execution, as the console finds it.
		status, err := client.JobStatus(ctx, ref)
		if err != nil {
			return fmt.Errorf("history of %s: %w", ref, err)
		}
		entries := []model.HistoryEntry{}
		if status.JobExecutionID != nil {
			details, err := client.JobDetails(ctx, *status.JobExecutionID)
			if err != nil {
				return fmt.Errorf("history of %s: %w", ref, err)
			}
			if entries, err = client.JobHistory(ctx, details.JobConfigurationID, 0, length); err != nil {
				return fmt.Errorf("history of %s: %w", ref, err)
			}
		}
		t := newTable("EXECUTION", "STATE", "STARTED", "STOPPED", "USER")
		for _, e := range entries {
			t.add(strconv.FormatInt(e.ID, 10), string(e.JobStatus), timeText(e.StartTime), timeText(e.StopTime), e.User)
		}
		return out.show(entries, t)
	})
	return cmd
}

func (a *app) jobDetails() *cobra.Command {
	cmd := &cobra.Command{Use: "details EXEC", Short: "the details of one execution: times, counts and counters", Args: cobra.ExactArgs(1)}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		if err := out.check(); err != nil {
			return err
		}
		exec, err := parseID("execution", args[0])
		if err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		d, err := client.JobDetails(ctx, exec)
		if err != nil {
			return fmt.Errorf("details of execution %d: %w", exec, err)
		}
		t := newTable("FIELD", "VALUE")
		t.add("state", string(d.JobStatus))
		t.add("configuration", strconv.FormatInt(d.JobConfigurationID, 10))
		t.add("file", strconv.FormatInt(d.File.ID, 10))
		t.add("started", timeText(d.StartTime))
		t.add("stopped", timeText(d.StopTime))
		t.add("succeeded", strconv.FormatInt(d.SuccessCount, 10))
		t.add("failed", strconv.FormatInt(d.FailureCount, 10))
		for _, name := range slices.Sorted(maps.Keys(d.Counters)) {
			t.add(name, strconv.FormatInt(d.Counters[name], 10))
		}
		return out.show(d, t)
	})
	return cmd
}

func (a *app) jobLog() *cobra.Command {
	cmd := &cobra.Command{Use: "log EXEC", Short: "an execution's log (-f: follow it until the execution ends)", Args: cobra.ExactArgs(1)}
	var follow bool
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "print what the log gains until the execution ends")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		exec, err := parseID("execution", args[0])
		if err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		var shown string
		for {
			// The state is read before the log, so the log read after the
			// execution ended is complete.
			var final bool
			if follow {
				d, err := client.JobDetails(ctx, exec)
				if err != nil {
					return fmt.Errorf("details of execution %d: %w", exec, err)
				}
				final = d.JobStatus.Final()
			}
			text, _, err := client.JobLog(ctx, exec)
			if err != nil {
				return fmt.Errorf("log of execution %d: %w", exec, err)
			}
			// A log cut to its last part moves under what was shown: print
			// what follows the part shown, or all of it when they no longer meet.
			fresh := text
			if rest, ok := strings.CutPrefix(text, shown); ok {
				fresh = rest
			}
			writeLog(a.sys, fresh)
			shown = text
			if !follow || final {
				return nil
			}
			if err := sleep(ctx, pollEvery); err != nil {
				return err
			}
		}
	})
	return cmd
}

// writeLog prints log text cleaned line by line: a log is the server's.
func writeLog(sys System, text string) {
	if text == "" {
		return
	}
	for line := range strings.Lines(text) {
		fmt.Fprint(sys.Stdout, model.Clean(strings.TrimRight(line, "\r\n"))+"\n")
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errRunFailed is a waited-for run that did not end COMPLETED.
var errRunFailed = errors.New("the run did not complete")

func (a *app) jobTrigger() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trigger REF",
		Short: "start the job a file holds (--wait: until it ends; exit 0 only when it completed)",
		Args:  cobra.ExactArgs(1),
	}
	out := addOutput(cmd, a.sys)
	var wait bool
	cmd.Flags().BoolVar(&wait, "wait", false, "wait for the run to end: exit 0 when COMPLETED (or with warnings, said on stderr), 1 otherwise")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, client, err := a.refAndClient(out, args[0])
		if err != nil {
			return err
		}
		triggered, err := client.TriggerJob(ctx, ref)
		if err != nil {
			return fmt.Errorf("trigger %s: %w", ref, err)
		}
		if !wait {
			t := newTable("EXECUTION", "STATUS", "USER")
			t.add(strconv.FormatInt(triggered.JobExecutionID, 10), triggered.Status, triggered.JobExecutionUser)
			return out.show(triggered, t)
		}
		var d model.JobDetails
		for {
			if d, err = client.JobDetails(ctx, triggered.JobExecutionID); err != nil {
				return fmt.Errorf("follow execution %d of %s: %w", triggered.JobExecutionID, ref, err)
			}
			if d.JobStatus.Final() {
				break
			}
			if err := sleep(ctx, pollEvery); err != nil {
				return err
			}
		}
		t := newTable("EXECUTION", "STATE", "STARTED", "STOPPED", "SUCCEEDED", "FAILED")
		t.add(strconv.FormatInt(triggered.JobExecutionID, 10), string(d.JobStatus), timeText(d.StartTime), timeText(d.StopTime),
			strconv.FormatInt(d.SuccessCount, 10), strconv.FormatInt(d.FailureCount, 10))
		if err := out.show(d, t); err != nil {
			return err
		}
		switch d.JobStatus.Canonical() {
		case model.StateCompleted:
			return nil
		case model.StateCompletedWithWarnings:
			fmt.Fprintf(a.sys.Stderr, "dapconsole: warning: execution %d of %s completed with warnings\n", triggered.JobExecutionID, model.Clean(ref.String()))
			return nil
		}
		reason := ""
		if status, err := client.JobStatus(ctx, ref); err == nil && status.Reason != "" {
			reason = ": " + status.Reason
		}
		return fmt.Errorf("execution %d of %s ended %s%s: %w", triggered.JobExecutionID, ref, d.JobStatus, reason, errRunFailed)
	})
	return cmd
}

func (a *app) jobStop() *cobra.Command {
	cmd := &cobra.Command{Use: "stop REF", Short: "stop the queued and running executions of the job a file holds", Args: cobra.ExactArgs(1)}
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		ref, err := parseRef(args[0])
		if err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		if err := client.StopJob(ctx, ref); err != nil {
			return fmt.Errorf("stop %s: %w", ref, err)
		}
		fmt.Fprintf(a.sys.Stderr, "stopped %s\n", model.Clean(ref.String()))
		return nil
	})
	return cmd
}

func (a *app) jobSeq() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "seq REF...",
		Short: "trigger files and everything downstream of them in order (the sequential trigger)",
		Args:  cobra.MinimumNArgs(1),
	}
	out := addOutput(cmd, a.sys)
	var vars []string
	cmd.Flags().StringArrayVar(&vars, "var", nil, "a variable of the run, `NAME=VALUE` (repeatable)")
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		if err := out.check(); err != nil {
			return err
		}
		variables := map[string]string{}
		for _, v := range vars {
			name, value, ok := strings.Cut(v, "=")
			if !ok || name == "" {
				return usage("--var %q: want NAME=VALUE", v)
			}
			variables[name] = value
		}
		refs := make([]api.Ref, len(args))
		for i, arg := range args {
			var err error
			if refs[i], err = parseRef(arg); err != nil {
				return err
			}
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		// A job's path is found in the per-kind lists, read once for them
		// all (Addressed reads them, after a walk, for each path); a path
		// they lack goes to Addressed for its error, or a folder's id.
		var index *api.FileIndex
		ids := make([]int64, len(refs))
		for i, ref := range refs {
			if ref.IsPath() && index == nil {
				if index, err = api.ReadFileIndex(ctx, client); err != nil {
					return fmt.Errorf("find %s: %w", args[i], err)
				}
			}
			if e, ok := index.ByPath(ref.String()); ok && e.UUID != "" {
				ref = api.UUID(e.UUID)
			} else if ref, err = client.Addressed(ctx, ref); err != nil {
				return fmt.Errorf("find %s: %w", args[i], err)
			}
			file, err := client.File(ctx, ref)
			if err != nil {
				return fmt.Errorf("read %s: %w", ref, err)
			}
			ids[i] = file.ID()
		}
		plan, err := client.TriggerSequence(ctx, ids, variables)
		if err != nil {
			return fmt.Errorf("sequential trigger of %s: %w", strings.Join(args, ", "), err)
		}
		t := newTable("JOB", "CONFIGURATION", "TRIGGERED", "EXECUTION")
		for _, e := range plan.ExecutionPlan {
			t.add(path.Base(e.JobConfigurationName), strconv.FormatInt(e.JobConfigurationID, 10), strconv.FormatBool(e.Trigger), strconv.FormatInt(e.JobExecutionID, 10))
		}
		return out.show(plan, t)
	})
	return cmd
}
