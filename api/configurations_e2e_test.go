package api_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// TestConfigurationWrites creates, updates and deletes a workbook through
// the client against the embedded platform, and sees each refusal as the
// error its status calls for.
func TestConfigurationWrites(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := context.Background()
	wb := model.Configuration{File: model.FileInfo{Path: "/Analytics/Made by API.wbk", Description: "new"},
		Properties: map[string][]string{"sql": {"SELECT * FROM input1"}},
		Sheets:     []model.Sheet{{Name: "src", Datasource: &model.SourceRef{Path: "/Data/ImportJobs/Orders.imp"}}}}
	id, err := analyst.CreateConfiguration(ctx, model.KindWorkbook, wb)
	if err != nil || id <= 0 {
		t.Fatalf("create: %d, %v", id, err)
	}
	read, err := analyst.Configuration(ctx, model.KindWorkbook, id)
	if err != nil || read.File.Path != wb.File.Path || read.Sheets[0].Datasource.UUID == "" {
		t.Fatalf("read back %+v, %v", read, err)
	}
	read.File.Description = "changed"
	if err := analyst.UpdateConfiguration(ctx, model.KindWorkbook, id, read); err != nil {
		t.Fatalf("update: %v", err)
	}
	if again, err := analyst.Configuration(ctx, model.KindWorkbook, id); err != nil || again.File.Description != "changed" {
		t.Fatalf("after update %+v, %v", again.File, err)
	}

	orders := listedID(t, admin, model.KindImportJob, "/Data/ImportJobs/Orders.imp")
	err = analyst.DeleteConfiguration(ctx, model.KindImportJob, orders)
	var apiErr *api.Error
	if !api.IsConflict(err) || !errors.As(err, &apiErr) || !slices.Contains(apiErr.Paths, wb.File.Path) {
		t.Fatalf("delete of a job others read: %v, want a conflict naming %s", err, wb.File.Path)
	}
	if err := viewer.DeleteConfiguration(ctx, model.KindWorkbook, id); !api.IsForbidden(err) {
		t.Fatalf("viewer delete: %v, want forbidden", err)
	}
	if _, err := viewer.CreateConfiguration(ctx, model.KindWorkbook, wb); !api.IsForbidden(err) {
		t.Fatalf("viewer create: %v, want forbidden", err)
	}
	if _, err := admin.CreateConfiguration(ctx, model.KindWorkbook, model.Configuration{}); !api.IsBadRequest(err) {
		t.Fatalf("create without a path: %v, want bad request", err)
	}
	if err := analyst.DeleteConfiguration(ctx, model.KindWorkbook, id); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := analyst.Configuration(ctx, model.KindWorkbook, id); !api.IsNotFound(err) {
		t.Fatalf("read after delete: %v, want not found", err)
	}
	if _, err := admin.CreateConfiguration(ctx, model.KindFolder, wb); err == nil {
		t.Fatal("a folder created as a configuration")
	}
}

// listedID is the configuration id of the file at path in its kind's list.
func listedID(t *testing.T, c *api.Client, kind model.Kind, path string) int64 {
	t.Helper()
	list, err := c.FilesOfKind(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Path == path {
			return e.ID
		}
	}
	t.Fatalf("no %s in the %s list", path, kind)
	return 0
}

// TestFileCommandsAndWorkbookV2Writes: tags, a v2 workbook's create,
// update and rollback, and a delete by file id, through the client.
func TestFileCommandsAndWorkbookV2Writes(t *testing.T) {
	_, admin, analyst, viewer := demoServer(t)
	ctx := context.Background()
	f, err := analyst.SetTags(ctx, api.Path("/Analytics/Sales.wbk"), []string{"sales", "q4"})
	if err != nil || fmt.Sprint(f.Tags) != "[sales q4]" {
		t.Fatalf("set tags: %+v, %v", f, err)
	}
	if _, err := viewer.SetTags(ctx, api.Path("/Analytics/Sales.wbk"), nil); !api.IsForbidden(err) {
		t.Fatalf("viewer set tags: %v, want forbidden", err)
	}
	orders, err := admin.File(ctx, api.Path("/Data/ImportJobs/Orders.imp"))
	if err != nil {
		t.Fatal(err)
	}
	wb := model.WorkbookV2Body{File: model.V2FileInfo{Folder: []string{"/Analytics"}, Name: "V2", Description: "first"},
		Sheets: []model.V2Sheet{{Type: model.SheetTypeDataSourceReference, UUID: orders.UUID, Name: "orders"}}}
	created, err := analyst.CreateWorkbookV2(ctx, wb)
	if err != nil || created.FilePath != "/Analytics/V2" {
		t.Fatalf("create: %+v, %v", created, err)
	}
	wb.File.Description = "second"
	if err := analyst.UpdateWorkbookV2(ctx, api.FileID(created.FileID), wb); err != nil {
		t.Fatalf("update: %v", err)
	}
	if err := analyst.RollbackWorkbook(ctx, created.FileID); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	cfg, err := analyst.Configuration(ctx, model.KindWorkbook, created.ConfigurationID)
	if err != nil || cfg.File.Description != "first" || len(cfg.Sheets) != 1 || cfg.Sheets[0].Datasource.Path != orders.Path {
		t.Fatalf("after the rollback: %+v, %v", cfg, err)
	}
	if err := analyst.DeleteFiles(ctx, created.FileID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := analyst.Configuration(ctx, model.KindWorkbook, created.ConfigurationID); !api.IsNotFound(err) {
		t.Fatalf("read after delete: %v, want not found", err)
	}
}
