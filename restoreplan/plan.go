package restoreplan

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// Action is what a restore would do with one entry.
type Action string

// The actions of a plan.
const (
	Create    Action = "create"    // no file at the target path
	Replace   Action = "replace"   // a file there, and overwrite
	Unchanged Action = "unchanged" // a file there with the same configuration
	Skip      Action = "skip"      // left out under skipFilesWithMissingDependencies
	Refuse    Action = "refuse"    // the platform would refuse the restore for it
	// NeedsSecret is a file copied to another platform whose secrets are
	// sealed with the source's key, which the target cannot open.
	NeedsSecret Action = "needs-secret"
)

// Outcomes of a whole plan.
const (
	OutcomeOK      = "ok"
	OutcomeRefused = "refused"
)

// File is one entry of the plan: its target path, action and why.
type File struct {
	Path   string `json:"path"`
	Action Action `json:"action"`
	Reason string `json:"reason,omitempty"`
}

// Plan is what the restore would do: refused as a whole when any entry is.
// Refusals come first, then the files by path.
type Plan struct {
	Outcome string `json:"outcome"`
	Files   []File `json:"files"`
}

// Add adds files to the plan, in place of those at the same paths, then
// puts the refusals first and the rest by path, and says whether the
// restore would be refused.
func (p *Plan) Add(files ...File) {
	if len(files) > 0 {
		added := map[string]bool{}
		for _, f := range files {
			added[f.Path] = true
		}
		p.Files = slices.DeleteFunc(p.Files, func(f File) bool { return added[f.Path] })
	}
	p.Files = append(p.Files, files...)
	refused := func(f File) bool { return f.Action == Refuse || f.Action == NeedsSecret }
	slices.SortStableFunc(p.Files, func(a, b File) int {
		if refused(a) != refused(b) {
			if refused(a) {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	p.Outcome = OutcomeOK
	if len(p.Files) > 0 && refused(p.Files[0]) {
		p.Outcome = OutcomeRefused
	}
}

// Count returns how many files the plan gives an action.
func (p Plan) Count(a Action) int {
	n := 0
	for _, f := range p.Files {
		if f.Action == a {
			n++
		}
	}
	return n
}

// Options are the restore's flags and whether unchanged files are left out
// of what is sent (--skip-unchanged).
type Options struct {
	Flags         api.RestoreFlags
	SkipUnchanged bool
}

// live is a file or folder of the tree.
type live struct {
	folder bool
	body   decoded // a file's
}

// Target is what the plan knows of the platform: the folder restored into
// and every file and folder the user may see, with their configurations
// (as a backup writes them: secrets sealed) and who reads from each.
type Target struct {
	Folder  string
	tree    map[string]live     // by path
	byUUID  map[string]string   // path by UUID
	readers map[string][]string // paths of the files reading from a path
	// users and groups the platform knows; nil when the user may not list
	// them (the owners and groups are then not checked).
	users, groups map[string]bool
}

// ReadTarget reads what a plan needs of the platform in a few set-based
// reads, whatever the tree's size: the target folder's path, one backup of
// the root (every configuration the user may see; a read, which a
// read-only client sends), the users and the groups.
func ReadTarget(ctx context.Context, client *api.Client, folder api.Ref) (*Target, error) {
	t := &Target{Folder: folder.String()}
	if !folder.IsPath() {
		f, err := client.File(ctx, folder)
		if err != nil {
			return nil, fmt.Errorf("read the path of %s: %w", folder, err)
		}
		t.Folder = f.Path
	}
	var tree bytes.Buffer
	if _, err := client.Backup(ctx, api.Path("/"), api.BackupIgnoreMissingDependencies, &tree, nil); err != nil {
		return nil, fmt.Errorf("read the tree (a backup of /): %w", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(tree.Bytes()), int64(tree.Len()))
	if err != nil {
		return nil, fmt.Errorf("read the tree: %w", err)
	}
	if err := t.index(zr); err != nil {
		return nil, err
	}
	if users, err := client.Users(ctx); err == nil {
		t.users = map[string]bool{}
		for _, u := range users {
			t.users[u.Username] = true
		}
	} else if !api.IsForbidden(err) {
		return nil, fmt.Errorf("read the users: %w", err)
	}
	if groups, err := client.Groups(ctx); err == nil {
		t.groups = map[string]bool{}
		for _, g := range groups {
			t.groups[g.Name] = true
		}
	} else if !api.IsForbidden(err) {
		return nil, fmt.Errorf("read the groups: %w", err)
	}
	return t, nil
}

// index reads the tree from a backup of the root.
func (t *Target) index(zr *zip.Reader) error {
	t.tree = map[string]live{"/": {folder: true}}
	t.byUUID = map[string]string{}
	t.readers = map[string][]string{}
	links := map[string][]model.SourceRef{}
	bodies := decodeAll(zr.File)
	for i, f := range zr.File {
		p := "/" + strings.TrimSuffix(f.Name, "/")
		if f.FileInfo().IsDir() {
			t.tree[p] = live{folder: true}
			continue
		}
		if bodies[i].kind == "" {
			continue // the permissions entry
		}
		if err := bodies[i].err; err != nil {
			return fmt.Errorf("read the tree: %s: %w", p, err)
		}
		conf := bodies[i].conf
		t.tree[p] = live{body: bodies[i]}
		if conf.File.UUID != "" {
			t.byUUID[conf.File.UUID] = p
		}
		links[p] = conf.Links()
	}
	for p, refs := range links {
		for _, ref := range refs {
			if src, ok := t.resolve(ref); ok {
				t.readers[src] = append(t.readers[src], p)
			}
		}
	}
	for _, r := range t.readers {
		slices.Sort(r)
	}
	return nil
}

// resolve finds the file a link names in the tree: by UUID, then by path.
func (t *Target) resolve(ref model.SourceRef) (string, bool) {
	if p, ok := t.byUUID[ref.UUID]; ok && ref.UUID != "" {
		return p, true
	}
	if l, ok := t.tree[ref.Path]; ok && ref.Path != "" && !l.folder {
		return ref.Path, true
	}
	return "", false
}

// decoded is a file entry read: its configuration, and its body with its
// own path left out, which is how two entries are first compared.
type decoded struct {
	kind model.Kind // "" for an entry that is no file of the platform
	conf model.Configuration
	same []byte
	err  error
}

// decodeAll reads the file entries of an archive, on every core: decoding
// is most of a plan's time.
func decodeAll(files []*zip.File) []decoded {
	out := make([]decoded, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				out[i] = decode(files[i])
			}
		})
	}
	for i, f := range files {
		if _, ok := model.KindOfPath(f.Name); ok && !f.FileInfo().IsDir() {
			next <- i
		}
	}
	close(next)
	wg.Wait()
	return out
}

// decode reads one file entry.
func decode(f *zip.File) decoded {
	d := decoded{}
	d.kind, _ = model.KindOfPath(f.Name)
	r, err := f.Open()
	if err != nil {
		d.err = err
		return d
	}
	defer r.Close()
	body, err := io.ReadAll(io.LimitReader(r, maxEntry))
	if err != nil {
		d.err = err
		return d
	}
	if err := json.Unmarshal(body, &d.conf); err != nil {
		d.err = fmt.Errorf("not a configuration's JSON: %w", err)
		return d
	}
	d.conf.AdoptSources(d.kind)
	own, _ := json.Marshal(d.conf.File.Path)
	d.same = bytes.Replace(body, append([]byte(`"path":`), own...), []byte(`"path":""`), 1)
	return d
}

const maxEntry = 16 << 20

// sameAs reports whether two configurations are the same, where they were
// backed up from aside (an archive restored elsewhere is the same): their
// bodies alike, or else their decoded forms written alike.
func (d decoded) sameAs(o decoded) bool {
	return bytes.Equal(d.same, o.same) || bytes.Equal(canonical(d.conf), canonical(o.conf))
}

func canonical(conf model.Configuration) []byte {
	conf.File.Path = ""
	b, _ := json.Marshal(conf)
	return b
}

// metadata is the part of the archive's permissions entry the plan reads:
// the owners and groups each entry names (the embedded platform's form).
type metadata struct {
	Included []string `json:"included"`
	Files    map[string]struct {
		Owner  string `json:"owner"`
		Groups []struct {
			Name string `json:"name"`
		} `json:"groups"`
		Data *struct {
			ReadableGroups []string `json:"readableGroups"`
		} `json:"dataPermissions"`
	} `json:"files"`
}

const metadataName = ".dap-permissions"

func (m *metadata) includes(section string) bool {
	return m != nil && slices.Contains(m.Included, section)
}

// entry is a file of the archive, read.
type entry struct {
	name   string // inside the archive
	target string // where the restore puts it
	body   decoded
	orig   string // the path it was backed up from, when its name ends it
	skip   string // why its links leave it out, as the platform says
	file   File
}

// Compute plans the restore of archive into target.
func Compute(archive *zip.Reader, target *Target, opt Options) (Plan, error) {
	var entries []*entry
	var meta *metadata
	plan := Plan{Files: []File{}}
	bodies := decodeAll(archive.File)
	for i, f := range archive.File {
		switch {
		case f.Name == metadataName:
			meta = &metadata{}
			r, err := f.Open()
			if err != nil {
				return plan, fmt.Errorf("read the archive: %w", err)
			}
			err = json.NewDecoder(io.LimitReader(r, maxEntry)).Decode(meta)
			r.Close()
			if err != nil {
				return plan, fmt.Errorf("read the archive's permissions: %w", err)
			}
			continue
		case f.FileInfo().IsDir():
			continue
		}
		e := &entry{name: f.Name, target: path.Join(target.Folder, f.Name)}
		e.file.Path = e.target
		e.body = bodies[i]
		switch {
		case e.body.kind == "":
			e.file.Action, e.file.Reason = Refuse, fmt.Sprintf("entry %s is not a file of the platform (unknown extension)", f.Name)
			plan.Files = append(plan.Files, e.file)
			continue
		case e.body.err != nil:
			e.file.Action, e.file.Reason = Refuse, fmt.Sprintf("entry %s: %v", f.Name, e.body.err)
			plan.Files = append(plan.Files, e.file)
			continue
		}
		if strings.HasSuffix(e.body.conf.File.Path, "/"+f.Name) {
			e.orig = e.body.conf.File.Path
		}
		entries = append(entries, e)
	}
	resolveLinks(entries, target)

	_, targetExists := target.tree[target.Folder]
	for _, e := range entries {
		switch {
		case e.skip != "" && opt.Flags.Has(api.RestoreSkipFilesWithMissingDependencies):
			e.file.Action, e.file.Reason = Skip, e.skip
			continue
		case e.skip != "":
			e.file.Action, e.file.Reason = Refuse, e.skip+" (restore with skip-files-with-missing-dependencies to leave it out)"
			continue
		}
		l, exists := target.tree[e.target]
		exists = exists && targetExists
		switch {
		case exists && l.folder:
			e.file.Action, e.file.Reason = Refuse, "a folder holds this path where the archive has a file"
			continue
		case exists && opt.SkipUnchanged && l.body.sameAs(e.body):
			e.file.Action = Unchanged
			continue
		case exists && !opt.Flags.Has(api.RestoreOverwrite):
			e.file.Action, e.file.Reason = Refuse, "exists (restore with overwrite to replace it)"
			continue
		}
		if reason := unknownOwnerOrGroup(meta, e, target, opt.Flags); reason != "" {
			e.file.Action, e.file.Reason = Refuse, reason
			continue
		}
		switch {
		case !exists:
			e.file.Action = Create
		case len(target.readers[e.target]) > 0:
			e.file.Action, e.file.Reason = Refuse, "still used by "+listed(target.readers[e.target])+
				" (a configuration others read from is not overwritten)"
			if l.body.sameAs(e.body) {
				e.file.Reason += "; it is unchanged: sending only what changed (--skip-unchanged) leaves it out"
			}
		case l.body.sameAs(e.body):
			e.file.Action = Unchanged
		default:
			e.file.Action = Replace
		}
	}
	for _, e := range entries {
		plan.Files = append(plan.Files, e.file)
	}
	plan.Add()
	return plan, nil
}

// unknownOwnerOrGroup is the refusal of an entry whose owner or groups the
// platform does not know, under the flags that would restore them.
func unknownOwnerOrGroup(meta *metadata, e *entry, target *Target, flags api.RestoreFlags) string {
	if meta == nil {
		return ""
	}
	m, ok := meta.Files[e.name]
	if !ok {
		return ""
	}
	if flags.Has(api.RestoreIncludeOwner) && meta.includes("owner") && target.users != nil && m.Owner != "" &&
		!target.users[m.Owner] && !flags.Has(api.RestoreSubstituteMissingUser) {
		return "unknown owner " + m.Owner + " (restore with substitute-missing-user to own it yourself)"
	}
	if flags.Has(api.RestoreIgnoreUnknownGroups) || target.groups == nil {
		return ""
	}
	var names []string
	if flags.Has(api.RestoreIncludeGroupPermissions) && meta.includes("groupPermissions") {
		for _, g := range m.Groups {
			names = append(names, g.Name)
		}
	}
	if flags.Has(api.RestoreIncludeDataPermissions) && meta.includes("dataPermissions") && e.body.kind == model.KindWorkbook && m.Data != nil {
		names = append(names, m.Data.ReadableGroups...)
	}
	for _, name := range names {
		if !target.groups[name] {
			return "unknown group " + name + " (restore with ignore-unknown-groups to leave it out)"
		}
	}
	return ""
}

// resolveLinks marks every entry whose links resolve neither inside the
// archive (by UUID, then by the path it was backed up from) nor in the tree,
// then every entry that reads from a marked one, as the platform does:
// skipped under skipFilesWithMissingDependencies, refused without it.
func resolveLinks(entries []*entry, target *Target) {
	byUUID, byOrig := map[string]*entry{}, map[string]*entry{}
	for _, e := range entries {
		if e.body.conf.File.UUID != "" {
			byUUID[e.body.conf.File.UUID] = e
		}
		if e.orig != "" {
			byOrig[e.orig] = e
		}
	}
	internal := func(ref model.SourceRef) *entry {
		if e := byUUID[ref.UUID]; ref.UUID != "" && e != nil {
			return e
		}
		if e := byOrig[ref.Path]; ref.Path != "" && e != nil {
			return e
		}
		return nil
	}
	for _, e := range entries {
		for _, ref := range e.body.conf.Links() {
			if internal(ref) != nil {
				continue
			}
			if _, ok := target.resolve(ref); ok {
				continue
			}
			e.skip = "source " + cmpOr(ref.Path, ref.UUID) + " cannot be resolved"
			break
		}
	}
	for changed := true; changed; {
		changed = false
		for _, e := range entries {
			if e.skip != "" {
				continue
			}
			for _, ref := range e.body.conf.Links() {
				if src := internal(ref); src != nil && src.skip != "" {
					e.skip = "depends on skipped " + src.target
					changed = true
					break
				}
			}
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// listed names at most five paths.
func listed(paths []string) string {
	if len(paths) <= 5 {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:5], ", ") + fmt.Sprintf(" and %d more", len(paths)-5)
}

// Trimmed writes to w the archive a restore sends: with SkipUnchanged every
// entry but the files the plan found unchanged (and their lines in the
// permissions entry, which may name only entries of the archive), else all
// of them.
func Trimmed(w io.Writer, archive *zip.Reader, plan Plan, target *Target, opt Options) error {
	drop := map[string]bool{}
	for _, f := range archive.File {
		if p := path.Join(target.Folder, f.Name); opt.SkipUnchanged && !f.FileInfo().IsDir() {
			for _, pf := range plan.Files {
				if pf.Path == p && pf.Action == Unchanged {
					drop[f.Name] = true
				}
			}
		}
	}
	return copyWithout(w, archive, drop)
}

// copyWithout copies archive to w without the entries drop names.
func copyWithout(w io.Writer, archive *zip.Reader, drop map[string]bool) error {
	zw := zip.NewWriter(w)
	for _, f := range archive.File {
		switch {
		case drop[f.Name]:
			continue
		case f.Name == metadataName && len(drop) > 0:
			if err := copyMetadata(zw, f, drop); err != nil {
				return err
			}
			continue
		}
		if err := zw.Copy(f); err != nil {
			return fmt.Errorf("write the archive: %w", err)
		}
	}
	return zw.Close()
}

// copyMetadata writes the permissions entry without the lines of dropped
// entries, keeping every other field as it came.
func copyMetadata(zw *zip.Writer, f *zip.File, drop map[string]bool) error {
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	var meta map[string]json.RawMessage
	if err := json.NewDecoder(io.LimitReader(r, maxEntry)).Decode(&meta); err != nil {
		return fmt.Errorf("read the archive's permissions: %w", err)
	}
	var files map[string]json.RawMessage
	if err := json.Unmarshal(meta["files"], &files); err != nil {
		return fmt.Errorf("read the archive's permissions: %w", err)
	}
	for name := range drop {
		delete(files, name)
	}
	if meta["files"], err = json.Marshal(files); err != nil {
		return err
	}
	body, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	w, err := zw.Create(metadataName)
	if err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}
