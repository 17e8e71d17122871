package restoreplan

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"

	"github.com/dapconsole/dapconsole/model"
)

// Secrets are plain values for the secrets of a copy: by the path the file
// has on the source platform, then by property.
type Secrets map[string]map[string]string

// Reseal writes archive to w for another platform: every secret property
// Secrets gives a value for takes it in place of the value sealed with the
// source's key (the target seals it as it stores it), and every file with
// a secret still sealed by the source is returned as needs-secret, at its
// path under folder.
func Reseal(w io.Writer, archive *zip.Reader, secrets Secrets, folder string) ([]File, error) {
	var needs []File
	zw := zip.NewWriter(w)
	bodies := decodeAll(archive.File)
	for i, f := range archive.File {
		d := bodies[i]
		if d.kind != model.KindConnection || d.err != nil {
			if err := zw.Copy(f); err != nil {
				return nil, fmt.Errorf("write the archive: %w", err)
			}
			continue
		}
		given := secrets[d.conf.File.Path]
		var missing []string
		for key, values := range d.conf.Properties {
			switch {
			case !model.IsSecretProperty(key) || len(values) == 0 || values[0] == "":
			case given[key] != "":
				d.conf.Properties[key] = []string{given[key]}
			default:
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			needs = append(needs, File{Path: path.Join(folder, f.Name), Action: NeedsSecret,
				Reason: fmt.Sprintf("%v sealed by the source platform; give them with --secrets FILE ({%q: {%q: \"…\"}})", missing, d.conf.File.Path, missing[0])})
		}
		body, err := json.Marshal(d.conf)
		if err != nil {
			return nil, err
		}
		out, err := zw.Create(f.Name)
		if err != nil {
			return nil, err
		}
		if _, err := out.Write(body); err != nil {
			return nil, err
		}
	}
	return needs, zw.Close()
}
