package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// serveBytes answers every request with body as JSON.
func serveBytes(b *testing.B, body []byte) string {
	b.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	b.Cleanup(ts.Close)
	return ts.URL
}

func folderWithChildren(n int) []byte {
	f := model.Folder{Name: "Big", UUID: "9e6635dd", Links: model.Links{"self": {Href: "/api/filesystem/folders/4"}}}
	for i := range n {
		f.Embedded.Folders = append(f.Embedded.Folders, model.FolderEntry{
			Name: fmt.Sprintf("Folder %05d", i), Links: model.Links{"self": {Href: fmt.Sprintf("/api/filesystem/folders/%d", 100+i)}}})
	}
	body, _ := json.Marshal(f)
	return body
}

func connectionList(n int) []byte {
	list := make([]model.ConnectionEntry, n)
	for i := range list {
		list[i] = model.ConnectionEntry{ID: int64(i + 1), Name: fmt.Sprintf("Conn %05d", i), Description: "a connection",
			Path: fmt.Sprintf("/Data/Connections/Conn %05d.dst", i), UUID: "708d54ed-0000-4000-8000-000000000000"}
	}
	body, _ := json.Marshal(list)
	return body
}

// BenchmarkFolder10000 reads a folder with 10,000 child folders through the client.
func BenchmarkFolder10000(b *testing.B) {
	body := folderWithChildren(10_000)
	client := api.New(serveBytes(b, body), "admin", "pw")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := client.Folder(b.Context(), api.FileID(4))
		if err != nil || len(f.Embedded.Folders) != 10_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnections10000 lists 10,000 connections through the client.
func BenchmarkConnections10000(b *testing.B) {
	body := connectionList(10_000)
	client := api.New(serveBytes(b, body), "admin", "pw")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		list, err := client.Connections(b.Context())
		if err != nil || len(list) != 10_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeOnly is the floor for the two above: json.Unmarshal of the
// same bodies without HTTP, so the client's overhead is the difference.
func BenchmarkDecodeOnly(b *testing.B) {
	folder, list := folderWithChildren(10_000), connectionList(10_000)
	b.Run("folder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var f model.Folder
			if err := json.Unmarshal(folder, &f); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("connections", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var l []model.ConnectionEntry
			if err := json.Unmarshal(list, &l); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkJobStatus is the dashboard's poll: one small answer.
func BenchmarkJobStatus(b *testing.B) {
	client := api.New(serveBytes(b, []byte(recordedStatusRunning)), "admin", "pw")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.JobStatus(b.Context(), api.Path("/Data/ImportJobs/My Cities.imp")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBackup10MB streams a 10 MB archive with progress reporting.
func BenchmarkBackup10MB(b *testing.B) {
	archive := fakeZIP(10 << 20)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Write(archive)
	}))
	b.Cleanup(ts.Close)
	client := api.New(ts.URL, "admin", "pw")
	var calls int
	b.SetBytes(int64(len(archive)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Backup(b.Context(), api.FileID(4), 0, io.Discard, func(done, total int64) { calls++ }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(calls)/float64(b.N), "progress-calls/op")
}

func BenchmarkRefPathSegment(b *testing.B) {
	ref := api.Path("/Users/Data Team/Q1 Reports/Cities 2026.imp")
	b.ReportAllocs()
	var sink bytes.Buffer
	for b.Loop() {
		sink.Reset()
		sink.WriteString(ref.PathSegment())
	}
}
