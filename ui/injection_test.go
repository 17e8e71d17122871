package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/store"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// seedHostile puts files named and described with every hostile string of
// uitest.Hostile into the store: a folder, a connection and an import job
// reading from it for each, the imports kept running so the dashboard lists
// them; then it arms refuseTriggers. The server refuses such names through
// its interface and the store on create, so they are written in afterwards,
// as a hostile or older server would hold them.
func seedHostile(t *testing.T, armed *atomic.Bool) func(srv *server.Server, url string) {
	return func(srv *server.Server, url string) {
		ctx := context.Background()
		filesURL := "file://" + filepath.ToSlash(server.FilesDir(srv.Store().Dir())) + "/"
		placeholder := func(i int) string { return fmt.Sprintf("%d HOSTILE", i) }
		err := srv.Store().InTx(ctx, func(tx *store.Tx) error {
			for i := range uitest.Hostile {
				name := placeholder(i)
				if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/Data/" + name, OwnerID: 1}); err != nil {
					return err
				}
				conn := &model.Configuration{Version: "1", TypeID: "das.FileSystemDataStoreType", File: model.FileInfo{Description: "hostile " + name},
					Properties: map[string][]string{model.PropConnectionURL: {filesURL}}}
				if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/Data/Connections/" + name + ".dst", OwnerID: 1, Config: conn}); err != nil {
					return err
				}
				imp := &model.Configuration{Version: "1", TypeID: "das.CsvImportJobType", File: model.FileInfo{Description: "hostile " + name},
					Properties: map[string][]string{"path": {"events.csv"}, "format": {"csv"}, "pace.rowsPerSecond": {"50"}},
					Sources:    []model.SourceRef{{Path: "/Data/Connections/" + name + ".dst"}}}
				if _, err := tx.CreateFile(ctx, store.NewFile{Path: "/Data/ImportJobs/" + name + ".imp", OwnerID: 1, Config: imp}); err != nil {
					return err
				}
			}
			for i, h := range uitest.Hostile {
				if _, err := tx.Tx.ExecContext(ctx, `UPDATE files SET path = replace(path, ?1, ?2), name = replace(name, ?1, ?2),
					description = replace(description, ?1, ?2) WHERE path LIKE '%' || ?1 || '%'`, placeholder(i), fmt.Sprintf("%d %s", i, h)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		client := api.New(url, "admin", "admin")
		for i, h := range uitest.Hostile {
			if _, err := client.TriggerJob(ctx, api.Path(fmt.Sprintf("/Data/ImportJobs/%d %s.imp", i, h))); err != nil {
				t.Fatal(err)
			}
		}
		armed.Store(true)
	}
}

// TestNoTerminalInjection feeds every hostile string of uitest.Hostile
// through every pane (the folder tree, breadcrumbs and permissions; the
// connections list, details and graph; the jobs dashboard, history and
// details) and the status line: no frame holds anything that acts on a
// terminal but the console's own styles.
func TestNoTerminalInjection(t *testing.T) {
	var armed atomic.Bool
	c := startConsole(t, consoleOpts{width: 160, height: 50, seed: seedHostile(t, &armed), wrap: refuseTriggers(&armed),
		panes: ownModels})
	clean := func(where string) {
		t.Helper()
		if found := uitest.Controls(c.frame()); len(found) > 0 {
			t.Errorf("%s: the frame holds %d control(s), first %s", where, len(found), found[0])
		}
	}
	c.waitFor("Data")
	c.keys(":")
	c.typeText("cd /Data")
	c.keys("enter")
	c.waitFor("› Data")
	c.keys("right")
	c.waitFor("0 ")
	clean("folder tree")
	c.keys("j")
	clean("breadcrumbs")
	c.keys("p")
	c.waitFor("Permissions of")
	clean("permissions")
	c.keys("esc", "2")
	c.waitFor("hostile")
	clean("connections list")
	c.keys("i")
	c.waitFor("description")
	clean("connection details")
	c.keys("esc", "enter")
	c.waitFor("Dependencies")
	c.waitFor("ImportJobs")
	clean("dependency graph")
	c.keys("esc", "3")
	c.waitFor(".imp")
	clean("jobs dashboard")
	c.keys("enter")
	c.waitFor("History of")
	c.waitFor("#")
	clean("job history")
	c.keys("enter")
	c.waitFor("Execution #")
	clean("execution details")
	c.keys("esc", "esc", "2")
	c.waitFor("DESCRIPTION")
	c.keys("d")
	c.waitFor("Cannot delete")
	clean("delete refusal")
	c.keys("enter", "3")
	c.waitFor(".imp")
	c.keys("t")
	c.waitFor("[y] trigger") // a trigger asks first
	c.keys("y")
	c.waitFor("409")
	clean("status line")
}

// refuseTriggers answers every trigger, once armed, as a hostile server
// would: a refusal whose reason holds each of uitest.Hostile.
func refuseTriggers(armed *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler { return refusing(armed, next) }
}

func refusing(armed *atomic.Bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if armed.Load() && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/trigger") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			json.NewEncoder(w).Encode(model.Failure{Status: model.StatusFailure, Reason: strings.Join(uitest.Hostile, " ")})
			return
		}
		next.ServeHTTP(w, r)
	})
}
