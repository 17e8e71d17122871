package api_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

// progressLog records the calls of an api.ProgressFunc.
type progressLog struct {
	mu    sync.Mutex
	calls [][2]int64
}

func (p *progressLog) report(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, [2]int64{done, total})
}

// check asserts that progress only grew and ended at want of total.
func (p *progressLog) check(t *testing.T, want, total int64) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.calls) == 0 {
		t.Fatal("progress never reported")
	}
	var last int64
	for _, c := range p.calls {
		if c[0] <= last || c[1] != total {
			t.Fatalf("progress %v after %d: want growing done and total %d", c, last, total)
		}
		last = c[0]
	}
	if last != want {
		t.Errorf("progress ended at %d, want %d", last, want)
	}
}

// fakeZIP is an archive-sized body; the client does not look inside.
func fakeZIP(n int) []byte {
	b := bytes.Repeat([]byte("PK\x03\x04 dapconsole "), n/16+1)
	return b[:n]
}

func TestBackupStreamsWithProgress(t *testing.T) {
	archive := fakeZIP(300_000)
	tests := []struct {
		name      string
		chunked   bool
		wantTotal int64
	}{
		{"with Content-Length", false, int64(len(archive))},
		{"chunked", true, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got seen
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got = seen{method: r.Method, uri: r.URL.EscapedPath(), query: r.URL.RawQuery, accept: r.Header.Get("Accept")}
				w.Header().Set("Content-Type", "application/zip")
				if !tt.chunked {
					w.Header().Set("Content-Length", strconv.Itoa(len(archive)))
				}
				for rest := archive; len(rest) > 0; {
					n := min(len(rest), 64<<10)
					w.Write(rest[:n])
					w.(http.Flusher).Flush()
					rest = rest[n:]
				}
			}))
			defer ts.Close()
			var dst bytes.Buffer
			var progress progressLog
			n, err := api.New(ts.URL, "admin", "pw").Backup(t.Context(), api.Path("/Data/My Folder"),
				api.BackupIncludeOwner|api.BackupIncludeGroupPermissions, &dst, progress.report)
			if err != nil {
				t.Fatal(err)
			}
			if got.method != "GET" || got.uri != "/api/filesystem/folders/%2FData%2FMy%20Folder/backup" ||
				got.query != "includeGroupPermissions&includeOwner" || got.accept != "application/zip" {
				t.Errorf("sent %+v", got)
			}
			if n != int64(len(archive)) || !bytes.Equal(dst.Bytes(), archive) {
				t.Errorf("wrote %d bytes, want the %d of the archive", n, len(archive))
			}
			progress.check(t, int64(len(archive)), tt.wantTotal)
		})
	}
}

func TestBackupFilesSendsTheSelection(t *testing.T) {
	rec := newRecorder(t)
	rec.answer(answer{ctype: "application/zip", body: "PK\x05\x06"})
	var dst bytes.Buffer
	n, err := api.New(rec.URL, "admin", "pw").BackupFiles(t.Context(), api.FileID(4),
		[]api.Ref{api.FileID(48), api.UUID("0c1d-ee"), api.Path("/Data/My Folder/Cities.imp")},
		api.BackupIgnoreMissingDependencies, &dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := rec.last(t)
	if req.method != "POST" || req.uri != "/api/filesystem/folders/4/backup" || req.query != "ignoreMissingDependencies" {
		t.Errorf("sent %s %s ? %s", req.method, req.uri, req.query)
	}
	assertSentJSON(t, req, `{"ids":[48,"0c1d-ee","/Data/My Folder/Cities.imp"]}`)
	if n != 4 || dst.String() != "PK\x05\x06" {
		t.Errorf("wrote %d bytes %q", n, dst.String())
	}
}

// failureCase is a failure answer and the *api.Error a call must return for it.
type failureCase struct {
	name   string
	answer answer
	status int
	reason string // a prefix of the error's reason
	paths  []string
	is     func(error) bool // the helper that must recognise the error, if any
}

func (tc failureCase) check(t *testing.T, err error) {
	t.Helper()
	var e *api.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *api.Error", err)
	}
	if e.Status != tc.status || !strings.HasPrefix(e.Reason, tc.reason) || !reflect.DeepEqual(e.Paths, tc.paths) {
		t.Errorf("error = %d %q %q, want %d %q %q", e.Status, e.Reason, e.Paths, tc.status, tc.reason, tc.paths)
	}
	if tc.is != nil && !tc.is(err) {
		t.Errorf("helper does not recognise %v", err)
	}
}

func TestBackupFailures(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "admin", "pw")
	tests := []failureCase{
		{"dependencies outside the folder",
			answer{status: 400, body: `{"status":"failure","reason":"dependencies outside /Analytics","paths":["/Data/ImportJobs/Orders.imp"]}`},
			400, "dependencies outside /Analytics", []string{"/Data/ImportJobs/Orders.imp"}, api.IsBadRequest},
		{"folder not visible", answer{status: 404, body: `{"status":"failure","reason":"file /Exports not found"}`}, 404, "file /Exports not found", nil, api.IsNotFound},
		{"failure body with 200", answer{body: `{"status":"failure","reason":"backup disabled"}`}, 200, "backup disabled", nil, api.IsFailure},
		{"JSON that is no failure", answer{body: `{"status":"success"}`}, 200, "answer is JSON, not a ZIP archive", nil, nil},
		{"HTML from a proxy", answer{status: 504, ctype: "text/html", body: "<h1>Gateway Timeout</h1>"}, 504, "answer is not JSON (text/html)", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(tt.answer)
			var dst bytes.Buffer
			n, err := client.Backup(t.Context(), api.FileID(10), 0, &dst, nil)
			tt.check(t, err)
			if n != 0 || dst.Len() != 0 {
				t.Errorf("wrote %d bytes of a failure", dst.Len())
			}
		})
	}
}

func TestBackupCutShort(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Length", "100000")
		w.Write(fakeZIP(1000))
		w.(http.Flusher).Flush()
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	}))
	defer ts.Close()
	var dst bytes.Buffer
	n, err := api.New(ts.URL, "admin", "pw").Backup(t.Context(), api.FileID(10), 0, &dst, nil)
	var e *api.Error
	if !errors.As(err, &e) || !strings.Contains(e.Reason, "cut short") {
		t.Fatalf("error = %v, want one saying the archive was cut short", err)
	}
	if n != 1000 {
		t.Errorf("reported %d bytes written, want the 1000 that came", n)
	}
}

// failingWriter stands for a full disk.
type failingWriter struct{}

var errDiskFull = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestBackupDestinationFails(t *testing.T) {
	rec := newRecorder(t)
	rec.answer(answer{ctype: "application/zip", body: string(fakeZIP(5000))})
	_, err := api.New(rec.URL, "admin", "pw").Backup(t.Context(), api.FileID(10), 0, failingWriter{}, nil)
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("error = %v, want it to wrap the writer's error", err)
	}
}

func TestRestoreSendsTheArchive(t *testing.T) {
	archive := fakeZIP(200_000)
	result := `{"status":"success","restored":["/Data/My Folder/Cities.imp"],"skipped":[{"path":"/Data/My Folder/Report.wbk","reason":"missing dependency /Data/Other.imp"}]}`
	tests := []struct {
		name      string
		size      int64
		answer    answer
		want      model.RestoreResult
		wantTotal int64
	}{
		{"known size, listed result", int64(len(archive)), answer{body: result},
			model.RestoreResult{Status: "success", Restored: []string{"/Data/My Folder/Cities.imp"},
				Skipped: []model.SkippedFile{{Path: "/Data/My Folder/Report.wbk", Reason: "missing dependency /Data/Other.imp"}}},
			int64(len(archive))},
		{"unknown size is sent chunked", -1, answer{body: `{"status":"success"}`}, model.RestoreResult{Status: "success"}, -1},
		// The real platform's answers are not this server's shape: a success all the same, claiming no list.
		{"empty answer", int64(len(archive)), answer{}, model.RestoreResult{Status: "success"}, int64(len(archive))},
		{"text answer", int64(len(archive)), answer{ctype: "text/plain", body: "Folder restored."}, model.RestoreResult{Status: "success"}, int64(len(archive))},
		{"JSON of another shape", int64(len(archive)), answer{body: `{"restoredFiles":3,"skipped":"none"}`}, model.RestoreResult{Status: "success"}, int64(len(archive))},
	}
	rec := newRecorder(t)
	client := api.New(rec.URL, "admin", "pw")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(tt.answer)
			var progress progressLog
			got, err := client.Restore(t.Context(), api.Path("/Data/My Folder"), bytes.NewReader(archive), tt.size,
				api.RestoreOverwrite|api.RestoreIncludeOwner|api.RestoreSubstituteMissingUser, progress.report)
			if err != nil {
				t.Fatal(err)
			}
			req := rec.last(t)
			if req.method != "PUT" || req.uri != "/api/filesystem/folders/%2FData%2FMy%20Folder/restore" ||
				req.query != "overwrite&includeOwner&substituteMissingUser" {
				t.Errorf("sent %s %s ? %s", req.method, req.uri, req.query)
			}
			if req.contentType != "application/zip" || req.accept != "application/json" {
				t.Errorf("Content-Type %q, Accept %q", req.contentType, req.accept)
			}
			if !bytes.Equal(req.body, archive) {
				t.Errorf("server got %d bytes, not the %d of the archive", len(req.body), len(archive))
			}
			if tt.size >= 0 && req.contentLength != tt.size {
				t.Errorf("Content-Length = %d, want %d", req.contentLength, tt.size)
			}
			if tt.size < 0 && !reflect.DeepEqual(req.transferEncoding, []string{"chunked"}) {
				t.Errorf("Transfer-Encoding = %q, want chunked", req.transferEncoding)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
			progress.check(t, int64(len(archive)), tt.wantTotal)
		})
	}
}

func TestRestoreFailures(t *testing.T) {
	rec := newRecorder(t)
	client := api.New(rec.URL, "admin", "pw")
	tests := []failureCase{
		{"contents exist without overwrite",
			answer{status: 409, body: `{"status":"failure","reason":"2 files exist at the target; restore with overwrite","paths":["/Data/A.imp","/Data/B.imp"]}`},
			409, "2 files exist at the target; restore with overwrite", []string{"/Data/A.imp", "/Data/B.imp"}, api.IsConflict},
		{"unknown owner", answer{status: 400, body: `{"status":"failure","reason":"unknown owner ghost"}`}, 400, "unknown owner ghost", nil, api.IsBadRequest},
		{"no write permission", answer{status: 403, body: `{"status":"failure","reason":"/Data: write permission required"}`}, 403, "/Data: write permission required", nil, api.IsForbidden},
		{"archive too large", answer{status: 413, body: `{"status":"failure","reason":"archive larger than 1 GiB"}`}, 413, "archive larger than 1 GiB", nil, nil},
		{"failure body with 200", answer{body: `{"status":"failure","reason":"not a ZIP archive"}`}, 200, "not a ZIP archive", nil, api.IsFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.answer(tt.answer)
			_, err := client.Restore(t.Context(), api.FileID(4), strings.NewReader("PK\x05\x06"), 4, 0, nil)
			tt.check(t, err)
		})
	}
}

// TestRestoreSourceFails checks that an archive that cannot be read stops
// the upload with an error wrapping the reader's.
func TestRestoreSourceFails(t *testing.T) {
	rec := newRecorder(t)
	rec.answer(answer{body: `{"status":"success"}`})
	errBroken := errors.New("archive unreadable")
	src := io.MultiReader(strings.NewReader("PK"), &erroringReader{errBroken})
	_, err := api.New(rec.URL, "admin", "pw").Restore(t.Context(), api.FileID(4), src, -1, 0, nil)
	if !errors.Is(err, errBroken) {
		t.Fatalf("error = %v, want it to wrap the reader's error", err)
	}
}

type erroringReader struct{ err error }

func (r *erroringReader) Read([]byte) (int, error) { return 0, r.err }

// TestRestoreNoProgressAfterReturn checks that a server answering before it
// has read the archive does not leave the transport calling the
// ProgressFunc after Restore has returned (a caller closes its channel then).
func TestRestoreNoProgressAfterReturn(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		io.WriteString(w, `{"status":"failure","reason":"exists"}`)
	}))
	defer ts.Close()
	client := api.New(ts.URL, "admin", "pw")
	for range 20 {
		var mu sync.Mutex
		returned := false
		progress := func(done, total int64) {
			mu.Lock()
			defer mu.Unlock()
			if returned {
				t.Errorf("progress %d/%d reported after Restore returned", done, total)
			}
		}
		archive := &slowReader{data: fakeZIP(2 << 20)}
		_, err := client.Restore(t.Context(), api.FileID(4), archive, int64(len(archive.data)), 0, progress)
		mu.Lock()
		returned = true
		mu.Unlock()
		if !api.IsConflict(err) {
			t.Fatalf("error = %v, want 409", err)
		}
	}
}

// slowReader hands out its data in small pieces.
type slowReader struct{ data []byte }

func (s *slowReader) Read(b []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(b[:min(len(b), 4096)], s.data)
	s.data = s.data[n:]
	return n, nil
}
