package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// TestSetTags sends the SetTags command as the platform's client does
// (unquoted, no JSON Content-Type): the file's read shows the tags; bad
// commands and callers who may not write change nothing.
func TestSetTags(t *testing.T) {
	_, p := demo(t)
	sales := p.fileID("/Analytics/Sales.wbk")
	finance := p.fileID("/Analytics/Finance/Revenue by Product.wbk")
	path := fmt.Sprintf("/api/filesystem/files/%d/command", sales)
	read := func() []string {
		var f model.File
		p.get("admin", fmt.Sprintf("/api/filesystem/files/%d", sales), &f)
		return f.Tags
	}
	if tags := read(); len(tags) != 0 {
		t.Fatalf("tags before any command: %v", tags)
	}
	var answered model.File
	p.want(p.send("analyst", http.MethodPut, path, "application/x-www-form-urlencoded", `{_type: SetTags, tags:[sales, 'Q4 2026', sales]}`), http.StatusOK, &answered)
	want := []string{"sales", "Q4 2026"}
	// Numbers and booleans are tags too, as Gson reads them for strings.
	p.want(p.send("analyst", http.MethodPut, path, "", `{_type: SetTags, tags:[2026, true, q4]}`), http.StatusOK, &answered)
	if fmt.Sprint(answered.Tags) != "[2026 true q4]" {
		t.Fatalf("tags %q, want 2026, true, q4", answered.Tags)
	}
	p.want(p.send("analyst", http.MethodPut, path, "", `{_type: SetTags, tags:[sales, 'Q4 2026']}`), http.StatusOK, &answered)
	if fmt.Sprint(read()) != fmt.Sprint(want) || fmt.Sprint(answered.Tags) != fmt.Sprint(want) {
		t.Fatalf("tags %v, answered %v; want %v", read(), answered.Tags, want)
	}
	for _, tt := range []struct {
		name, user, path, body string
		code                   int
		reason                 string
	}{
		{"another command", "admin", path, `{_type: Rename, tags:[x]}`, 400, "SetTags only"},
		{"not an object", "admin", path, `SetTags`, 400, "not a JSON object"},
		{"an empty tag", "admin", path, `{_type: SetTags, tags:[a, ""]}`, 400, "tag"},
		{"a control character", "admin", path, "{_type: SetTags, tags:[\"a\\u001b[2J\"]}", 400, "control character"},
		{"too many", "admin", path, `{_type: SetTags, tags:[` + strings.Repeat("t,", 100) + `t]}`, 400, "at most 100"},
		{"viewer may not write", "viewer", path, `{_type: SetTags, tags:[]}`, 403, "write"},
		{"hidden from the viewer", "viewer", fmt.Sprintf("/api/filesystem/files/%d/command", finance), `{_type: SetTags, tags:[]}`, 404, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.wantFailure(p.send(tt.user, http.MethodPut, tt.path, "", tt.body), tt.code, tt.reason)
			if fmt.Sprint(read()) != fmt.Sprint(want) {
				t.Fatalf("tags changed to %v", read())
			}
		})
	}
	p.want(p.send("admin", http.MethodPut, path+"/", "", `{_type: SetTags, tags:[]}`), http.StatusOK, nil)
	if tags := read(); len(tags) != 0 {
		t.Fatalf("tags after clearing: %v", tags)
	}
}

// TestDeleteFiles deletes by file id as the platform's client does, all or
// none, by the rules of a configuration delete.
func TestDeleteFiles(t *testing.T) {
	_, p := demo(t)
	board := p.fileID("/Visualization/Sales Dashboard.gra")
	export := p.fileID("/Exports/Customers per Region.exp")
	orders := p.fileID("/Data/ImportJobs/Orders.imp")
	finance := p.fileID("/Analytics/Finance/Revenue by Product.wbk")
	folder := p.fileID("/Visualization")
	listing := func() string {
		var b strings.Builder
		for _, fam := range []string{"/rest/import-job", "/rest/workbook", "/rest/export-job", "/rest/infographics"} {
			b.Write(p.call("admin", http.MethodGet, fam, nil).body)
		}
		return b.String()
	}
	want := listing()
	for _, tt := range []struct {
		name, user, query string
		code              int
		reason            string
	}{
		{"none named", "admin", "", 400, "names no file"},
		{"not an id", "admin", "?fileIds=abc", 400, "not a file id"},
		{"others read it (and nothing else goes)", "analyst", fmt.Sprintf("?fileIds=%d,%d", board, orders), 409, "/Analytics/Sales.wbk"},
		{"a folder", "admin", fmt.Sprintf("?fileIds=%d", folder), 400, "is a folder"},
		{"viewer may not", "viewer", fmt.Sprintf("?fileIds=%d", board), 403, "write"},
		{"hidden from the viewer", "viewer", fmt.Sprintf("?fileIds=%d", finance), 404, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.wantFailure(p.call(tt.user, http.MethodDelete, "/api/filesystem/files"+tt.query, nil), tt.code, tt.reason)
			if got := listing(); got != want {
				t.Fatalf("something changed:\n%s\nwant\n%s", got, want)
			}
		})
	}
	p.want(p.call("analyst", http.MethodDelete, fmt.Sprintf("/api/filesystem/files?fileIds=%d&fileIds=%d", board, export), nil), http.StatusOK, nil)
	for _, id := range []int64{board, export} {
		p.wantFailure(p.call("admin", http.MethodGet, fmt.Sprintf("/api/filesystem/files/%d", id), nil), http.StatusNotFound, "")
	}
}
