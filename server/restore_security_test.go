package server_test

import (
	"bytes"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
)

// TestRestoreChangesOnlyWhatThePermissionEndpointsAllow restores metadata
// onto existing folders: each case answers as the permission endpoint that
// makes the same change answers the same user, and a refusal changes nothing.
// The first case is the reproduction: an analyst made himself owner of a
// folder through restore that PUT …/permission/owner refuses him.
func TestRestoreChangesOnlyWhatThePermissionEndpointsAllow(t *testing.T) {
	srv, p := demo(t)
	// /Analytics/Team: owned by admin, the analysts may write it (inherited).
	p.restore("admin", "/Analytics", buildArchive(t, nil, archiveFile{path: "Team"}))
	teamID := storeFile(t, srv, "/Analytics/Team").ID
	fileHref := func(id int64) string { return fmt.Sprintf("/api/filesystem/folders/%d", id) }
	viewers := []model.GroupPermission{{Name: "viewers", Flags: model.Flags{Readable: true, Writable: true}}}
	analystsAndViewers := []model.GroupPermission{{Name: "analysts", Flags: model.Flags{Readable: true, Writable: true, Executable: true}}, viewers[0]}
	cases := []struct {
		name, user, target string
		section            string
		meta               archive.FileMeta
		flags              []string
		endpoint           func() answer // the same change through the permission endpoints
		code               int
	}{
		{"owner of a folder the analyst may only write", "analyst", "/Analytics", archive.SectionOwner, archive.FileMeta{Owner: "analyst"},
			[]string{model.FlagOverwrite, model.FlagIncludeOwner},
			func() answer {
				return p.call("analyst", http.MethodPut, fileHref(teamID)+"/permission/owner", model.Owner{Owner: "analyst"})
			}, http.StatusForbidden},
		{"owner recorded as nobody is the uploader, still a change", "analyst", "/Analytics", archive.SectionOwner, archive.FileMeta{},
			[]string{model.FlagOverwrite, model.FlagIncludeOwner},
			func() answer {
				return p.call("analyst", http.MethodPut, fileHref(teamID)+"/permission/owner", model.Owner{Owner: "analyst"})
			}, http.StatusForbidden},
		{"groups of a folder the viewer may not write", "viewer", "/Data", archive.SectionGroupPermissions, archive.FileMeta{Groups: viewers},
			[]string{model.FlagOverwrite, model.FlagIncludeGroupPermissions},
			func() answer {
				return p.call("viewer", http.MethodPut, "/api/filesystem/folders/"+refOf("/Data/Connections")+"/permission/groups/viewers", viewers[0])
			}, http.StatusForbidden},
		{"sharing of a folder the viewer may not write", "viewer", "/Data", archive.SectionSharing, archive.FileMeta{Others: &model.Flags{Readable: true, Writable: true}},
			[]string{model.FlagOverwrite, model.FlagIncludeSharing},
			func() answer {
				return p.call("viewer", http.MethodPut, "/api/filesystem/folders/"+refOf("/Data/Connections")+"/permission/others",
					model.OthersPermission{Readable: true, Writable: true})
			}, http.StatusForbidden},
		{"groups of a folder the analyst may write", "analyst", "/Analytics", archive.SectionGroupPermissions, archive.FileMeta{Groups: analystsAndViewers},
			[]string{model.FlagOverwrite, model.FlagIncludeGroupPermissions},
			func() answer {
				return p.call("analyst", http.MethodPut, fileHref(teamID)+"/permission/groups/analysts", analystsAndViewers[0])
			}, http.StatusOK},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			folder := "Team"
			if c.target == "/Data" {
				folder = "Connections"
			}
			body := buildArchive(t, []string{c.section}, archiveFile{path: folder, meta: &c.meta})
			before := p.backup("admin", "/", model.FlagIncludeOwner, model.FlagIncludeSharing, model.FlagIncludeGroupPermissions)
			a := p.upload(c.user, restoreURL(c.target, c.flags...), "application/zip", body)
			if c.code != http.StatusOK {
				p.wantFailure(a, c.code, "")
				if !bytes.Equal(before, p.backup("admin", "/", model.FlagIncludeOwner, model.FlagIncludeSharing, model.FlagIncludeGroupPermissions)) {
					t.Fatal("a refused restore changed the tree")
				}
			} else {
				p.want(a, c.code, nil)
			}
			if e := c.endpoint(); e.code != c.code {
				t.Fatalf("the endpoint answers %d, the restore %d", e.code, c.code)
			}
		})
	}
	t.Run("the owner may hand his folder to another user", func(t *testing.T) {
		p.restore("analyst", "/Analytics", buildArchive(t, nil, archiveFile{path: "Mine"}))
		body := buildArchive(t, []string{archive.SectionOwner}, archiveFile{path: "Mine", meta: &archive.FileMeta{Owner: "viewer"}})
		p.restore("analyst", "/Analytics", body, model.FlagOverwrite, model.FlagIncludeOwner)
		if f := storeFile(t, srv, "/Analytics/Mine"); f.Owner != "viewer" {
			t.Fatalf("owner %s, want viewer", f.Owner)
		}
	})
}

// TestRestoreAnswersTheSameForHiddenAndMissing restores as the viewer
// behind folders he may not see and where nothing exists: the same status and
// wording, and no name from behind a closed folder in the answer. The
// reproductions: a target in /Exports answered 404 where a missing one
// answered 403, and an entry behind a closed folder answered "already
// exist …/Hidden Payroll.dst".
func TestRestoreAnswersTheSameForHiddenAndMissing(t *testing.T) {
	_, p := demo(t)
	// /Users/viewer/Closed: the viewer's own folder, with a folder inside that
	// the admin owns and closes; it holds Hidden Payroll.dst.
	p.restore("admin", "/Users/viewer", buildArchive(t, nil, archiveFile{path: "Closed/Hidden Payroll.dst", cfg: connectionConfig("Hidden Payroll")}))
	p.want(p.call("admin", http.MethodPut, "/api/filesystem/folders/"+refOf("/Users/viewer/Closed")+"/permission/others", model.OthersPermission{}), http.StatusOK, nil)
	p.want(p.call("admin", http.MethodPut, "/api/filesystem/folders/"+refOf("/Users/viewer/Closed")+"/permission/owner", model.Owner{Owner: "admin"}), http.StatusOK, nil)
	conn := buildArchive(t, nil, archiveFile{path: "Hidden Payroll.dst", cfg: connectionConfig("Hidden Payroll")})
	t.Run("targets", func(t *testing.T) {
		for _, pair := range [][2]string{{"/Exports/New", "/Nowhere/New"}, {"/Analytics/Finance/New", "/Analytics/Nowhere/New"}} {
			hidden := p.upload("viewer", restoreURL(pair[0]), "application/zip", conn)
			missing := p.upload("viewer", restoreURL(pair[1]), "application/zip", conn)
			p.wantFailure(hidden, http.StatusForbidden, "write permission required")
			if hidden.code != missing.code || !bytes.Equal(hidden.body, missing.body) {
				t.Fatalf("%s answers %d %s, %s answers %d %s", pair[0], hidden.code, hidden.body, pair[1], missing.code, missing.body)
			}
		}
	})
	t.Run("entries", func(t *testing.T) {
		deep := buildArchive(t, nil, archiveFile{path: "Closed/Hidden Payroll.dst", cfg: connectionConfig("Hidden Payroll")})
		other := buildArchive(t, nil, archiveFile{path: "Closed/Other.dst", cfg: connectionConfig("Other")})
		for _, body := range [][]byte{deep, other} {
			a := p.upload("viewer", restoreURL("/Users/viewer", model.FlagOverwrite), "application/zip", body)
			f := p.wantFailure(a, http.StatusConflict, "taken by files you may not see")
			if !reflect.DeepEqual(f.Paths, []string{"/Users/viewer/Closed"}) || bytes.Contains(a.body, []byte("Payroll")) {
				t.Fatalf("answer %s names what the closed folder holds", a.body)
			}
		}
	})
	t.Run("a target a hidden folder holds is taken, as for any create", func(t *testing.T) {
		a := p.upload("viewer", restoreURL("/Users/viewer/Closed/Deeper"), "application/zip", conn)
		f := p.wantFailure(a, http.StatusConflict, "taken by files you may not see")
		if !reflect.DeepEqual(f.Paths, []string{"/Users/viewer/Closed"}) || bytes.Contains(a.body, []byte("Payroll")) {
			t.Fatalf("answer %s", a.body)
		}
	})
	t.Run("hostile archives", func(t *testing.T) {
		hostile := archivetest.Build(archivetest.Entry{Name: "../x.dst", Body: "{}"})
		for _, target := range []string{"/Exports/New", "/Nowhere/New"} {
			p.wantFailure(p.upload("viewer", restoreURL(target), "application/zip", hostile), http.StatusBadRequest, "climbs out")
		}
	})
}
