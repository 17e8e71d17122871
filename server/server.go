package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/backup"
	"github.com/dapconsole/dapconsole/server/jobs"
	"github.com/dapconsole/dapconsole/server/store"
	"golang.org/x/crypto/bcrypt"
)

// DefaultMaxBodyBytes caps JSON request bodies when Config.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 1 << 20

// Config sets up a server.
type Config struct {
	// DataDir holds the database, the secrets key and the files/ folder.
	DataDir string
	// DemoData seeds demo users and a demo tree into an empty data directory.
	DemoData bool
	// AdminPassword is the password of the `admin` user created in an empty
	// data directory when DemoData is off; required then.
	AdminPassword string
	// FileRoots are the directories file-system and SQLite connections may
	// reach; empty means the data directory's files/ folder.
	FileRoots []string
	// PasswordCost is the bcrypt cost of new password hashes and the least
	// work of every password check, known name or not; 0 means
	// bcrypt.DefaultCost. Tests that start many servers lower it: under the
	// race detector one check at the default cost takes seconds.
	PasswordCost int
	// MaxBodyBytes caps JSON request bodies (413 past it); 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// ArchiveLimits caps restore uploads; zero fields take archive.DefaultLimits.
	ArchiveLimits archive.Limits
	// MaxConcurrentJobs bounds the job executions running at once; 0 means the CPU count.
	MaxConcurrentJobs int
	// MaxRunsPerUser, MaxWorkbookBytes, MaxQueryTime and MaxRunningPerUser
	// are the engine's caps (jobs.Config); 0 takes its default.
	MaxRunsPerUser    int
	MaxWorkbookBytes  int64
	MaxQueryTime      time.Duration
	MaxRunningPerUser int
	// Timeouts bound how long a client may hold a connection; zero fields
	// take DefaultTimeouts.
	Timeouts Timeouts
	// MaxUploadsPerUser bounds one user's restore uploads in progress (each
	// spools at most ArchiveLimits.MaxUploadBytes); 0 means DefaultMaxUploadsPerUser.
	MaxUploadsPerUser int
	// MaxSpoolPerUser bounds the bytes one user's restore uploads in
	// progress spool together; 0 means DefaultMaxSpoolPerUser.
	MaxSpoolPerUser int64
	// BackupHooks let tests see and steer a restore's phases (backup.Hooks).
	BackupHooks backup.Hooks
	// LicenseExpires is the end of the licence /rest/license-details
	// answers; zero is a licence without end.
	LicenseExpires time.Time
}

// spoolDir is where restore uploads wait, as temporary files, to be applied.
func spoolDir(dataDir string) string { return filepath.Join(dataDir, "tmp") }

// FilesDir is the folder inside a data directory that holds the files
// file-system connections read and write.
func FilesDir(dataDir string) string { return filepath.Join(dataDir, "files") }

// Server is the embedded platform: its store, handlers and job engine.
type Server struct {
	cfg     Config
	store   *store.Store
	backups *backup.Service
	auth    *authCache
	jobs    *jobs.Engine
	uploads uploads
	// started is when New returned: the start of the licence.
	started time.Time
}

// New opens the data directory, creating the first users (demo data, or
// `admin` with cfg.AdminPassword) when it is empty, and starts the job engine.
func New(cfg Config) (*Server, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("server: no data directory")
	}
	// Connections name their files by absolute file:/// URLs, the demo's
	// too, and a job checks them against the roots: a relative --data or
	// --file-root (the README's ./data) would make every such job fail.
	var err error
	if cfg.DataDir, err = filepath.Abs(cfg.DataDir); err != nil {
		return nil, fmt.Errorf("server: data directory: %w", err)
	}
	for i, root := range cfg.FileRoots {
		if cfg.FileRoots[i], err = filepath.Abs(root); err != nil {
			return nil, fmt.Errorf("server: file root %s: %w", root, err)
		}
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.PasswordCost == 0 {
		cfg.PasswordCost = bcrypt.DefaultCost
	}
	if len(cfg.FileRoots) == 0 {
		cfg.FileRoots = []string{FilesDir(cfg.DataDir)}
	}
	auth, err := newAuthCache(cfg.PasswordCost)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// The store first: it creates the data directory for its owner only.
	st, err := store.Open(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	if err := os.MkdirAll(FilesDir(cfg.DataDir), 0o755); err != nil {
		st.Close()
		return nil, fmt.Errorf("server: %w", err)
	}
	backups, err := backup.New(st, backup.Config{SpoolDir: spoolDir(cfg.DataDir), Limits: cfg.ArchiveLimits,
		CheckRestored: checkFileConnections, Hooks: cfg.BackupHooks})
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{cfg: cfg, store: st, backups: backups, auth: auth, started: time.Now()}
	if err := s.initialize(context.Background()); err != nil {
		st.Close()
		return nil, fmt.Errorf("server: %w", err)
	}
	if err := s.startJobs(); err != nil {
		st.Close()
		return nil, fmt.Errorf("server: start jobs: %w", err)
	}
	return s, nil
}

// initialize creates the first users of an empty data directory.
func (s *Server) initialize(ctx context.Context) error {
	n, err := s.store.CountUsers(ctx)
	if err != nil || n > 0 {
		return err
	}
	if s.cfg.DemoData {
		return s.seedDemo(ctx)
	}
	if s.cfg.AdminPassword == "" {
		return errors.New("an empty data directory needs an administrator password (DAP_ADMIN_PASSWORD) or demo data")
	}
	hash, err := store.HashPassword(s.cfg.AdminPassword, s.cfg.PasswordCost)
	if err != nil {
		return err
	}
	_, err = s.store.CreateUser(ctx, "admin", hash, true)
	return err
}

// Store is the server's store, for tests and tools that need direct access.
func (s *Server) Store() *store.Store { return s.store }

// Handler is the whole REST interface; every route requires HTTP Basic credentials.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.registerFolderRoutes(mux)
	s.registerFileRoutes(mux)
	s.registerUserRoutes(mux)
	s.registerLicenseRoutes(mux)
	s.registerDataRoutes(mux)
	s.registerConfigurationRoutes(mux)
	s.registerReportRoutes(mux)
	s.registerWorkbookV2Routes(mux)
	s.registerDependencyRoutes(mux)
	s.registerJobRoutes(mux)
	s.registerBackupRoutes(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { unrouted(mux, w, r) })
	return tolerateSlashes(s.authenticate(mux))
}

// unrouted answers a request no route took, with a failure body: 405 and
// Allow when the path takes other methods, 404 otherwise.
func unrouted(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = method
		if _, pattern := mux.Handler(probe); pattern != "/" {
			allowed = append(allowed, method)
		}
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeFailure(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: the endpoint takes %s", r.Method, r.URL.Path, strings.Join(allowed, ", ")))
		return
	}
	writeFailure(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
}

// Close stops the job engine and closes the store.
func (s *Server) Close() error {
	s.stopJobs()
	return s.store.Close()
}
