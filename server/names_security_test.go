package server_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestFolderNamesFollowTheArchiveRules is the reproduction: folder create
// took a backslash and names over 64 KiB, which the ZIP writer then refused,
// so every backup above the folder came out empty. Create, rename and
// restore now check a name as an archive entry's (names.Check), and a
// refused name changes nothing.
func TestFolderNamesFollowTheArchiveRules(t *testing.T) {
	srv, p := demo(t)
	bad := map[string]string{
		"backslash":         `a\b`,
		"too long":          strings.Repeat("x", 256),
		"far too long":      strings.Repeat("x", 70000),
		"zero-width space":  "a\u200bb",
		"byte order mark":   "\ufeffa",
		"not NFC":           "Cafe\u0301",
		"control character": "a\x1bb",
	}
	p.want(p.call("analyst", http.MethodPost, foldersPath("/Analytics"), model.FolderName{Name: "Ok"}), http.StatusCreated, nil)
	before := p.backup("admin", "/")
	for what, name := range bad {
		t.Run(what, func(t *testing.T) {
			p.wantFailure(p.call("analyst", http.MethodPost, foldersPath("/Analytics"), model.FolderName{Name: name}), http.StatusBadRequest, "name")
			p.wantFailure(p.call("analyst", http.MethodPut, foldersPath("/Analytics/Ok")+"/name", model.FolderName{Name: name}), http.StatusBadRequest, "name")
			if len(name) > 0xffff {
				return // no ZIP entry holds it
			}
			// Written by hand: the archive writer refuses the name too.
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			if _, err := zw.Create(name + "/"); err != nil {
				t.Fatal(err)
			}
			zw.Close()
			p.wantFailure(p.upload("analyst", restoreURL("/Analytics/Ok"), "application/zip", buf.Bytes()), http.StatusBadRequest, "")
		})
	}
	if after := p.backup("admin", "/"); string(after) != string(before) {
		t.Fatal("a refused name changed the tree")
	}
	storeFile(t, srv, "/Analytics/Ok")
	// A name of 255 bytes is one.
	p.want(p.call("analyst", http.MethodPost, foldersPath("/Analytics"), model.FolderName{Name: strings.Repeat("é", 127) + "x"}), http.StatusCreated, nil)
}

// TestRenameRewritesPathsInBytes is the reproduction: the rewrite of the
// paths below a renamed folder cut them at the old path's length in bytes
// counted as characters, so ééé → X turned /…/ééé/abcdef/child into
// /…/Xcdef/child.
func TestRenameRewritesPathsInBytes(t *testing.T) {
	srv, p := demo(t)
	for _, folder := range []string{"/Analytics/ééé", "/Analytics/ééé/abcdef", "/Analytics/ééé/abcdef/child"} {
		i := strings.LastIndexByte(folder, '/')
		p.want(p.call("analyst", http.MethodPost, foldersPath(folder[:i]), model.FolderName{Name: folder[i+1:]}), http.StatusCreated, nil)
	}
	p.want(p.call("analyst", http.MethodPut, foldersPath("/Analytics/ééé")+"/name", model.FolderName{Name: "X"}), http.StatusOK, nil)
	storeFile(t, srv, "/Analytics/X/abcdef/child")
	p.want(p.call("analyst", http.MethodPut, foldersPath("/Analytics/X")+"/name", model.FolderName{Name: "日本"}), http.StatusOK, nil)
	storeFile(t, srv, "/Analytics/日本/abcdef/child")
	p.want(p.call("analyst", http.MethodPut, foldersPath("/Analytics/日本/abcdef")+"/parent", map[string]string{"parentFolder": "/Analytics"}), http.StatusOK, nil)
	storeFile(t, srv, "/Analytics/abcdef/child")
}

// TestFolderWritesJudgeTheirFoldersWhereTheyWrite is the reproduction: a
// folder create judged its parent before the transaction that wrote, and
// wrote under the path it had read, so a rename in between left a folder
// whose path named no folder (and, raced right, one inside a folder the
// user could neither see nor write). Creates by file id race renames of
// the parent: every folder made lies where its parent is.
func TestFolderWritesJudgeTheirFoldersWhereTheyWrite(t *testing.T) {
	srv, p := demo(t)
	p.want(p.call("analyst", http.MethodPost, foldersPath("/Analytics"), model.FolderName{Name: "Moving"}), http.StatusCreated, nil)
	id := storeFile(t, srv, "/Analytics/Moving").ID
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 40 {
			p.call("admin", http.MethodPut, foldersPath(fmt.Sprint(id))+"/name", model.FolderName{Name: fmt.Sprintf("Moving %d", i)})
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 40 {
			p.call("analyst", http.MethodPost, foldersPath(fmt.Sprint(id)), model.FolderName{Name: fmt.Sprintf("child %d", i)})
		}
	}()
	wg.Wait()
	moving, err := srv.Store().FileByID(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	children, err := srv.Store().Children(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(children) != 40 {
		t.Errorf("%d children, want 40", len(children))
	}
	for _, c := range children {
		if c.Path != moving.Path+"/"+c.Name {
			t.Errorf("child %q lies at %s, its folder at %s", c.Name, c.Path, moving.Path)
		}
	}
}

func foldersPath(ref string) string { return "/api/filesystem/folders/" + refOf(ref) }

// TestBackupIDsAreASet is the reproduction: a 1 MiB POST backup of one id
// repeated held the server ~55 s, each id resolved alone, and nothing
// capped them. Repeats count once (the archive holds the file once), and
// more than 1,000 distinct ids are refused before any is looked up.
func TestBackupIDsAreASet(t *testing.T) {
	srv, p := demo(t)
	orders := storeFile(t, srv, "/Data/ImportJobs/Orders.imp")
	repeated := make([]any, 100_000)
	for i := range repeated {
		repeated[i] = orders.ID
	}
	repeated = append(repeated, orders.UUID, orders.Path)
	a := p.call("viewer", http.MethodPost, backupURL("/Data/ImportJobs", "ignoreMissingDependencies"), model.BackupSelection{IDs: repeated})
	p.want(a, http.StatusOK, nil)
	if got := entries(t, a.body); len(got) != 1 || got[0] != "Orders.imp" {
		t.Fatalf("entries %v, want Orders.imp once", got)
	}
	distinct := make([]any, 1001)
	for i := range distinct {
		distinct[i] = 1_000_000 + i // none of them exists: the cap answers first
	}
	p.wantFailure(p.call("viewer", http.MethodPost, backupURL("/Data/ImportJobs"), model.BackupSelection{IDs: distinct}),
		http.StatusBadRequest, "at most 1000")
}

// TestHiddenPlusNameAnswersAsAMissingOne is the reproduction: a "+" in a
// path falls back to a space only when the path is missing, so with "Q R"
// visible, "Q+R" answered 404 when a hidden "Q+R" existed and "Q R" when
// it did not: an existence test.
func TestHiddenPlusNameAnswersAsAMissingOne(t *testing.T) {
	_, p := demo(t)
	p.want(p.call("viewer", http.MethodPost, foldersPath("/Users/viewer"), model.FolderName{Name: "Q R"}), http.StatusCreated, nil)
	var missing, hidden model.Folder
	p.want(p.call("viewer", http.MethodGet, foldersPath("/Users/viewer/Q+R"), nil), http.StatusOK, &missing)
	p.want(p.call("admin", http.MethodPost, foldersPath("/Users/viewer"), model.FolderName{Name: "Q+R"}), http.StatusCreated, nil)
	p.want(p.call("admin", http.MethodPut, foldersPath("/Users/viewer/Q+R")+"/permission/others", model.OthersPermission{}), http.StatusOK, nil)
	p.want(p.call("viewer", http.MethodGet, foldersPath("/Users/viewer/Q+R"), nil), http.StatusOK, &hidden)
	if hidden.UUID != missing.UUID || hidden.Name != "Q R" {
		t.Fatalf("with a hidden Q+R the viewer reads %+v, without it %+v", hidden, missing)
	}
}
