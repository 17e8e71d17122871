package server_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// startListening runs the platform on loopback the way serve does
// (server.Start), with its timeouts.
func startListening(t *testing.T, cfg server.Config) *server.Running {
	t.Helper()
	cfg.DataDir, cfg.DemoData = t.TempDir(), true
	running, err := server.Start(servertest.TestConfig(cfg), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { running.Shutdown(t.Context()) })
	return running
}

// TestSlowClientsAreCutOff is the reproduction: nothing bounded how long a
// client held a connection, and a restore body at 1 byte every 2.5 s was
// still taken after 30 s. Headers that do not come, and an upload slower
// than the minimum rate, are cut off.
func TestSlowClientsAreCutOff(t *testing.T) {
	running := startListening(t, server.Config{Timeouts: server.Timeouts{Header: 200 * time.Millisecond,
		Read: 300 * time.Millisecond, Idle: 300 * time.Millisecond, MinUploadRate: 1 << 20}})
	addr := strings.TrimPrefix(running.URL, "http://")
	closedWithin := func(what string, conn net.Conn) {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		io.Copy(io.Discard, conn) // an answer, if any, then the close
		if err := conn.SetReadDeadline(time.Time{}); err == nil {
			if _, err := conn.Read(make([]byte, 1)); err == nil {
				t.Errorf("%s: the connection is still open", what)
			}
		}
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	started := time.Now()
	conn.Write([]byte("GET /api/filesystem/root-folder HTTP/1.1\r\nHost: x\r\n")) // and no end of the headers
	closedWithin("half-sent headers", conn)
	if took := time.Since(started); took > 4*time.Second {
		t.Errorf("half-sent headers held the connection %v", took)
	}

	slow, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	slow.Write([]byte("PUT /api/filesystem/folders/%2FAnalytics%2FSlow/restore HTTP/1.1\r\nHost: x\r\n" +
		"Authorization: Basic YWRtaW46YWRtaW4=\r\nContent-Type: application/zip\r\nContent-Length: 100000\r\n\r\n"))
	done := make(chan *http.Response, 1)
	go func() {
		resp, _ := http.ReadResponse(bufio.NewReader(slow), nil)
		done <- resp
	}()
	started = time.Now()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for sent := 0; ; sent++ {
		select {
		case resp := <-done:
			if resp != nil && resp.StatusCode == http.StatusOK {
				t.Fatalf("a trickled restore was taken: %s", resp.Status)
			}
			if took := time.Since(started); took > 4*time.Second {
				t.Errorf("a trickled restore held its connection %v", took)
			}
			return
		case <-tick.C:
			slow.Write([]byte{'P'})
		case <-time.After(10 * time.Second):
			t.Fatal("a restore at 20 bytes a second is still taken after 10 s")
		}
	}
}

// TestRestoreUploadsPerUserAreCapped: nothing capped how many uploads one
// user spooled at once. Past the cap (2 by default) the next one is 429;
// another user's upload still goes through.
func TestRestoreUploadsPerUserAreCapped(t *testing.T) {
	_, p := start(t, server.Config{DemoData: true, MaxUploadsPerUser: 1})
	// The first upload goes over a connection of its own, its headers and
	// the first bytes of its body sent and flushed (an http.Client may hold
	// a streamed body's first bytes, and the headers with them). It stays
	// open, or is sent again when it was the one refused: a second upload
	// may reach the cap's count before it. Its length is past the 256 KiB
	// that net/http reads of an unread body before it answers, so a refusal
	// comes at once.
	var first net.Conn
	sendFirst := func() {
		if first != nil {
			first.Close()
		}
		var err error
		if first, err = net.Dial("tcp", strings.TrimPrefix(p.base, "http://")); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(first, "PUT %s HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/zip\r\nContent-Length: 1000000\r\n\r\nPK",
			restoreURL("/Analytics/First"), base64.StdEncoding.EncodeToString([]byte("analyst:analyst")))
	}
	firstAnswered := func() bool {
		first.SetReadDeadline(time.Now().Add(time.Millisecond))
		n, _ := first.Read(make([]byte, 1))
		return n > 0
	}
	sendFirst()
	defer func() { first.Close() }()
	archive := func(name string) []byte {
		return buildArchive(t, nil, archiveFile{path: name + ".dst", cfg: connectionConfig(name)})
	}
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; ; i++ {
		// Until the first upload reaches the handler, the others go through.
		a := p.upload("analyst", restoreURL(fmt.Sprintf("/Analytics/Second %d", i)), "application/zip", archive(fmt.Sprint("S", i)))
		if a.code == http.StatusTooManyRequests {
			break
		}
		if a.code != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("a second upload of the analyst's answered %d, want 429", a.code)
		}
		if firstAnswered() {
			sendFirst()
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.want(p.upload("admin", restoreURL("/Analytics/Other"), "application/zip", archive("Other")), http.StatusOK, nil)
	first.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// The first upload's handler ends a moment after its connection closes.
		a := p.upload("analyst", restoreURL("/Analytics/Third"), "application/zip", archive("Third"))
		if a.code == http.StatusOK {
			break
		}
		if a.code != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("once the first upload ended, another answered %d %s", a.code, a.body)
		}
	}
}

// TestRestoreSpoolPerUserIsCapped: one user's uploads in progress spool
// at most MaxSpoolPerUser bytes together (each upload alone is within its
// cap): past it the upload is cut off with 413, other users' uploads go
// on, and the bytes come back when an upload ends.
func TestRestoreSpoolPerUserIsCapped(t *testing.T) {
	_, p := start(t, server.Config{DemoData: true, MaxSpoolPerUser: 64 << 10})
	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPut, p.base+restoreURL("/Analytics/First"), pr)
	req.SetBasicAuth("analyst", "analyst")
	req.Header.Set("Content-Type", "application/zip")
	first := make(chan struct{})
	go func() {
		defer close(first)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF) })
	noise := bytes.Repeat([]byte("PK\x03\x04 not an archive "), 40<<10/24)
	if _, err := pw.Write(noise); err != nil {
		t.Fatal(err)
	}
	// Alone, the same body is read to its end and refused as no archive.
	p.wantFailure(p.upload("admin", restoreURL("/Analytics/Other"), "application/zip", noise), http.StatusBadRequest, "")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// Until the server has read the first upload's bytes, the second is refused as no archive.
		a := p.upload("analyst", restoreURL("/Analytics/Second"), "application/zip", noise)
		if a.code == http.StatusRequestEntityTooLarge && strings.Contains(string(a.body), "spool") {
			break
		}
		if a.code != http.StatusBadRequest || time.Now().After(deadline) {
			t.Fatalf("a second upload of the analyst's answered %d %s, want 413", a.code, a.body)
		}
	}
	pw.CloseWithError(io.ErrUnexpectedEOF)
	<-first
	small := buildArchive(t, nil, archiveFile{path: "Third.dst", cfg: connectionConfig("Third")})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		// The first upload's handler ends a moment after its connection closes.
		a := p.upload("analyst", restoreURL("/Analytics/Third"), "application/zip", small)
		if a.code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("once the first upload ended, another answered %d %s", a.code, a.body)
		}
	}
}

// TestCutShortUploadsAreTheClients: a restore upload that ended before its
// declared length answered 500 and was logged as the server's internal
// error; one below the minimum rate too. They are 400 and 408.
func TestCutShortUploadsAreTheClients(t *testing.T) {
	running := startListening(t, server.Config{Timeouts: server.Timeouts{Read: 300 * time.Millisecond, MinUploadRate: 1 << 20}})
	addr := strings.TrimPrefix(running.URL, "http://")
	auth := base64.StdEncoding.EncodeToString([]byte("admin:admin"))
	for _, tc := range []struct {
		name string
		send func(conn *net.TCPConn)
		want int
	}{
		{"cut short", func(conn *net.TCPConn) { conn.CloseWrite() }, http.StatusBadRequest},
		{"too slow", func(conn *net.TCPConn) { time.Sleep(time.Second); conn.Write([]byte("K")) }, http.StatusRequestTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conn := c.(*net.TCPConn)
			defer conn.Close()
			fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/zip\r\nContent-Length: 1000000\r\n\r\nPK",
				restoreURL("/Analytics/Short"), auth)
			tc.send(conn)
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("answered %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}
