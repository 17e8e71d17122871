package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/dapconsole/dapconsole/model"
)

// ProgressFunc is told how many bytes of an archive have moved so far and
// the total, or -1 when the total is unknown. It is called after every chunk,
// possibly from a goroutine of the HTTP transport, so it must be safe for
// concurrent use (tea.Program.Send is) and quick.
type ProgressFunc func(done, total int64)

// Backup downloads a folder, with all sub-folders and contents, as a ZIP
// archive into dst and returns the number of bytes written. The folder may
// be given by id, UUID or path.
func (c *Client) Backup(ctx context.Context, folder Ref, flags BackupFlags, dst io.Writer, progress ProgressFunc) (int64, error) {
	path, err := refPath(foldersPath, folder, "/backup")
	if err != nil {
		return 0, fmt.Errorf("backup %s: %w", folder, err)
	}
	return c.download(ctx, request{method: http.MethodGet, path: path, query: flags.Query(), length: -1}, dst, progress)
}

// BackupFiles downloads chosen files of a folder as a ZIP archive into dst
// (available from platform release 7.2.6: an older one answers the POST
// 405 or 501, which is an error wrapping ErrUnsupported). Each file may be given by id,
// UUID or path; ids go into the body as numbers, the others as strings. The
// spec shows flags only on Backup; they are sent here too, for servers that
// honour them.
func (c *Client) BackupFiles(ctx context.Context, folder Ref, files []Ref, flags BackupFlags, dst io.Writer, progress ProgressFunc) (int64, error) {
	path, err := refPath(foldersPath, folder, "/backup")
	if err != nil {
		return 0, fmt.Errorf("backup files of %s: %w", folder, err)
	}
	ids := make([]any, len(files))
	for i, f := range files {
		if f.IsZero() {
			return 0, fmt.Errorf("backup files of %s: file %d: %w", folder, i, ErrEmptyRef)
		}
		ids[i] = f
	}
	payload, err := json.Marshal(model.BackupSelection{IDs: ids})
	if err != nil {
		return 0, fmt.Errorf("backup files of %s: %w", folder, err)
	}
	r := request{method: http.MethodPost, path: path, query: flags.Query(), reads: true,
		body: bytes.NewReader(payload), length: int64(len(payload)), contentType: "application/json"}
	n, err := c.download(ctx, r, dst, progress)
	// Not 404: that is also the answer for a folder that does not exist.
	if hasStatus(err, http.StatusMethodNotAllowed) || hasStatus(err, http.StatusNotImplemented) {
		err = fmt.Errorf("choosing files needs platform release 7.2.6 or later (the POST backup); take the whole folder instead: %w: %w", ErrUnsupported, err)
	}
	return n, err
}

// download streams a ZIP answer into dst. A JSON answer instead of a ZIP is
// read as a failure.
func (c *Client) download(ctx context.Context, r request, dst io.Writer, progress ProgressFunc) (int64, error) {
	r.accept = "application/zip"
	resp, err := c.send(ctx, r)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if isJSON(resp.Header.Get("Content-Type")) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if _, err := c.decode(r.op(), resp, body, nil, true); err != nil {
			return 0, err
		}
		return 0, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer is JSON, not a ZIP archive"}
	}
	w := &progressWriter{w: dst, total: resp.ContentLength, report: progress}
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, &Error{Op: r.op(), Status: resp.StatusCode, Reason: fmt.Sprintf("archive cut short after %d bytes", n), Err: err}
	}
	return n, nil
}

// Restore uploads a ZIP archive into a folder, given by id, UUID or path (a
// path that does not exist is created). size is the archive's length in
// bytes, or -1 when unknown (then it is sent chunked and progress has no total).
// A conflict with existing files without RestoreOverwrite is an *Error for
// which IsConflict is true. A success the server does not describe in this
// server's shape (an empty, text or other JSON answer, as the real platform
// may send) gives a result with status success and Restored nil.
func (c *Client) Restore(ctx context.Context, folder Ref, archive io.Reader, size int64, flags RestoreFlags, progress ProgressFunc) (model.RestoreResult, error) {
	var result model.RestoreResult
	path, err := refPath(foldersPath, folder, "/restore")
	if err != nil {
		return result, fmt.Errorf("restore %s: %w", folder, err)
	}
	if size < 0 {
		size = -1
	}
	upload := &progressReader{r: archive, total: size, report: progress}
	defer upload.stop()
	r := request{method: http.MethodPut, path: path, query: flags.Query(), body: upload, length: size,
		contentType: "application/zip", accept: "application/json"}
	resp, err := c.send(ctx, r)
	if err != nil {
		return result, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxJSONAnswer))
	if err != nil {
		return result, &Error{Op: r.op(), Status: resp.StatusCode, Reason: "answer cut short", Err: err}
	}
	present, err := c.decode(r.op(), resp, answer, &result, false)
	if err == nil && (!present || result.Status == "") {
		// A success the server did not describe (the real platform's answer
		// is not this shape): Restored stays nil, so nothing is claimed.
		result = model.RestoreResult{Status: model.StatusSuccess}
	}
	return result, err
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || mt == "application/problem+json")
}

// progressWriter counts bytes written to w and reports them.
type progressWriter struct {
	w      io.Writer
	done   int64
	total  int64
	report ProgressFunc
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.done += int64(n)
	if p.report != nil && n > 0 {
		p.report(p.done, p.total)
	}
	return n, err
}

// progressReader counts bytes read from r and reports them. The transport
// may go on reading a request body after the call has returned (a server
// that answers before reading it all); once stop has returned, the
// ProgressFunc is not called again and no new Read reaches the caller's
// reader. A Read already under way is not waited for, as it may block.
type progressReader struct {
	r       io.Reader
	total   int64
	report  ProgressFunc
	mu      sync.Mutex
	done    int64
	stopped bool
}

func (p *progressReader) Read(b []byte) (int, error) {
	p.mu.Lock()
	stopped := p.stopped
	p.mu.Unlock()
	if stopped {
		return 0, errRestoreReturned
	}
	n, err := p.r.Read(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += int64(n)
	if p.report != nil && n > 0 && !p.stopped {
		p.report(p.done, p.total)
	}
	return n, err
}

func (p *progressReader) stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}

var errRestoreReturned = errors.New("restore has returned")
