package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/names"
	"github.com/google/uuid"
)

// File is a folder or file of the tree, without its configuration.
type File struct {
	ID       int64
	ParentID int64 // 0 for the root
	Path     string
	Name     string // last path segment, extension included
	Kind     model.Kind
	UUID     string
	ConfigID int64 // 0 for folders
	OwnerID  int64 // 0 for the system owner
	Owner    string
	Others   model.Flags
	// Description is the configuration's file.description, kept beside it
	// so that lists need not decode every configuration.
	Description string
}

// IsFolder reports whether the file is a folder.
func (f File) IsFolder() bool { return f.Kind == model.KindFolder }

// BaseName is the name without the kind's extension, as file.name carries it.
func (f File) BaseName() string { return strings.TrimSuffix(f.Name, f.Kind.Extension()) }

// Permissions are the access flags of a file: for others and per group id.
type Permissions struct {
	Others model.Flags
	Groups map[int64]model.Flags
}

// GroupPermission is one group's flags on a file.
type GroupPermission struct {
	Group Group
	Flags model.Flags
}

// NewFile describes a file or folder to create.
type NewFile struct {
	Path    string
	OwnerID int64
	// UUID keeps a known identity (a restore); "" makes a new one.
	UUID string
	// Config is the representation of a non-folder; nil creates a folder.
	// Its file.path, file.name and file.uuid are set from the file.
	Config *model.Configuration
	// Permissions nil inherits the parent folder's others and group flags.
	Permissions *Permissions
	// Parent is the folder holding Path when the caller has it at hand (a
	// restore does); nil, or a file at another path, is looked up instead.
	Parent *File
	// stored, when a restore made it ahead (on another core), is Config
	// as stored, its links already resolved; configID, when not 0, is the
	// configuration id the restore reserved for it.
	stored   *StoredConfig
	configID int64
}

// storedConfig is a configuration ready for its row: checked, its links
// naming the files it reads from, encoded as the database keeps it.
type StoredConfig struct {
	json        string
	description string
	sources     []File
}

// errUUIDTaken refuses a file whose given UUID another file holds.
var errUUIDTaken = fmt.Errorf("%w (uuid taken)", ErrExists)

// MissingSourceError refuses a configuration whose source does not resolve.
type MissingSourceError struct {
	Source model.SourceRef
}

func (e *MissingSourceError) Error() string {
	if e.Source.UUID != "" {
		return fmt.Sprintf("source %s does not exist", e.Source.UUID)
	}
	return fmt.Sprintf("source %q does not exist", e.Source.Path)
}

// Unwrap lets errors.Is match ErrNotFound.
func (e *MissingSourceError) Unwrap() error { return ErrNotFound }

// CleanPath checks a tree path: absolute, no empty, "." or ".." segments, no
// trailing slash (except the root "/"); it returns it unchanged when valid.
func CleanPath(p string) (string, error) {
	if p == "/" {
		return p, nil
	}
	if !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("%w: path %q must start with /", ErrBadInput, p)
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("%w: path %q has an empty, . or .. segment", ErrBadInput, p)
		}
	}
	return p, nil
}

// checkName refuses a name no file or folder may have (names.Check).
func checkName(name string) error {
	if err := names.Check(name); err != nil {
		return fmt.Errorf("%w: name %q %v", ErrBadInput, name, err)
	}
	return nil
}

// ParentPath is the path of the folder holding p.
func ParentPath(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}

const fileColumns = `f.id, coalesce(f.parent_id, 0), f.path, f.name, f.kind, f.uuid, coalesce(f.config_id, 0),
	coalesce(f.owner_id, 0), coalesce(u.name, '` + SystemOwner + `'), f.others_read, f.others_write, f.others_execute, f.description`

const fileFrom = ` FROM files f LEFT JOIN users u ON u.id = f.owner_id `

func scanFile(row interface{ Scan(...any) error }) (File, error) {
	var f File
	var kind string
	err := row.Scan(&f.ID, &f.ParentID, &f.Path, &f.Name, &kind, &f.UUID, &f.ConfigID,
		&f.OwnerID, &f.Owner, &f.Others.Readable, &f.Others.Writable, &f.Others.Executable, &f.Description)
	f.Kind = model.Kind(kind)
	return f, err
}

func (q Queries) fileWhere(ctx context.Context, what, where string, arg any) (File, error) {
	f, err := scanFile(q.q.QueryRowContext(ctx, `SELECT `+fileColumns+fileFrom+`WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return File{}, fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", what, err)
	}
	return f, nil
}

// outlineColumns are fileColumns with an empty description, for a listing
// a backup holds while it runs, which must not grow with what users write
// in descriptions (ExportBatch reads them a batch at a time).
var outlineColumns = strings.Replace(fileColumns, "f.description", "''", 1)

func (q Queries) filesWhere(ctx context.Context, what, where string, args ...any) ([]File, error) {
	return q.filesSelect(ctx, what, fileColumns, where, args...)
}

func (q Queries) filesSelect(ctx context.Context, what, columns, where string, args ...any) ([]File, error) {
	rows, err := q.q.QueryContext(ctx, `SELECT `+columns+fileFrom+where, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var files []File
	for rows.Next() {
		f, err := scanFile(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		files = append(files, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return files, nil
}

// FileByID returns the file with a file id, or ErrNotFound.
func (q Queries) FileByID(ctx context.Context, id int64) (File, error) {
	return q.fileWhere(ctx, fmt.Sprintf("file %d", id), `f.id = ?`, id)
}

// FileByUUID returns the file with a UUID, or ErrNotFound.
func (q Queries) FileByUUID(ctx context.Context, id string) (File, error) {
	return q.fileWhere(ctx, "file "+id, `f.uuid = ?`, strings.ToLower(id))
}

// FileByPath returns the file at a path, or ErrNotFound.
func (q Queries) FileByPath(ctx context.Context, path string) (File, error) {
	return q.fileWhere(ctx, fmt.Sprintf("file %q", path), `f.path = ?`, path)
}

// FileByConfigID returns the file with a configuration id, or ErrNotFound.
func (q Queries) FileByConfigID(ctx context.Context, id int64) (File, error) {
	return q.fileWhere(ctx, fmt.Sprintf("configuration %d", id), `f.config_id = ?`, id)
}

// ChildFolders returns the folders directly inside a folder, oldest first
// (the order the real platform lists them in).
func (q Queries) ChildFolders(ctx context.Context, parentID int64) ([]File, error) {
	return q.filesWhere(ctx, fmt.Sprintf("folders in %d", parentID),
		`WHERE f.parent_id = ? AND f.kind = 'folder' ORDER BY f.id`, parentID)
}

// Children returns everything directly inside a folder, by name.
func (q Queries) Children(ctx context.Context, parentID int64) ([]File, error) {
	return q.filesWhere(ctx, fmt.Sprintf("files in %d", parentID), `WHERE f.parent_id = ? ORDER BY f.name`, parentID)
}

// Descendants returns everything below a folder (not the folder), by path,
// so that every folder comes before its contents.
func (q Queries) Descendants(ctx context.Context, folder File) ([]File, error) {
	return q.descendants(ctx, folder, fileColumns)
}

// DescendantsOutline is Descendants without the descriptions.
func (q Queries) DescendantsOutline(ctx context.Context, folder File) ([]File, error) {
	return q.descendants(ctx, folder, outlineColumns)
}

func (q Queries) descendants(ctx context.Context, folder File, columns string) ([]File, error) {
	what := fmt.Sprintf("contents of %s", folder.Path)
	if folder.ID == RootID {
		return q.filesSelect(ctx, what, columns, `WHERE f.id <> ? ORDER BY f.path`, RootID)
	}
	// '0' follows '/' in byte order: the range holds exactly the paths below.
	return q.filesSelect(ctx, what, columns, `WHERE f.path > ? AND f.path < ? ORDER BY f.path`, folder.Path+"/", folder.Path+"0")
}

// FilesOfKind returns every file of the kinds, by configuration id.
func (q Queries) FilesOfKind(ctx context.Context, kinds ...model.Kind) ([]File, error) {
	args := make([]any, len(kinds))
	for i, k := range kinds {
		args[i] = string(k)
	}
	return q.filesWhere(ctx, fmt.Sprintf("%v files", kinds),
		`WHERE f.kind IN (?`+strings.Repeat(", ?", max(0, len(kinds)-1))+`) ORDER BY f.config_id, f.id`, args...)
}

// FileProperty is a file and the first value of one property of its
// configuration ("" when it has none).
type FileProperty struct {
	ID    int64
	Path  string
	Value string
}

// PropertyOfKind returns one property of every file of a kind, read in one
// query, the configurations decoded as Configuration decodes them: a check
// across all connections must not cost a query or two per connection.
func (q Queries) PropertyOfKind(ctx context.Context, kind model.Kind, key string) ([]FileProperty, error) {
	what := fmt.Sprintf("%s of %s files", key, kind)
	rows, err := q.q.QueryContext(ctx, `SELECT id, path, config FROM files WHERE kind = ? ORDER BY config_id, id`, string(kind))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	var props []FileProperty
	for rows.Next() {
		var p FileProperty
		var raw sql.NullString
		if err := rows.Scan(&p.ID, &p.Path, &raw); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if !raw.Valid {
			return nil, fmt.Errorf("configuration of %s: %w: a folder has none", p.Path, ErrNotFound)
		}
		var cfg model.Configuration
		if err := json.Unmarshal([]byte(raw.String), &cfg); err != nil {
			return nil, fmt.Errorf("configuration of %s: %w", p.Path, err)
		}
		p.Value = cfg.Property(key)
		props = append(props, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return props, nil
}

// Ancestors returns the folders above a file, root first.
func (q Queries) Ancestors(ctx context.Context, f File) ([]File, error) {
	if f.ID == RootID {
		return nil, nil
	}
	var paths []any
	for p := ParentPath(f.Path); ; p = ParentPath(p) {
		paths = append(paths, p)
		if p == "/" {
			break
		}
	}
	return q.filesWhere(ctx, "folders above "+f.Path,
		`WHERE f.path IN (?`+strings.Repeat(",?", len(paths)-1)+`) ORDER BY length(f.path)`, paths...)
}

// Configuration returns a file's representation: file.* set from the file,
// sources as the files they resolved to, secrets sealed (SECURE:0:...).
func (q Queries) Configuration(ctx context.Context, f File) (model.Configuration, error) {
	var raw sql.NullString
	if err := q.q.QueryRowContext(ctx, `SELECT config FROM files WHERE id = ?`, f.ID).Scan(&raw); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = ErrNotFound
		}
		return model.Configuration{}, fmt.Errorf("configuration of %s: %w", f.Path, err)
	}
	if !raw.Valid {
		return model.Configuration{}, fmt.Errorf("configuration of %s: %w: a folder has none", f.Path, ErrNotFound)
	}
	sources, err := q.Sources(ctx, f.ID)
	if err != nil {
		return model.Configuration{}, err
	}
	return configurationOf(f, raw.String, sources)
}

// configurationOf builds a file's representation from its stored JSON and
// the files its sources resolved to.
func configurationOf(f File, raw string, sources []File) (model.Configuration, error) {
	var cfg model.Configuration
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		return model.Configuration{}, fmt.Errorf("configuration of %s: %w", f.Path, err)
	}
	cfg.File = model.FileInfo{UUID: f.UUID, Path: f.Path, Description: f.Description, Name: f.BaseName()}
	if len(cfg.Links()) == 0 && len(sources) > 0 { // stored by an earlier version, links kept apart
		cfg.Sources = refsTo(sources)
		cfg.AdoptSources(f.Kind)
	}
	if len(cfg.Links()) == len(sources) { // links name their files as they are now, moved or not
		cfg.SetLinks(refsTo(sources))
	}
	return cfg, nil
}

// refsTo returns the links that name files.
func refsTo(files []File) []model.SourceRef {
	refs := make([]model.SourceRef, len(files))
	for i, f := range files {
		refs[i] = model.SourceRef{Path: f.Path, UUID: f.UUID}
	}
	return refs
}

// Sources returns the files a file reads from, in its configuration's order.
func (q Queries) Sources(ctx context.Context, id int64) ([]File, error) {
	return q.filesWhere(ctx, fmt.Sprintf("sources of %d", id),
		`JOIN file_sources s ON s.source_id = f.id WHERE s.file_id = ? ORDER BY s.position`, id)
}

// Dependents returns the files that read from a file directly, by path.
func (q Queries) Dependents(ctx context.Context, id int64) ([]File, error) {
	return q.filesWhere(ctx, fmt.Sprintf("dependents of %d", id),
		`WHERE f.id IN (SELECT file_id FROM file_sources WHERE source_id = ?) ORDER BY f.path`, id)
}

// ResolveSource returns the file a source reference names: by UUID when it
// has one, else by path; a *MissingSourceError when there is none.
func (q Queries) ResolveSource(ctx context.Context, ref model.SourceRef) (File, error) {
	var f File
	var err error
	switch {
	case ref.UUID != "":
		f, err = q.FileByUUID(ctx, ref.UUID)
	case ref.Path != "":
		f, err = q.FileByPath(ctx, ref.Path)
	default:
		return File{}, fmt.Errorf("%w: a source names neither uuid nor path", ErrBadInput)
	}
	if errors.Is(err, ErrNotFound) || (err == nil && f.IsFolder()) {
		return File{}, &MissingSourceError{Source: ref}
	}
	return f, err
}

// CreateFile adds a folder (Config nil) or a file at nf.Path. The parent
// folder must exist (ErrNotFound), the path must be free (ErrExists), a file's
// extension must name its kind, and its sources must resolve
// (*MissingSourceError). Secret properties are sealed. It runs several
// statements: call it on a Tx (Store.InTx) so that a failure leaves nothing behind.
func (q Queries) CreateFile(ctx context.Context, nf NewFile) (File, error) {
	ins, err := q.insertFile(ctx, nf)
	if err != nil {
		return File{}, err
	}
	return q.FileByID(ctx, ins.id)
}

// inserted is what insertFile made: the new file's id and UUID.
type inserted struct {
	id   int64
	uuid string
}

// insertFile makes the file CreateFile describes and returns its id and
// UUID, without reading the file back (a restore of many files needs no more).
func (q Queries) insertFile(ctx context.Context, nf NewFile) (inserted, error) {
	row, err := q.newFileRow(ctx, nf)
	if err != nil {
		return inserted{}, err
	}
	// A UUID another file holds inserts nothing, where a path taken fails:
	// errUUIDTaken tells the two apart.
	res, err := q.q.ExecContext(ctx, insertFiles+fileRowParams+` ON CONFLICT(uuid) DO NOTHING`, row.appendArgs(nil)...)
	var added int64
	if err == nil {
		added, err = res.RowsAffected()
	}
	switch {
	case err != nil:
		return inserted{}, insertError(row.path, err)
	case added == 0:
		return inserted{}, fmt.Errorf("create %s: %w", row.path, errUUIDTaken)
	}
	fileID, err := res.LastInsertId()
	if err != nil {
		return inserted{}, fmt.Errorf("create %s: %w", row.path, err)
	}
	for gid, flags := range row.groups {
		if _, err := q.q.ExecContext(ctx, insertFileGroups+fileGroupParams, fileGroupArgs(nil, fileID, gid, flags)...); err != nil {
			return inserted{}, fmt.Errorf("create %s: group %d: %w", row.path, gid, err)
		}
	}
	if err := q.writeSources(ctx, fileID, row.sources); err != nil {
		return inserted{}, fmt.Errorf("create %s: %w", row.path, err)
	}
	return inserted{id: fileID, uuid: row.uuid}, nil
}

// fileRow is a new file's row of files, checked, and what goes beside it:
// its group flags and its sources.
type fileRow struct {
	id          int64 // 0 lets SQLite pick it
	parentID    int64
	path, name  string
	kind        model.Kind
	uuid        string
	configID    any // nil for a folder
	owner       any // nil for the system owner
	others      model.Flags
	description string
	config      any // the stored JSON; nil for a folder
	groups      map[int64]model.Flags
	sources     []File
}

// The statements that insert rows of files, file_groups and file_sources: the
// columns, then the parameters of one row, repeated for a statement of
// many rows.
const (
	insertFiles = `INSERT INTO files(id, parent_id, path, name, kind, uuid, config_id, owner_id,
		others_read, others_write, others_execute, description, config) VALUES `
	fileRowParams     = `(?,?,?,?,?,?,?,?,?,?,?,?,?)`
	insertFileGroups  = `INSERT INTO file_groups(file_id, group_id, readable, writable, executable) VALUES `
	fileGroupParams   = `(?,?,?,?,?)`
	insertFileSources = `INSERT INTO file_sources(file_id, position, source_id) VALUES `
	fileSourceParams  = `(?,?,?)`
)

// appendArgs appends the row's values, in the order of insertFiles.
func (row *fileRow) appendArgs(args []any) []any {
	var id any
	if row.id != 0 {
		id = row.id
	}
	return append(args, id, row.parentID, row.path, row.name, string(row.kind), row.uuid, row.configID, row.owner,
		row.others.Readable, row.others.Writable, row.others.Executable, row.description, row.config)
}

// fileGroupArgs appends a row of file_groups, in the order of insertFileGroups.
func fileGroupArgs(args []any, fileID, groupID int64, flags model.Flags) []any {
	return append(args, fileID, groupID, flags.Readable, flags.Writable, flags.Executable)
}

// insertError tells why a file's row was not inserted.
func insertError(path string, err error) error {
	if isUniqueViolation(err) {
		return fmt.Errorf("create %s: %w (path taken)", path, ErrExists)
	}
	return fmt.Errorf("create %s: %w", path, err)
}

// newFileRow checks the file CreateFile describes and makes its row: its
// path, name and kind, its parent, its UUID (a new one when nf has none),
// its permissions and its configuration as stored.
func (q Queries) newFileRow(ctx context.Context, nf NewFile) (fileRow, error) {
	path, err := CleanPath(nf.Path)
	if err != nil {
		return fileRow{}, fmt.Errorf("create: %w", err)
	}
	name := path[strings.LastIndexByte(path, '/')+1:]
	if err := VisibleText("file.path", name); err != nil {
		return fileRow{}, fmt.Errorf("create: %w", err)
	}
	if err := checkName(name); err != nil && path != "/" {
		return fileRow{}, fmt.Errorf("create: %w", err)
	}
	if nf.Config != nil && nf.stored == nil {
		if err := VisibleText("file.description", nf.Config.File.Description); err != nil {
			return fileRow{}, fmt.Errorf("create %q: %w", path, err)
		}
	}
	if path == "/" {
		return fileRow{}, fmt.Errorf("create /: %w", ErrExists)
	}
	kind := model.KindFolder
	if nf.Config != nil {
		k, ok := model.KindOfPath(path)
		if !ok {
			return fileRow{}, fmt.Errorf("create %s: %w: the extension names no file kind", path, ErrBadInput)
		}
		kind = k
	}
	parent, err := q.parentOf(ctx, path, nf.Parent)
	if err != nil {
		return fileRow{}, fmt.Errorf("create %s: parent folder: %w", path, err)
	}
	if !parent.IsFolder() {
		return fileRow{}, fmt.Errorf("create %s: %w: %s is not a folder", path, ErrBadInput, parent.Path)
	}
	id := nf.UUID
	if id == "" {
		id = uuid.NewString()
	} else if _, err := uuid.Parse(id); err != nil {
		return fileRow{}, fmt.Errorf("create %s: %w: uuid %q", path, ErrBadInput, id)
	}
	perms := nf.Permissions
	if perms == nil {
		if perms, err = q.permissionsOf(ctx, parent.ID); err != nil {
			return fileRow{}, fmt.Errorf("create %s: %w", path, err)
		}
	}
	row := fileRow{parentID: parent.ID, path: path, name: name, kind: kind, uuid: strings.ToLower(id),
		others: perms.Others, groups: perms.Groups}
	if nf.OwnerID != 0 {
		row.owner = nf.OwnerID
	}
	if nf.Config == nil {
		return row, nil
	}
	stored := nf.stored
	if stored == nil {
		cfg := *nf.Config
		links, err := q.resolveLinks(ctx, &cfg, kind)
		if err != nil {
			return fileRow{}, fmt.Errorf("create %s: %w", path, err)
		}
		if stored, err = q.encodeConfig(cfg, kind, links); err != nil {
			return fileRow{}, fmt.Errorf("create %s: %w", path, err)
		}
	}
	row.config, row.description, row.sources = stored.json, stored.description, stored.sources
	configID := nf.configID
	if configID == 0 {
		if configID, err = q.reserveConfigIDs(ctx, 1); err != nil {
			return fileRow{}, fmt.Errorf("create %s: %w", path, err)
		}
	}
	row.configID = configID
	return row, nil
}

// parentOf returns the file holding path: known when it is at the parent
// path, else the one found there.
func (q Queries) parentOf(ctx context.Context, path string, known *File) (File, error) {
	if known != nil && known.Path == ParentPath(path) {
		return *known, nil
	}
	return q.FileByPath(ctx, ParentPath(path))
}

// UpdateConfiguration replaces a file's representation (its description,
// properties and sources); its path, name and identity stay, so it reads
// nothing back: the caller's File is true but for the description. Call it
// on a Tx.
func (q Queries) UpdateConfiguration(ctx context.Context, f File, cfg model.Configuration) error {
	if f.IsFolder() {
		return fmt.Errorf("update %s: %w: a folder has no configuration", f.Path, ErrBadInput)
	}
	if err := VisibleText("file.description", cfg.File.Description); err != nil {
		return fmt.Errorf("update %q: %w", f.Path, err)
	}
	sources, err := q.resolveLinks(ctx, &cfg, f.Kind)
	if err != nil {
		return fmt.Errorf("update %s: %w", f.Path, err)
	}
	raw, err := q.storedJSON(cfg)
	if err != nil {
		return fmt.Errorf("update %s: %w", f.Path, err)
	}
	if _, err := q.q.ExecContext(ctx, `UPDATE files SET config = ?, description = ? WHERE id = ?`,
		raw, cfg.File.Description, f.ID); err != nil {
		return fmt.Errorf("update %s: %w", f.Path, err)
	}
	if _, err := q.q.ExecContext(ctx, `DELETE FROM file_sources WHERE file_id = ?`, f.ID); err != nil {
		return fmt.Errorf("update %s: %w", f.Path, err)
	}
	if err := q.writeSources(ctx, f.ID, sources); err != nil {
		return fmt.Errorf("update %s: %w", f.Path, err)
	}
	return nil
}

// DeleteFile removes a file or an empty folder. It refuses with a
// *DependentsError while other files read from it, ErrNotEmpty for a folder
// with contents. Call it on a Tx, so that no dependent appears between check and delete.
func (q Queries) DeleteFile(ctx context.Context, f File) error {
	if f.ID == RootID {
		return fmt.Errorf("delete /: %w: the root folder stays", ErrBadInput)
	}
	dependents, err := q.Dependents(ctx, f.ID)
	if err != nil {
		return fmt.Errorf("delete %s: %w", f.Path, err)
	}
	if len(dependents) > 0 {
		de := &DependentsError{Path: f.Path}
		for _, d := range dependents {
			de.Paths = append(de.Paths, d.Path)
		}
		return de
	}
	var children int
	if err := q.q.QueryRowContext(ctx, `SELECT count(*) FROM files WHERE parent_id = ?`, f.ID).Scan(&children); err != nil {
		return fmt.Errorf("delete %s: %w", f.Path, err)
	}
	if children > 0 {
		return fmt.Errorf("delete %s: %w", f.Path, ErrNotEmpty)
	}
	if _, err := q.q.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, f.ID); err != nil {
		return fmt.Errorf("delete %s: %w", f.Path, err)
	}
	return nil
}

// resolveLinks finds the files a configuration of the kind reads from (its
// earlier versions' sources adopted into its links first), and sets each
// link to the path and UUID of the file it names.
func (q Queries) resolveLinks(ctx context.Context, cfg *model.Configuration, kind model.Kind) ([]File, error) {
	if cfg.Sources != nil {
		cfg.AdoptSources(kind)
	}
	links := cfg.Links()
	files := make([]File, 0, len(links))
	for _, ref := range links {
		f, err := q.ResolveSource(ctx, ref)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	cfg.SetLinks(refsTo(files))
	return files, nil
}

// encodeConfig checks a configuration of the kind and encodes it as
// stored, its links naming sources (the files they resolved to, in order).
// It reads nothing, so a restore runs it on other cores than the writer's.
func (q Queries) encodeConfig(cfg model.Configuration, kind model.Kind, sources []File) (*StoredConfig, error) {
	if err := VisibleText("file.description", cfg.File.Description); err != nil {
		return nil, err
	}
	if cfg.Sources != nil {
		cfg.AdoptSources(kind)
	}
	if links := len(cfg.Links()); links != len(sources) {
		return nil, fmt.Errorf("%w: %d links, %d of them found", ErrBadInput, links, len(sources))
	}
	cfg.SetLinks(refsTo(sources))
	raw, err := q.storedJSON(cfg)
	if err != nil {
		return nil, err
	}
	return &StoredConfig{json: raw, description: cfg.File.Description, sources: sources}, nil
}

// reserveConfigIDs takes n configuration ids from their counter, returning
// the first: a restore takes those of all its files at once.
func (q Queries) reserveConfigIDs(ctx context.Context, n int) (int64, error) {
	var first int64
	if err := q.q.QueryRowContext(ctx,
		`UPDATE sequences SET next = next + ? WHERE name = 'configuration' RETURNING next - ?`, n, n).Scan(&first); err != nil {
		return 0, fmt.Errorf("configuration ids: %w", err)
	}
	return first, nil
}

func (q Queries) writeSources(ctx context.Context, fileID int64, sources []File) error {
	for i, s := range sources {
		if s.ID == fileID {
			return fmt.Errorf("%w: a file cannot be its own source", ErrBadInput)
		}
		if _, err := q.q.ExecContext(ctx, insertFileSources+fileSourceParams, fileID, i, s.ID); err != nil {
			return fmt.Errorf("source %s: %w", s.Path, err)
		}
	}
	return nil
}

// storedJSON is the representation as kept in the database: secrets sealed
// (in properties, hadoopProperties and members named like secrets);
// file left out, since the columns hold it. Links stay, file_sources names
// the files they resolved to (a read brings their paths up to date).
func (q Queries) storedJSON(cfg model.Configuration) (string, error) {
	cfg.File = model.FileInfo{}
	props := make(map[string][]string, len(cfg.Properties))
	for key, values := range cfg.Properties {
		if !model.IsSecretProperty(key) {
			props[key] = values
			continue
		}
		sealed := make([]string, len(values))
		for i, v := range values {
			s, err := q.secrets.Accept(v)
			if err != nil {
				return "", fmt.Errorf("property %s: %w", key, err)
			}
			sealed[i] = s
		}
		props[key] = sealed
	}
	cfg.Properties = props
	if err := mapSecretsElsewhere(&cfg, q.secrets.Accept, q.secrets.Accept); err != nil {
		return "", err
	}
	b, err := json.Marshal(cfg)
	return string(b), err
}
