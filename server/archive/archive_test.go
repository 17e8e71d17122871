package archive_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
)

func TestHostileArchivesAreRefused(t *testing.T) {
	for _, c := range archivetest.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			a, err := read(bytes.NewReader(c.Body), t.TempDir(), archivetest.Limits)
			if err == nil {
				a.Close()
				t.Fatalf("accepted; want %v", c.Want)
			}
			if !errors.Is(err, c.Want) || !strings.Contains(err.Error(), c.Fragment) {
				t.Fatalf("error %q; want %v with %q", err, c.Want, c.Fragment)
			}
		})
	}
}

func TestReadLeavesNoSpoolBehind(t *testing.T) {
	dir := t.TempDir()
	if _, err := read(strings.NewReader("not a zip"), dir, archivetest.Limits); err == nil {
		t.Fatal("accepted a non-ZIP body")
	}
	good := archivetest.Build(archivetest.Entry{Name: "a.dst", Body: archivetest.Connection})
	a, err := read(bytes.NewReader(good), dir, archivetest.Limits)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// read spools an upload and opens it, as a restore does.
func read(r io.Reader, dir string, limits archive.Limits) (*archive.Archive, error) {
	u, err := archive.Spool(r, dir, limits)
	if err != nil {
		return nil, err
	}
	return u.Open(nil)
}

// written is a tree as the writer takes it: folders, files with bodies, metadata.
func writeSample(t testing.TB, included []string) ([]byte, *archive.Metadata) {
	t.Helper()
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, included)
	owner := &archive.FileMeta{Owner: "analyst", Others: &model.Flags{Readable: true},
		Groups: []model.GroupPermission{{Name: "analysts", Flags: model.Flags{Readable: true, Writable: true}}}}
	steps := []func() error{
		func() error { return w.AddFolder("Data", owner) },
		func() error { return w.AddFolder("Data/Sub Folder", nil) },
		func() error {
			return w.AddFile("Data/Sub Folder/Local Files.dst", []byte(archivetest.Connection), owner)
		},
		func() error { return w.AddFile("Sales.wbk", []byte(`{"version":"1"}`), nil) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := &archive.Metadata{Version: archive.MetadataVersion, Included: included,
		Files: map[string]archive.FileMeta{"Data": *owner, "Data/Sub Folder/Local Files.dst": *owner}}
	return buf.Bytes(), want
}

func TestWrittenArchiveReadsBack(t *testing.T) {
	body, wantMeta := writeSample(t, []string{archive.SectionOwner, archive.SectionSharing, archive.SectionGroupPermissions})
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range a.Entries {
		got = append(got, string(e.Kind)+" "+e.Path)
	}
	want := []string{"folder Data", "folder Data/Sub Folder", "connection Data/Sub Folder/Local Files.dst", "workbook Sales.wbk"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
	if !reflect.DeepEqual(a.Metadata, wantMeta) {
		t.Fatalf("metadata %+v, want %+v", a.Metadata, wantMeta)
	}
	if b, err := a.ReadFile(a.Entries[2]); err != nil || string(b) != archivetest.Connection {
		t.Fatalf("body %q, %v", b, err)
	}
	unzipTest(t, body)
}

func TestNoMetadataWithoutSections(t *testing.T) {
	body, _ := writeSample(t, nil)
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Metadata != nil {
		t.Fatalf("metadata %+v written without a section", a.Metadata)
	}
	unzipTest(t, body)
}

func TestWriterRefusesWhatTheReaderWould(t *testing.T) {
	for _, name := range []string{"../x.dst", "/x.dst", `a\b.dst`, "notes.txt", archive.MetadataName, "a//b.dst"} {
		w := archive.NewWriter(&bytes.Buffer{}, nil)
		if err := w.AddFile(name, []byte("{}"), nil); err == nil {
			t.Errorf("AddFile(%q) accepted", name)
		}
	}
	w := archive.NewWriter(&bytes.Buffer{}, nil)
	if err := w.AddFolder("Data", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.AddFolder("Data", nil); err == nil {
		t.Error("the same folder was added twice")
	}
}

func TestImpliedFoldersAreListed(t *testing.T) {
	body := archivetest.Build(archivetest.Entry{Name: "A/B/c.imp", Body: "{}"})
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range a.Entries {
		got = append(got, e.Path)
	}
	if want := []string{"A", "A/B", "A/B/c.imp"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
}

// TestInfoZipArchiveReads reads an archive made by Info-ZIP `zip -r` from a
// tree on disk, the way an admin would build one by hand.
func TestInfoZipArchiveReads(t *testing.T) {
	zipPath, err := exec.LookPath("zip")
	if err != nil {
		t.Skip("Info-ZIP zip is not installed; skipping")
	}
	tree := t.TempDir()
	for _, f := range []string{"Data/Connections/Local.dst", "Data/ImportJobs/Orders.imp", "Analytics/Sales.wbk"} {
		os.MkdirAll(filepath.Join(tree, filepath.Dir(f)), 0o755)
		if err := os.WriteFile(filepath.Join(tree, f), []byte(archivetest.Connection), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "tree.zip")
	cmd := exec.Command(zipPath, "-qr", out, "Data", "Analytics")
	cmd.Dir = tree
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zip: %v: %s", err, msg)
	}
	body, _ := os.ReadFile(out)
	a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archive.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != 7 {
		t.Fatalf("%d entries, want 7 (4 folders, 3 files): %+v", len(a.Entries), a.Entries)
	}
}

// unzipTest runs Info-ZIP's `unzip -t` on an archive, or skips with a note.
func unzipTest(t *testing.T, body []byte) {
	t.Helper()
	unzip, err := exec.LookPath("unzip")
	if err != nil {
		t.Log("unzip is not installed; skipping the unzip -t check")
		return
	}
	path := filepath.Join(t.TempDir(), "a.zip")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(unzip, "-t", path).CombinedOutput(); err != nil {
		t.Fatalf("unzip -t: %v\n%s", err, out)
	}
}

// FuzzReadArchive feeds the reader mutations of the hostile corpus and of
// good archives: it must never panic, and must either refuse with
// ErrInvalid or ErrTooLarge or give entries whose bodies read back.
func FuzzReadArchive(f *testing.F) {
	for _, c := range archivetest.Hostile() {
		if len(c.Body) < 64<<10 { // big seeds slow every mutation down
			f.Add(c.Body)
		}
	}
	good, _ := writeSample(f, []string{archive.SectionOwner, archive.SectionDataPermissions})
	f.Add(good)
	f.Add(archivetest.Build(archivetest.Entry{Name: "A/B/c.imp", Body: "{}"}, archivetest.Entry{Name: "A/"}))
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := archive.Open(bytes.NewReader(body), int64(len(body)), archivetest.Limits, nil)
		if err != nil {
			if !errors.Is(err, archive.ErrInvalid) && !errors.Is(err, archive.ErrTooLarge) {
				t.Fatalf("error %v is neither ErrInvalid nor ErrTooLarge", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range a.Entries {
			if seen[e.Path] || e.Path == "" || strings.HasPrefix(e.Path, "/") || hasDotDot(e.Path) {
				t.Fatalf("accepted entry %q", e.Path)
			}
			seen[e.Path] = true
			if e.IsFolder() {
				continue
			}
			if _, ok := model.KindOfPath(e.Path); !ok {
				t.Fatalf("accepted %q without a platform extension", e.Path)
			}
			if _, err := a.ReadFile(e); err != nil {
				t.Fatalf("validated entry %q does not read: %v", e.Path, err)
			}
		}
	})
}

func hasDotDot(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return true
		}
	}
	return false
}

// TestCompressStoresWhatDeflateCannotShrink: a tiny body is stored as it
// is, a larger one deflated, and zip readers read both back unchanged.
func TestCompressStoresWhatDeflateCannotShrink(t *testing.T) {
	bodies := map[string][]byte{
		"Tiny.dst":  []byte(`{}`),
		"Large.dst": []byte(`{"properties":{"a":["` + strings.Repeat("warehouse ", 200) + `"]}}`),
	}
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, nil)
	for _, name := range []string{"Tiny.dst", "Large.dst"} {
		c, err := archive.Compress(name, bodies[name])
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddCompressed(c, nil); err != nil {
			t.Fatal(err)
		}
	}
	zr := closeAndOpen(t, w, &buf)
	methods := map[string]uint16{"Tiny.dst": zip.Store, "Large.dst": zip.Deflate}
	for _, f := range zr.File {
		want, ok := bodies[f.Name]
		if !ok {
			continue
		}
		if f.Method != methods[f.Name] {
			t.Errorf("%s written with method %d, want %d", f.Name, f.Method, methods[f.Name])
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc) // checks the CRC too
		rc.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s reads back %d bytes (%v), want its %d", f.Name, len(got), err, len(want))
		}
	}
	if _, err := archive.Compress("notes.txt", []byte("x")); !errors.Is(err, archive.ErrInvalid) {
		t.Errorf("Compress of a name that is no platform file: %v, want ErrInvalid", err)
	}
}

// TestEntriesCarryTheSameTime: a file entry, written raw after Compress,
// says what a folder entry, written by archive/zip's CreateHeader, says of
// its time and of the zip version needed; raw entries once said 1980-00-00
// and version 0.0.
func TestEntriesCarryTheSameTime(t *testing.T) {
	var buf bytes.Buffer
	w := archive.NewWriter(&buf, nil)
	if err := w.AddFolder("Connections", nil); err != nil {
		t.Fatal(err)
	}
	bodies := map[string][]byte{
		"Connections/Tiny.dst":  []byte(`{}`),
		"Connections/Small.dst": []byte(archivetest.Connection),
		"Connections/Large.dst": []byte(`{"properties":{"a":["` + strings.Repeat("warehouse ", 800) + `"]}}`),
	}
	for name, body := range bodies {
		if err := w.AddFile(name, body, nil); err != nil {
			t.Fatal(err)
		}
	}
	zr := closeAndOpen(t, w, &buf)
	folder := zr.File[0]
	if folder.Name != "Connections/" || folder.ModifiedDate == 0 {
		t.Fatalf("first entry %q dated %d", folder.Name, folder.ModifiedDate)
	}
	for _, f := range zr.File[1:] {
		if _, ok := bodies[f.Name]; !ok {
			continue
		}
		if f.ModifiedDate != folder.ModifiedDate || f.ModifiedTime != folder.ModifiedTime || !f.Modified.Equal(folder.Modified) {
			t.Errorf("%s dated %d/%d %v, the folder %d/%d %v", f.Name, f.ModifiedDate, f.ModifiedTime, f.Modified,
				folder.ModifiedDate, folder.ModifiedTime, folder.Modified)
		}
		if f.ReaderVersion != folder.ReaderVersion || f.CreatorVersion != folder.CreatorVersion {
			t.Errorf("%s needs version %d, made by %#x; the folder %d, %#x", f.Name, f.ReaderVersion, f.CreatorVersion,
				folder.ReaderVersion, folder.CreatorVersion)
		}
	}
}

// closeAndOpen closes w, which wrote to buf, and opens what it wrote.
func closeAndOpen(t *testing.T, w *archive.Writer, buf *bytes.Buffer) *zip.Reader {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}
