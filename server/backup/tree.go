package backup

import (
	"context"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// tree is all that backup and restore ask of persistence: the reads and
// writes of store.Queries they use, whether on the store, on one
// connection or in a transaction. What they decide stays here; how a file
// is kept stays in the store.
type tree interface {
	// What a backup reads.
	NewVisibility(ctx context.Context, u store.User) (*store.Visibility, error)
	DescendantsOutline(ctx context.Context, folder store.File) ([]store.File, error)
	SourcesBelow(ctx context.Context, folder store.File) (map[int64][]store.File, error)
	ExportBatch(ctx context.Context, files []store.File, sources map[int64][]store.File, withGroups bool) ([]store.Exported, error)

	// What a restore's checks read.
	EnsureFolder(ctx context.Context, user store.User, path string) (folder store.File, created bool, err error)
	MayWrite(ctx context.Context, user store.User, f store.File) error
	FilesAtPaths(ctx context.Context, paths []any) (map[string]store.File, error)
	TakenUUIDs(ctx context.Context, uuids []any) (map[string]bool, error)
	ReadFrom(ctx context.Context, ids []any) (map[int64]bool, error)
	Dependents(ctx context.Context, id int64) ([]store.File, error)
	ResolveSource(ctx context.Context, ref model.SourceRef) (store.File, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	GroupByName(ctx context.Context, name string) (store.Group, error)

	// What a restore writes.
	AppendStoredForm(b, representation []byte) ([]byte, model.FileInfo, bool)
	EncodeConfig(cfg model.Configuration, kind model.Kind, sources []store.File) (*store.StoredConfig, error)
	ReserveConfigIDs(ctx context.Context, n int) (int64, error)
	PrepareFile(ctx context.Context, nf store.NewFile, stored *store.StoredConfig, configID int64) (store.PreparedFile, error)
	NewFileBatch() *store.FileBatch
	CreateFile(ctx context.Context, nf store.NewFile) (store.File, error)
	Configuration(ctx context.Context, f store.File) (model.Configuration, error)
	UpdateConfiguration(ctx context.Context, f store.File, cfg model.Configuration) error
	PermissionsOf(ctx context.Context, id int64) (*store.Permissions, error)
	SetOwner(ctx context.Context, fileID, userID int64) error
	SetOthers(ctx context.Context, fileID int64, flags model.Flags) error
	ClearGroupPermissions(ctx context.Context, fileID int64) error
	CreateGroupPermission(ctx context.Context, fileID, groupID int64, flags model.Flags) error
}

// database is the store as the service holds it: the tree, and the
// transaction a restore writes in.
type database interface {
	tree
	CheckedWrite(ctx context.Context, early func(q store.Queries), locked func(tx *store.Tx, changed bool) error) (held time.Duration, err error)
}

var _ database = (*store.Store)(nil)
