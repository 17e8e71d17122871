package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/store"
)

// refOf is a folder path as a <ref>: URL-encoded, "/" as %2F.
func refOf(path string) string { return url.PathEscape(path) }

// backupURL is the backup address of a folder path with flags (no values).
func backupURL(path string, flags ...string) string {
	u := "/api/filesystem/folders/" + refOf(path) + "/backup"
	if len(flags) > 0 {
		u += "?" + strings.Join(flags, "&")
	}
	return u
}

func restoreURL(path string, flags ...string) string {
	u := "/api/filesystem/folders/" + refOf(path) + "/restore"
	if len(flags) > 0 {
		u += "?" + strings.Join(flags, "&")
	}
	return u
}

// backup downloads a backup as user, wants 200, checks the archive with
// `unzip -t` and returns it.
func (p *platform) backup(user, path string, flags ...string) []byte {
	p.t.Helper()
	a := p.call(user, http.MethodGet, backupURL(path, flags...), nil)
	if a.code != http.StatusOK {
		p.t.Fatalf("backup %s: status %d: %s", path, a.code, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "application/zip" {
		p.t.Fatalf("backup %s: Content-Type %q", path, ct)
	}
	unzipAccepts(p.t, a.body)
	return a.body
}

// upload sends a restore with a raw body and content type.
func (p *platform) upload(user, url, contentType string, body []byte) answer {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPut, p.base+url, bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.SetBasicAuth(user, user)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("restore: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return answer{code: resp.StatusCode, header: resp.Header, body: raw}
}

// restore uploads an archive as user into path with flags and wants 200,
// with the answer written byte for byte as json.Marshal writes the result
// (the server writes it as it reads it, not through json.Marshal).
func (p *platform) restore(user, path string, body []byte, flags ...string) model.RestoreResult {
	p.t.Helper()
	var res model.RestoreResult
	a := p.upload(user, restoreURL(path, flags...), "application/zip", body)
	p.want(a, http.StatusOK, &res)
	if marshalled, _ := json.Marshal(res); !bytes.Equal(marshalled, a.body) {
		p.t.Fatalf("the answer\n%s\nis not, as json.Marshal writes it,\n%s", a.body, marshalled)
	}
	return res
}

// unzipAccepts runs Info-ZIP `unzip -t` on an archive the server wrote.
func unzipAccepts(t testing.TB, body []byte) {
	t.Helper()
	unzip, err := exec.LookPath("unzip")
	if err != nil {
		t.Log("unzip is not installed; skipping the unzip -t check")
		return
	}
	path := filepath.Join(t.TempDir(), "backup.zip")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(unzip, "-tq", path).CombinedOutput(); err != nil {
		t.Fatalf("unzip -t refuses the archive: %v\n%s", err, out)
	}
}

// entries lists an archive's entry names, sorted.
func entries(t testing.TB, body []byte) []string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// metadataOf decodes an archive's permissions entry (nil without one).
func metadataOf(t testing.TB, body []byte) *archive.Metadata {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name != archive.MetadataName {
			continue
		}
		rc, _ := f.Open()
		defer rc.Close()
		var m archive.Metadata
		if err := json.NewDecoder(rc).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	return nil
}

// treeFile is a file of a tree as a restore must reproduce it: paths
// relative to the tree's folder, sources inside it relative too.
type treeFile struct {
	Kind        model.Kind
	Owner       string
	Others      model.Flags
	Groups      map[string]model.Flags
	Description string
	Config      string // the configuration's JSON, file and secrets aside
	Sources     []string
}

// snapshot reads the tree below folder from the store, field by field.
func snapshot(t testing.TB, srv *server.Server, folder string) map[string]treeFile {
	t.Helper()
	ctx := context.Background()
	st := srv.Store()
	root, err := st.FileByPath(ctx, folder)
	if err != nil {
		t.Fatal(err)
	}
	below, err := st.Descendants(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(p string) string {
		if strings.HasPrefix(p, folder+"/") {
			return "./" + strings.TrimPrefix(p, folder+"/")
		}
		return p
	}
	out := map[string]treeFile{}
	for _, f := range below {
		tf := treeFile{Kind: f.Kind, Owner: f.Owner, Others: f.Others, Groups: map[string]model.Flags{}, Description: f.Description}
		groups, err := st.GroupPermissions(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range groups {
			tf.Groups[g.Group.Name] = g.Flags
		}
		if !f.IsFolder() {
			cfg, err := st.Configuration(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			links := cfg.Links()
			for _, s := range links {
				tf.Sources = append(tf.Sources, rel(s.Path))
			}
			cfg.File = model.FileInfo{}
			cfg.SetLinks(make([]model.SourceRef, len(links))) // compared apart, as paths below the folder
			for k := range cfg.Properties {
				if model.IsSecretProperty(k) { // sealed anew on restore; compare what they open to
					for i, v := range cfg.Properties[k] {
						plain, err := st.Secrets().Reveal(v)
						if err != nil {
							t.Fatal(err)
						}
						cfg.Properties[k][i] = plain
					}
				}
			}
			raw, _ := json.Marshal(cfg)
			tf.Config = string(raw)
		}
		out[rel(f.Path)] = tf
	}
	return out
}

// sameTree compares two snapshots field by field; ignore drops fields
// (owner, others, groups) a restore without flags does not keep.
func sameTree(t testing.TB, got, want map[string]treeFile, ignore ...string) {
	t.Helper()
	strip := func(m map[string]treeFile) map[string]treeFile {
		out := map[string]treeFile{}
		for k, v := range m {
			for _, field := range ignore {
				switch field {
				case "owner":
					v.Owner = ""
				case "others":
					v.Others = model.Flags{}
				case "groups":
					v.Groups = nil
				}
			}
			out[k] = v
		}
		return out
	}
	got, want = strip(got), strip(want)
	for path, w := range want {
		g, ok := got[path]
		if !ok {
			t.Errorf("%s missing after restore", path)
			continue
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s differs:\n got %+v\nwant %+v", path, g, w)
		}
	}
	for path := range got {
		if _, ok := want[path]; !ok {
			t.Errorf("%s appeared after restore", path)
		}
	}
}

// file returns the store's file at path.
func storeFile(t testing.TB, srv *server.Server, path string) store.File {
	t.Helper()
	f, err := srv.Store().FileByPath(context.Background(), path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// archiveOf builds an archive with the server's writer: entries are
// folders (ending in "/") or files with a configuration.
type archiveFile struct {
	path string
	cfg  *model.Configuration
	meta *archive.FileMeta
}

func buildArchive(t testing.TB, sections []string, files ...archiveFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, sections)
	for _, f := range files {
		var err error
		if f.cfg == nil {
			err = w.AddFolder(f.path, f.meta)
		} else {
			body, _ := json.Marshal(f.cfg)
			err = w.AddFile(f.path, body, f.meta)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func connectionConfig(name string) *model.Configuration {
	return &model.Configuration{Version: "2.1", ClassName: "datameer.dap.common.entity.DataStore", TypeID: "das.FileSystemDataStoreType",
		File: model.FileInfo{Name: name, Description: "restored " + name}, Properties: map[string][]string{"key.connectionUrl": {"file:///srv/restored/" + name + "/"}}}
}
