package restoreplan

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// The changes of a diff, as the archive has them against the live tree.
const (
	Added   = "added"   // in the archive, not in the folder
	Removed = "removed" // in the folder, not in the archive
	Changed = "changed" // in both, configured differently
)

// Change is one file that differs between an archive and the live folder.
type Change struct {
	Path   string  `json:"path"`
	Change string  `json:"change"`
	Fields []Field `json:"fields,omitempty"`
}

// Field is one field of a changed configuration, with its value in the
// archive and live; a secret's values are never given, only that it changed.
type Field struct {
	Field   string `json:"field"`
	Archive string `json:"archive,omitempty"`
	Live    string `json:"live,omitempty"`
	Secret  bool   `json:"secret,omitempty"`
}

// Diff lists what differs between archive, restored into target's folder,
// and the files the folder holds now, by path.
func Diff(archive *zip.Reader, target *Target) ([]Change, error) {
	changes := []Change{}
	inArchive := map[string]bool{}
	bodies := decodeAll(archive.File)
	for i, f := range archive.File {
		if f.FileInfo().IsDir() || bodies[i].kind == "" {
			continue
		}
		if err := bodies[i].err; err != nil {
			return nil, fmt.Errorf("entry %s: %w", f.Name, err)
		}
		p := path.Join(target.Folder, f.Name)
		inArchive[p] = true
		l, ok := target.tree[p]
		switch {
		case !ok || l.folder:
			changes = append(changes, Change{Path: p, Change: Added})
		case !l.body.sameAs(bodies[i]):
			fields, err := fieldDiff(bodies[i].conf, l.body.conf)
			if err != nil {
				return nil, err
			}
			changes = append(changes, Change{Path: p, Change: Changed, Fields: fields})
		}
	}
	prefix := strings.TrimSuffix(target.Folder, "/") + "/"
	for p, l := range target.tree {
		if !l.folder && strings.HasPrefix(p, prefix) && !inArchive[p] {
			changes = append(changes, Change{Path: p, Change: Removed})
		}
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

// fieldDiff compares two configurations field by field, where they were
// backed up from aside.
func fieldDiff(archive, live model.Configuration) ([]Field, error) {
	a, err := flatten(archive)
	if err != nil {
		return nil, err
	}
	l, err := flatten(live)
	if err != nil {
		return nil, err
	}
	var names []string
	for name := range a {
		names = append(names, name)
	}
	for name := range l {
		if _, ok := a[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var fields []Field
	for _, name := range names {
		if a[name] == l[name] {
			continue
		}
		f := Field{Field: name, Archive: a[name], Live: l[name]}
		if isSecret(name) {
			f = Field{Field: name, Secret: true}
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// isSecret reports whether a flattened field is a secret property's value.
func isSecret(field string) bool {
	key, ok := strings.CutPrefix(field, "properties.")
	if !ok {
		return false
	}
	if i := strings.LastIndexByte(key, '['); i >= 0 {
		key = key[:i]
	}
	return model.IsSecretProperty(key)
}

// flatten writes a configuration as field paths (file.description,
// properties.user_name[0]) and their JSON values.
func flatten(conf model.Configuration) (map[string]string, error) {
	conf.File.Path = ""
	b, err := json.Marshal(conf)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				walk(strings.TrimPrefix(prefix+"."+k, "."), x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", prefix, i), x)
			}
		default:
			s, _ := json.Marshal(v)
			out[prefix] = string(s)
		}
	}
	walk("", v)
	return out, nil
}
