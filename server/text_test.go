package server_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
)

// hostileText are characters a terminal acts on, as a hostile user put them
// into names and descriptions for the console to draw: ESC (OSC 8 links,
// titles, CSI), a C1 CSI, BEL, CR and a right-to-left override.
var hostileText = []string{"\x1b]8;;http:evil\x1b\\x", "\x1b[2J", "\u009b2J", "a\x07b", "ok\rFAILED", "inv\u202Egpj.exe", "x\u2066y"}

// TestTextThatActsOnATerminalIsRefused sends each hostile string as a name,
// a path and a description, on create, update and restore: 400 naming the
// field (or the entry), and nothing changes.
func TestTextThatActsOnATerminalIsRefused(t *testing.T) {
	_, p := demo(t)
	id := p.connectionID("/Data/Connections/Warehouse.dst")
	before := p.backup("admin", "/")
	for i, h := range hostileText {
		t.Run(fmt.Sprintf("%d %q", i, h), func(t *testing.T) {
			named := newConnection("/Data/Connections/"+h+".dst", "x")
			p.wantFailure(p.call("admin", http.MethodPost, "/rest/connections", named), http.StatusBadRequest, "file.path")
			described := newConnection("/Data/Connections/Plain.dst", "x")
			described.File.Description = h
			p.wantFailure(p.call("admin", http.MethodPost, "/rest/connections", described), http.StatusBadRequest, "file.description")
			var cfg model.Configuration
			p.get("admin", fmt.Sprintf("/rest/connections/%d", id), &cfg)
			cfg.File.Description = h
			p.wantFailure(p.call("admin", http.MethodPut, fmt.Sprintf("/rest/connections/%d", id), cfg), http.StatusBadRequest, "file.description")
			p.wantFailure(p.call("admin", http.MethodPost, "/api/filesystem/folders/"+refOf("/Data"), model.FolderName{Name: h}), http.StatusBadRequest, "name")
			p.wantFailure(p.call("admin", http.MethodPut, "/api/filesystem/folders/"+refOf("/Data/DataLinks")+"/name", model.FolderName{Name: h}), http.StatusBadRequest, "name")
			entryNamed := archivetest.Build(archivetest.Entry{Name: h + ".dst", Body: archivetest.Connection})
			p.wantFailure(p.upload("admin", restoreURL("/Restored"), "application/zip", entryNamed), http.StatusBadRequest, "entry name")
			folderNamed := archivetest.Build(archivetest.Entry{Name: h + "/"})
			p.wantFailure(p.upload("admin", restoreURL("/Restored"), "application/zip", folderNamed), http.StatusBadRequest, "entry name")
			withDescription := connectionConfig("Plain")
			withDescription.File.Description = h
			entryDescribed := buildArchive(t, nil, archiveFile{path: "Plain.dst", cfg: withDescription})
			f := p.wantFailure(p.upload("admin", restoreURL("/Restored"), "application/zip", entryDescribed), http.StatusBadRequest, "file.description")
			if len(f.Paths) != 1 || f.Paths[0] != "Plain.dst" {
				t.Fatalf("paths %v, want the entry", f.Paths)
			}
			if !bytes.Equal(before, p.backup("admin", "/")) {
				t.Fatal("a refused write changed the tree")
			}
		})
	}
}
