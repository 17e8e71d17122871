package restoreplan

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"

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
type Plan struct {
	Outcome string `json:"outcome"`
	Files   []File `json:"files"`
}

// Target is what the plan reads of the platform: the folder restored into
// (its path) and every file the user may see there and elsewhere.
type Target struct {
	Folder string
	Index  *api.FileIndex
}

// ReadTarget reads the target of a restore into folder with set-based
// reads: the folder's path and the per-kind lists.
func ReadTarget(ctx context.Context, client *api.Client, folder api.Ref) (Target, error) {
	t := Target{Folder: folder.String()}
	if !folder.IsPath() {
		f, err := client.File(ctx, folder)
		if err != nil {
			return t, fmt.Errorf("read the path of %s: %w", folder, err)
		}
		t.Folder = f.Path
	}
	index, err := api.ReadFileIndex(ctx, client)
	if err != nil {
		return t, err
	}
	t.Index = index
	return t, nil
}

// entry is a file of the archive, read.
type entry struct {
	name   string // inside the archive
	target string // where the restore puts it
	conf   model.Configuration
	skip   string // why it is skipped
}

// Compute plans the restore of archive into target with flags.
func Compute(archive *zip.Reader, target Target, flags api.RestoreFlags) (Plan, error) {
	var entries []*entry
	var refusals []File
	for _, f := range archive.File {
		if f.FileInfo().IsDir() || strings.HasPrefix(path.Base(f.Name), ".") {
			continue
		}
		e := &entry{name: f.Name, target: path.Join(target.Folder, f.Name)}
		body, err := readEntry(f)
		if err == nil {
			err = json.Unmarshal(body, &e.conf)
		}
		if err != nil {
			refusals = append(refusals, File{Path: e.target, Action: Refuse, Reason: fmt.Sprintf("entry %s is not a configuration's JSON: %v", f.Name, err)})
			continue
		}
		if kind, ok := model.KindOfPath(f.Name); ok {
			e.conf.AdoptSources(kind)
		}
		entries = append(entries, e)
	}
	plan := Plan{Files: []File{}}
	resolveLinks(entries, target.Index)
	for _, e := range entries {
		f := File{Path: e.target}
		_, exists := target.Index.ByPath(e.target)
		switch {
		case e.skip != "" && flags.Has(api.RestoreSkipFilesWithMissingDependencies):
			f.Action, f.Reason = Skip, e.skip
		case e.skip != "":
			f.Action, f.Reason = Refuse, "missing dependency: "+strings.TrimPrefix(e.skip, "source ")
		case exists && !flags.Has(api.RestoreOverwrite):
			f.Action, f.Reason = Refuse, "exists (restore with overwrite to replace it)"
		case exists:
			f.Action = Replace
		default:
			f.Action = Create
		}
		plan.Files = append(plan.Files, f)
	}
	plan.Files = append(refusals, plan.Files...)
	plan.Outcome = OutcomeOK
	for _, f := range plan.Files {
		if f.Action == Refuse {
			plan.Outcome = OutcomeRefused
		}
	}
	return plan, nil
}

// readEntry reads one entry, at most maxEntry bytes.
func readEntry(f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, maxEntry))
}

const maxEntry = 16 << 20

// resolveLinks marks every entry whose links resolve neither inside the
// archive nor in the tree, then every entry that reads from a marked one,
// as the platform does.
func resolveLinks(entries []*entry, index *api.FileIndex) {
	byUUID, byPath := map[string]*entry{}, map[string]*entry{}
	for _, e := range entries {
		if e.conf.File.UUID != "" {
			byUUID[e.conf.File.UUID] = e
		}
		if e.conf.File.Path != "" {
			byPath[e.conf.File.Path] = e
		}
	}
	internal := func(ref model.SourceRef) *entry {
		if e := byUUID[ref.UUID]; ref.UUID != "" && e != nil {
			return e
		}
		if e := byPath[ref.Path]; ref.Path != "" && e != nil {
			return e
		}
		return nil
	}
	missing := 0
	for _, e := range entries {
		for _, ref := range e.conf.Links() {
			if internal(ref) != nil {
				continue
			}
			if _, ok := index.ByUUID(ref.UUID); ok && ref.UUID != "" {
				continue
			}
			if _, ok := index.ByPath(ref.Path); ok && ref.Path != "" {
				continue
			}
			if e.skip == "" {
				name := ref.Path
				if name == "" {
					name = ref.UUID
				}
				e.skip = "source " + name + " cannot be resolved"
				missing++
			}
		}
	}
	for changed := missing > 0; changed; {
		changed = false
		for _, e := range entries {
			if e.skip != "" {
				continue
			}
			for _, ref := range e.conf.Links() {
				if src := internal(ref); src != nil && src.skip != "" {
					e.skip = "depends on skipped " + src.target
					changed = true
					break
				}
			}
		}
	}
}
