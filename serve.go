package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
)

// shutdownGrace is how long requests in flight get to finish on SIGINT/SIGTERM.
const shutdownGrace = 10 * time.Second

// runServe runs the embedded platform in the foreground until SIGINT or SIGTERM.
func runServe(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (HOST:PORT; port 0 picks a free one)")
	dataDir := fs.String("data", "", "data directory (created if missing)")
	demo := fs.Bool("demo-data", false, "seed demo users and a demo tree into an empty data directory")
	maxJobs := fs.Int("max-jobs", 0, "job executions running at once (0: the CPU count)")
	maxRunsPerUser := fs.Int("max-runs-per-user", jobs.DefaultMaxRunsPerUser, "job executions one user may have queued or running at once")
	maxWorkbookBytes := fs.Int64("max-workbook-bytes", jobs.DefaultMaxWorkbookBytes, "bytes one workbook run's result may hold")
	maxQueryTime := fs.Duration("max-query-time", jobs.DefaultMaxQueryTime, "how long the SQL of one workbook run or SQLite import may run")
	maxRunningPerUser := fs.Int("max-running-per-user", 0, "job executions of one user running at once (0: half of --max-jobs, at least 1)")
	var fileRoots []string
	fs.Func("file-root", "a directory file-system and SQLite connections may reach, besides DATA/files (repeatable)", appendDir(&fileRoots))
	defaults := archive.DefaultLimits
	var limits archive.Limits
	fs.Int64Var(&limits.MaxUploadBytes, "restore-max-upload", defaults.MaxUploadBytes, "bytes a restore upload (the ZIP as sent) may hold")
	fs.Int64Var(&limits.MaxTotalBytes, "restore-max-total", defaults.MaxTotalBytes, "uncompressed bytes a restore archive may hold in all")
	fs.Int64Var(&limits.MaxEntryBytes, "restore-max-entry", defaults.MaxEntryBytes, "uncompressed bytes one entry of a restore archive may hold")
	fs.IntVar(&limits.MaxEntries, "restore-max-entries", defaults.MaxEntries, "entries a restore archive may hold")
	fs.IntVar(&limits.MaxDepth, "restore-max-depth", defaults.MaxDepth, "folders deep an entry of a restore archive may lie")
	fs.IntVar(&limits.MaxPathBytes, "restore-max-path", defaults.MaxPathBytes, "bytes an entry's path in a restore archive may hold")
	t := server.DefaultTimeouts
	fs.DurationVar(&t.Header, "read-header-timeout", t.Header, "how long a client may take to send a request's headers")
	fs.DurationVar(&t.Read, "read-timeout", t.Read, "how long a client may take to send a request's body (a restore upload: while it keeps --min-upload-rate)")
	fs.DurationVar(&t.Write, "write-timeout", t.Write, "how long an answer may take to be written (a backup download: while it moves)")
	fs.DurationVar(&t.Idle, "idle-timeout", t.Idle, "how long a connection may wait for its next request")
	fs.Int64Var(&t.MinUploadRate, "min-upload-rate", t.MinUploadRate, "bytes a second a restore upload must keep coming at, once older than --read-timeout")
	maxUploads := fs.Int("max-uploads-per-user", server.DefaultMaxUploadsPerUser, "restore uploads one user may have in progress at once (past it: 429)")
	maxSpool := fs.Int64("max-spool-per-user", server.DefaultMaxSpoolPerUser, "bytes one user's restore uploads in progress may spool together (past it: 413)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if t.Header <= 0 || t.Read <= 0 || t.Write <= 0 || t.Idle <= 0 || t.MinUploadRate <= 0 || *maxUploads <= 0 || *maxSpool <= 0 {
		return errors.New("serve: the timeouts, --min-upload-rate, --max-uploads-per-user and --max-spool-per-user must be positive")
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	if *dataDir == "" {
		return errors.New("serve: --data DIR is required")
	}
	if !positiveLimits(limits) {
		return errors.New("serve: the --restore-max-* caps must be positive")
	}
	if *maxRunsPerUser <= 0 || *maxWorkbookBytes <= 0 || *maxQueryTime <= 0 || *maxRunningPerUser < 0 {
		return errors.New("serve: --max-runs-per-user, --max-workbook-bytes and --max-query-time must be positive, --max-running-per-user not negative")
	}
	cfg := server.Config{DataDir: *dataDir, DemoData: *demo, AdminPassword: os.Getenv("DAP_ADMIN_PASSWORD"),
		MaxConcurrentJobs: *maxJobs, ArchiveLimits: limits, MaxRunsPerUser: *maxRunsPerUser, MaxWorkbookBytes: *maxWorkbookBytes,
		MaxQueryTime: *maxQueryTime, MaxRunningPerUser: *maxRunningPerUser,
		Timeouts: t, MaxUploadsPerUser: *maxUploads, MaxSpoolPerUser: *maxSpool}
	if len(fileRoots) > 0 {
		// The demo's and the console's file connections live in DATA/files; a
		// root given here widens what connections reach, never narrows it.
		cfg.FileRoots = append([]string{server.FilesDir(*dataDir)}, fileRoots...)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	running, err := server.Start(cfg, *addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Println("listening on " + running.URL)
	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := running.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	return nil
}

// appendDir is a flag's setter that adds an existing directory to dirs.
func appendDir(dirs *[]string) func(string) error {
	return func(dir string) error {
		info, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		*dirs = append(*dirs, dir)
		return nil
	}
}

// positiveLimits says whether every restore cap is above zero: a zero or
// negative cap would refuse every archive.
func positiveLimits(l archive.Limits) bool {
	return l.MaxUploadBytes > 0 && l.MaxTotalBytes > 0 && l.MaxEntryBytes > 0 && l.MaxEntries > 0 && l.MaxDepth > 0 && l.MaxPathBytes > 0
}

// runEncrypt prints the SECURE:<n>:<s> form of a value, sealed with the key
// of a data directory, for connection payloads that must not carry a secret
// in plain text (the platform's `encrypt.sh -v <value>`).
func runEncrypt(args []string) error {
	fs := flag.NewFlagSet("encrypt", flag.ContinueOnError)
	value := fs.String("v", "", "the value to encrypt; - reads it from the first line of standard input (kept out of ps and shell history)")
	dataDir := fs.String("data", "", "data directory of the server that will read the value")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *value == "-" {
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("encrypt: read standard input: %w", err)
		}
		*value = strings.TrimRight(line, "\r\n")
	}
	if *dataDir == "" || *value == "" {
		return errors.New("encrypt: usage: dapconsole encrypt -v VALUE|- --data DIR")
	}
	// Only an existing key: OpenSecrets would make one in a mistyped or new
	// directory, and the value it sealed would open on no server.
	if _, err := os.Stat(filepath.Join(*dataDir, store.KeyFile)); err != nil {
		return fmt.Errorf("encrypt: %s holds no %s: give the data directory of the server that will read the value (a server makes its key on its first start): %w",
			*dataDir, store.KeyFile, err)
	}
	secrets, err := store.OpenSecrets(*dataDir)
	if err != nil {
		return fmt.Errorf("encrypt: %w", err)
	}
	fmt.Println(secrets.Seal(*value))
	return nil
}
