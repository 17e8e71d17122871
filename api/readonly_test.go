package api_test

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestReadOnlyClientSendsNoWrite calls every write of the client made read
// only: each fails with ErrReadOnly and the server records none; reads,
// backups of chosen files included, still work.
func TestReadOnlyClientSendsNoWrite(t *testing.T) {
	var rec servertest.WriteRecorder
	url := servertest.Start(t, server.Config{DemoData: true}, rec.Wrap).URL
	for name, c := range map[string]*api.Client{
		"WithReadOnly": api.New(url, "admin", "admin", api.WithReadOnly()),
		"AsReadOnly":   api.New(url, "admin", "admin").AsReadOnly(),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			job := api.Path("/Data/ImportJobs/Orders.imp")
			folder := api.Path("/Data/Connections")
			writes := map[string]func() error{
				"CreateConnection": func() error { _, err := c.CreateConnection(ctx, model.Connection{}); return err },
				"UpdateConnection": func() error { return c.UpdateConnection(ctx, 1, model.Connection{}) },
				"DeleteConnection": func() error { return c.DeleteConnection(ctx, 1) },
				"CreateConfiguration": func() error {
					_, err := c.CreateConfiguration(ctx, model.KindWorkbook, model.Configuration{})
					return err
				},
				"UpdateConfiguration": func() error {
					return c.UpdateConfiguration(ctx, model.KindExportJob, 1, model.Configuration{})
				},
				"DeleteConfiguration": func() error { return c.DeleteConfiguration(ctx, model.KindImportJob, 1) },
				"SetTags":             func() error { _, err := c.SetTags(ctx, job, []string{"x"}); return err },
				"DeleteFiles":         func() error { return c.DeleteFiles(ctx, 1) },
				"CreateWorkbookV2": func() error {
					_, err := c.CreateWorkbookV2(ctx, model.WorkbookV2Body{})
					return err
				},
				"UpdateWorkbookV2": func() error { return c.UpdateWorkbookV2(ctx, api.Path("/Analytics/Sales.wbk"), model.WorkbookV2Body{}) },
				"RollbackWorkbook": func() error { return c.RollbackWorkbook(ctx, 1) },
				"CreateFolder":     func() error { _, err := c.CreateFolder(ctx, folder, "x"); return err },
				"RenameFolder":     func() error { _, err := c.RenameFolder(ctx, folder, "x"); return err },
				"MoveFolder":       func() error { _, err := c.MoveFolder(ctx, folder, api.Path("/Users")); return err },
				"DeleteFolder":     func() error { return c.DeleteFolder(ctx, folder) },
				"ChangeOwner":      func() error { _, err := c.ChangeOwner(ctx, folder, "viewer"); return err },
				"CreateGroupPermission": func() error {
					_, err := c.CreateGroupPermission(ctx, folder, "viewers", model.Flags{Writable: true})
					return err
				},
				"ChangeGroupPermission": func() error {
					_, err := c.ChangeGroupPermission(ctx, folder, "analysts", model.Flags{})
					return err
				},
				"DeleteGroupPermission":  func() error { _, err := c.DeleteGroupPermission(ctx, folder, "analysts"); return err },
				"ChangeOthersPermission": func() error { _, err := c.ChangeOthersPermission(ctx, folder, model.Flags{Writable: true}); return err },
				"Restore": func() error {
					_, err := c.Restore(ctx, api.Path("/Copy"), bytes.NewReader([]byte("PK")), 2, 0, nil)
					return err
				},
				"TriggerJob":      func() error { _, err := c.TriggerJob(ctx, job); return err },
				"TriggerSequence": func() error { _, err := c.TriggerSequence(ctx, []int64{1}, nil); return err },
				"StopJob":         func() error { return c.StopJob(ctx, job) },
				"DeleteJobData":   func() error { _, err := c.DeleteJobData(ctx, 1); return err },
			}
			for call, write := range writes {
				if err := write(); !api.IsReadOnly(err) || !api.IsNotSent(err) {
					t.Errorf("%s: %v, want ErrReadOnly, not sent", call, err)
				}
			}
			if _, err := c.RootFolder(ctx); err != nil {
				t.Fatalf("a read-only client cannot read: %v", err)
			}
			if _, err := c.BackupFiles(ctx, api.Path("/Data"), []api.Ref{api.Path("/Data/Connections")}, 0, io.Discard, nil); err != nil {
				t.Fatalf("a read-only client cannot back up chosen files: %v", err)
			}
		})
	}
	if len(rec.Writes()) > 0 {
		t.Fatalf("the server received writes: %v", rec.Writes())
	}
}
