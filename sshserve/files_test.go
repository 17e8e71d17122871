package sshserve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pkg/sftp"
	gossh "golang.org/x/crypto/ssh"

	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// filesServer runs a server whose users' directories are dir/files/USER,
// beside a secret file outside them, which no transfer may reach.
type filesServer struct {
	*testServer
	dir, secret string
}

const secretText = "the host's own file"

func startFiles(t *testing.T, change func(*Config)) filesServer {
	t.Helper()
	fs := filesServer{dir: t.TempDir()}
	fs.secret = filepath.Join(fs.dir, "secret.txt")
	if err := os.WriteFile(fs.secret, []byte(secretText), 0o600); err != nil {
		t.Fatal(err)
	}
	fs.testServer = start(t, func(c *Config) {
		c.Files = func(user string) (*os.Root, error) {
			if err := os.MkdirAll(filepath.Join(fs.dir, "files", user), 0o700); err != nil {
				return nil, err
			}
			root, err := os.OpenRoot(filepath.Join(fs.dir, "files", user))
			if err == nil {
				t.Cleanup(func() { root.Close() })
			}
			return root, err
		}
		if change != nil {
			change(c)
		}
	})
	return fs
}

// userDir is user's directory, made as the server would.
func (fs filesServer) userDir(t *testing.T, user string) string {
	t.Helper()
	dir := filepath.Join(fs.dir, "files", user)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (fs filesServer) sftp(t *testing.T, key sshtest.Key) *sftp.Client {
	t.Helper()
	conn, err := sshtest.Connect(fs.Addr(), key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	client, err := sftp.NewClient(conn)
	if err != nil {
		t.Fatalf("sftp: %v", err)
	}
	t.Cleanup(func() { client.Close() })
	return client
}

// TestSFTPRoundTrip: a key's sftp session sees its user's directory as
// "/": a file sent is on the host there, listed, fetched back the same,
// renamed and removed; a folder made and removed.
func TestSFTPRoundTrip(t *testing.T) {
	fs := startFiles(t, nil)
	client := fs.sftp(t, fs.bob)
	body := bytes.Repeat([]byte("backup bytes "), 10_000)
	put, err := client.Create("mine.zip")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := put.Write(body); err != nil {
		t.Fatal(err)
	}
	if err := put.Close(); err != nil {
		t.Fatal(err)
	}
	onHost, err := os.ReadFile(filepath.Join(fs.userDir(t, "admin"), "mine.zip"))
	if err != nil || !bytes.Equal(onHost, body) {
		t.Fatalf("on the host: %d bytes (%v), want %d", len(onHost), err, len(body))
	}
	if wd, err := client.Getwd(); err != nil || wd != "/" {
		t.Errorf("working directory %q (%v), want /", wd, err)
	}
	if err := client.Mkdir("old"); err != nil {
		t.Fatal(err)
	}
	if err := client.Rename("/mine.zip", "old/mine.zip"); err != nil {
		t.Fatal(err)
	}
	infos, err := client.ReadDir("/old")
	if err != nil || len(infos) != 1 || infos[0].Name() != "mine.zip" || infos[0].Size() != int64(len(body)) {
		t.Fatalf("listing %v (%v), want mine.zip", infos, err)
	}
	get, err := client.Open("old/mine.zip")
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(get)
	get.Close()
	if err != nil || !bytes.Equal(back, body) {
		t.Fatalf("fetched %d bytes (%v), want %d", len(back), err, len(body))
	}
	if err := client.Remove("old/mine.zip"); err != nil {
		t.Fatal(err)
	}
	if err := client.RemoveDirectory("old"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(fs.userDir(t, "admin")); len(entries) != 0 {
		t.Errorf("left on the host: %v", entries)
	}
	if !strings.Contains(fs.log.String(), "kind=sftp") {
		t.Errorf("the log does not name the transfer:\n%s", fs.log)
	}
}

// TestSFTPStaysInTheUsersDirectory: no path an sftp client sends reaches a
// file outside its user's directory, not .., not the host's absolute path,
// not a symbolic link placed in the directory, not another user's
// directory; no link can be made; nothing is written outside.
func TestSFTPStaysInTheUsersDirectory(t *testing.T) {
	fs := startFiles(t, nil)
	mine := fs.userDir(t, "admin")
	if err := os.Symlink(fs.secret, filepath.Join(mine, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fs.dir, filepath.Join(mine, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fs.userDir(t, "analyst"), "hers.zip"), []byte("alice's"), 0o600); err != nil {
		t.Fatal(err)
	}
	client := fs.sftp(t, fs.bob)
	for _, name := range []string{"../secret.txt", "../../secret.txt", "/../secret.txt", fs.secret, "link.txt",
		"linkdir/secret.txt", "../analyst/hers.zip", "/../analyst/hers.zip"} {
		f, err := client.Open(name)
		if err == nil {
			body, _ := io.ReadAll(f)
			f.Close()
			t.Errorf("open %s: read %q", name, body)
		}
	}
	if _, err := client.ReadDir("linkdir"); err == nil {
		t.Error("a link to a directory outside was listed")
	}
	if err := client.Symlink(fs.secret, "made.txt"); err == nil {
		t.Error("a link was made")
	}
	for _, name := range []string{"../escape.txt", "/../../escape.txt", "linkdir/escape.txt"} {
		if f, err := client.Create(name); err == nil {
			f.Write([]byte("x"))
			f.Close()
		}
	}
	for _, outside := range []string{filepath.Join(fs.dir, "escape.txt"), filepath.Join(fs.dir, "files", "escape.txt")} {
		if _, err := os.Stat(outside); err == nil {
			t.Errorf("%s was written", outside)
		}
	}
	if err := client.Rename("link.txt", "../moved.txt"); err == nil {
		if _, err := os.Stat(filepath.Join(fs.dir, "moved.txt")); err == nil {
			t.Error("a rename moved a file out")
		}
	}
	if body, err := os.ReadFile(fs.secret); err != nil || string(body) != secretText {
		t.Errorf("the host's file is now %q (%v)", body, err)
	}
}

// TestFilesOfAReadOnlyKey: a read-only key fetches its files but sends,
// renames and removes none.
func TestFilesOfAReadOnlyKey(t *testing.T) {
	fs := startFiles(t, nil)
	if err := os.WriteFile(filepath.Join(fs.userDir(t, "analyst"), "report.zip"), []byte("zip"), 0o600); err != nil {
		t.Fatal(err)
	}
	client := fs.sftp(t, fs.alice)
	f, err := client.Open("report.zip")
	if err != nil {
		t.Fatal(err)
	}
	if body, err := io.ReadAll(f); err != nil || string(body) != "zip" {
		t.Errorf("fetched %q (%v)", body, err)
	}
	f.Close()
	if _, err := client.Create("new.zip"); err == nil {
		t.Error("a read-only key sent a file")
	}
	if err := client.Remove("report.zip"); err == nil {
		t.Error("a read-only key removed a file")
	}
	if err := client.Mkdir("dir"); err == nil {
		t.Error("a read-only key made a folder")
	}
	if code, _, stderr := scpSend(t, fs.Addr(), fs.alice, ".", "new.zip", "x"); code != 1 || !strings.Contains(stderr, "read-only key") {
		t.Errorf("scp of a read-only key: status %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(fs.userDir(t, "analyst")); len(entries) != 1 {
		t.Errorf("the directory holds %v", entries)
	}
}

// TestSCPRoundTrip: scp (its own protocol, as scp -O speaks it) sends a
// file to the user's directory, under its name or a new one, and fetches
// it back.
func TestSCPRoundTrip(t *testing.T) {
	fs := startFiles(t, nil)
	body := strings.Repeat("zip bytes ", 5000)
	for _, tt := range []struct{ target, name, want string }{
		{".", "mine.zip", "mine.zip"},
		{"renamed.zip", "mine.zip", "renamed.zip"},
	} {
		if code, _, stderr := scpSend(t, fs.Addr(), fs.bob, tt.target, tt.name, body); code != 0 {
			t.Fatalf("scp -t %s: status %d, %s", tt.target, code, stderr)
		}
		onHost, err := os.ReadFile(filepath.Join(fs.userDir(t, "admin"), tt.want))
		if err != nil || string(onHost) != body {
			t.Fatalf("scp -t %s: on the host %d bytes (%v)", tt.target, len(onHost), err)
		}
		got, code, stderr := scpFetch(t, fs.Addr(), fs.bob, tt.want)
		if code != 0 || got != body {
			t.Fatalf("scp -f %s: %d bytes, status %d, %s", tt.want, len(got), code, stderr)
		}
	}
}

// TestSCPStaysInTheUsersDirectory: scp neither fetches nor writes outside
// the user's directory: .., absolute paths and links are refused.
func TestSCPStaysInTheUsersDirectory(t *testing.T) {
	fs := startFiles(t, nil)
	mine := fs.userDir(t, "admin")
	if err := os.Symlink(fs.secret, filepath.Join(mine, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(fs.dir, filepath.Join(mine, "linkdir")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"../secret.txt", fs.secret, "link.txt", "linkdir/secret.txt", "*/secret.txt", "../*"} {
		got, code, _ := scpFetch(t, fs.Addr(), fs.bob, name)
		if code == 0 || strings.Contains(got, secretText) {
			t.Errorf("scp -f %s: status %d, fetched %q", name, code, got)
		}
	}
	for _, target := range []string{"..", "../escape.txt", fs.dir, filepath.Join(fs.dir, "escape.txt"), "linkdir"} {
		if code, _, _ := scpSend(t, fs.Addr(), fs.bob, target, "escape.txt", "x"); code == 0 {
			t.Errorf("scp -t %s: status 0", target)
		}
	}
	if _, err := os.Stat(filepath.Join(fs.dir, "escape.txt")); err == nil {
		t.Error("a file was written outside")
	}
}

// TestFileTransferRefusals: without Config.Files nothing is served, and a
// transfer asked for with a terminal is refused (the pty would change the
// bytes).
func TestFileTransferRefusals(t *testing.T) {
	plain := start(t, nil)
	if _, code, stderr := scpFetch(t, plain.Addr(), plain.bob, "x"); code != 1 || !strings.Contains(stderr, "not served here") {
		t.Errorf("scp without Files: status %d, stderr %q", code, stderr)
	}
	conn, err := sshtest.Connect(plain.Addr(), plain.bob)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := sftp.NewClient(conn); err == nil {
		t.Error("sftp served without Files")
	}
	fs := startFiles(t, nil)
	term := fs.dial(t, fs.bob, sshtest.Options{Command: "scp -f x"})
	if err := term.Ended(); exitStatus(err) != 1 || !strings.Contains(term.Stderr(), "takes no terminal") {
		t.Errorf("scp with a pty: %v, stderr %q", err, term.Stderr())
	}
}

// TestSCPFetchWaitsForTheClientsAnswers: the session of `scp -f` ends only
// after the client answered the file's body, as OpenSSH's scp source does;
// ending before, the client's scp dies writing that answer to an ssh that
// has exited ("lost connection" after a finished copy).
func TestSCPFetchWaitsForTheClientsAnswers(t *testing.T) {
	fs := startFiles(t, nil)
	body := strings.Repeat("zip bytes ", 500)
	if err := os.WriteFile(filepath.Join(fs.userDir(t, "admin"), "mine.zip"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stderr := scpSession(t, fs.Addr(), fs.bob, "scp -f mine.zip", func(in io.Writer, out *bufio.Reader) error {
		in.Write([]byte{0})
		header, err := out.ReadString('\n')
		for err == nil && strings.HasPrefix(header, "T") {
			in.Write([]byte{0})
			header, err = out.ReadString('\n')
		}
		if err != nil {
			return err
		}
		in.Write([]byte{0})
		if _, err := io.ReadFull(out, make([]byte, len(body)+1)); err != nil {
			return err
		}
		ended := make(chan error, 1)
		go func() { _, err := out.ReadByte(); ended <- err }()
		select {
		case err := <-ended:
			t.Fatalf("the session ended (%v) before the client answered the file", err)
		case <-time.After(300 * time.Millisecond):
		}
		in.Write([]byte{0})
		if err := <-ended; err != io.EOF {
			return fmt.Errorf("after the last answer: %v, want the end", err)
		}
		return nil
	})
	if code != 0 {
		t.Fatalf("scp -f: status %d, %s", code, stderr)
	}
}

// scpSession runs command on a new connection with key, feeding it what
// talk writes and reading its output; it returns the exit status and
// standard error.
func scpSession(t *testing.T, addr string, key sshtest.Key, command string, talk func(in io.Writer, out *bufio.Reader) error) (code int, stderr string) {
	t.Helper()
	conn, err := sshtest.Connect(addr, key)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	var errBuf sshtest.Buffer
	sess.Stderr = &errBuf
	if err := sess.Start(command); err != nil {
		t.Fatal(err)
	}
	talkErr := talk(in, bufio.NewReader(out))
	in.Close()
	err = sess.Wait()
	if talkErr != nil && err == nil {
		t.Fatalf("%s: %v, yet it ended well", command, talkErr)
	}
	var exit *gossh.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitStatus()
	case err != nil:
		code = -1
	}
	return code, errBuf.String()
}

// ack reads scp's one-byte answer: 0 is yes.
func ack(out *bufio.Reader) error {
	b, err := out.ReadByte()
	if err != nil {
		return err
	}
	if b != 0 {
		line, _ := out.ReadString('\n')
		return fmt.Errorf("refused: %q", line)
	}
	return nil
}

// scpSend sends one file as `scp name host:target` does.
func scpSend(t *testing.T, addr string, key sshtest.Key, target, name, body string) (int, string, string) {
	code, stderr := scpSession(t, addr, key, "scp -t "+target, func(in io.Writer, out *bufio.Reader) error {
		if err := ack(out); err != nil {
			return err
		}
		fmt.Fprintf(in, "C0644 %d %s\n", len(body), name)
		if err := ack(out); err != nil {
			return err
		}
		io.WriteString(in, body+"\x00")
		return ack(out)
	})
	return code, "", stderr
}

// scpFetch fetches one file as `scp host:name .` does.
func scpFetch(t *testing.T, addr string, key sshtest.Key, name string) (body string, code int, stderr string) {
	code, stderr = scpSession(t, addr, key, "scp -f "+name, func(in io.Writer, out *bufio.Reader) error {
		in.Write([]byte{0})
		header, err := out.ReadString('\n')
		if err == nil && strings.HasPrefix(header, "T") { // the times come first
			in.Write([]byte{0})
			header, err = out.ReadString('\n')
		}
		if err != nil {
			return err
		}
		var mode, size int
		var got string
		if _, err := fmt.Sscanf(header, "C%o %d %s", &mode, &size, &got); err != nil {
			return fmt.Errorf("header %q: %w", header, err)
		}
		in.Write([]byte{0})
		buf := make([]byte, size+1)
		if _, err := io.ReadFull(out, buf); err != nil {
			return err
		}
		body = string(buf[:size])
		in.Write([]byte{0})
		return nil
	})
	return body, code, stderr
}

// TestRemovedKeyEndsItsTransfers: an sftp session ends when its key is
// taken out of the file, as a console does.
func TestRemovedKeyEndsItsTransfers(t *testing.T) {
	var keysPath string
	fs := startFiles(t, func(c *Config) { keysPath = c.AuthorizedKeysPath; c.KeysEvery = 20 * time.Millisecond })
	client := fs.sftp(t, fs.bob)
	if _, err := client.ReadDir("/"); err != nil {
		t.Fatal(err)
	}
	rewriteKeys(t, keysPath, fs.alice.Line(`user="analyst",read-only`, "alice@laptop"))
	for deadline := time.Now().Add(sshtest.Wait); ; time.Sleep(10 * time.Millisecond) {
		if _, err := client.ReadDir("/"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sftp session of a removed key goes on")
		}
	}
	if !strings.Contains(fs.log.String(), `kind=sftp`) || !strings.Contains(fs.log.String(), `why="key removed or changed"`) {
		t.Errorf("the log does not say why the transfer ended:\n%s", fs.log)
	}
}

// TestFilesDirectoryIsCapped: a file sent that would grow the directory
// past FilesBytes is refused, by sftp and scp alike; a file replaced
// counts once.
func TestFilesDirectoryIsCapped(t *testing.T) {
	fs := startFiles(t, func(c *Config) { c.FilesBytes = 1000 })
	client := fs.sftp(t, fs.bob)
	put := func(name string, size int) error {
		f, err := client.Create(name)
		if err != nil {
			return err
		}
		if _, err := f.Write(bytes.Repeat([]byte("x"), size)); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	if err := put("a.zip", 600); err != nil {
		t.Fatal(err)
	}
	if err := put("b.zip", 600); err == nil {
		t.Error("a file past the cap was sent")
	}
	if err := put("a.zip", 900); err != nil {
		t.Errorf("replacing a file within the cap: %v", err)
	}
	if code, _, stderr := scpSend(t, fs.Addr(), fs.bob, ".", "c.zip", strings.Repeat("x", 200)); code != 1 || !strings.Contains(stderr, "1000 bytes at most") {
		t.Errorf("scp past the cap: status %d, stderr %q", code, stderr)
	}
	var total int64
	entries, _ := os.ReadDir(fs.userDir(t, "admin"))
	for _, e := range entries {
		info, _ := e.Info()
		total += info.Size()
	}
	if total > 1000 {
		t.Errorf("the directory holds %d bytes, past the cap of 1000", total)
	}
}
