package sshserve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"charm.land/ssh"
	"charm.land/wish/v2/scp"
	"github.com/pkg/sftp"
)

// Files over SSH: scp and sftp sessions reach the directory Config.Files
// gives the key's user, the one the console writes backups to and reads
// restores from. Every access goes through that directory's *os.Root, so no
// path leaves it: not "..", not an absolute path, not a symbolic link that
// points out (the root refuses to follow it). Wish's own file-system
// handler checks paths before it opens them, which a link swapped in
// between would defeat.

// userFiles is one session's directory and what its key may do there.
type userFiles struct {
	root     *os.Root
	readOnly bool                    // a read-only key fetches, never sends
	limit    int64                   // bytes the directory may hold (Config.FilesBytes)
	read     scp.CopyToClientHandler // wish's, over the root's fs.FS
}

// room is how large the file name may grow: the limit less what the other
// files of the directory hold now. Uploads running at once each see the
// others' files as they were when they began.
func (f *userFiles) room(name string) (int64, error) {
	var others int64
	err := fs.WalkDir(f.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || p == name {
			return err
		}
		info, err := d.Info()
		if err == nil {
			others += info.Size()
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return f.limit - others, nil
}

// full is the refusal of a write past the directory's limit.
func (f *userFiles) full() error {
	return fmt.Errorf("your files directory may hold %d bytes at most: remove files first", f.limit)
}

// capped is a file being written that may not grow past room bytes.
type capped struct {
	*os.File
	room  int64
	files *userFiles
}

func (c capped) WriteAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > c.room {
		return 0, c.files.full()
	}
	return c.File.WriteAt(p, off)
}

var (
	// errReadOnly is sftp's "permission denied", which clients say as such.
	errReadOnly = fmt.Errorf("a read-only key may fetch files, not send, rename or remove them: %w", sftp.ErrSSHFxPermissionDenied)
	errOutside  = errors.New("outside your files directory")
)

// local is name as a path inside the root, or errOutside.
func local(name string) (string, error) {
	name = filepath.Clean(name)
	if !filepath.IsLocal(name) {
		return "", fmt.Errorf("%q: %w", name, errOutside)
	}
	return name, nil
}

// transfer serves a file session: scp or sftp, with no terminal (a pty
// would rewrite the bytes' line ends).
func (s *Server) transfer(sv *served, kind string, serve func(*served) error) {
	switch {
	case s.cfg.Files == nil:
		sv.refuse("file transfer is not served here", "refused: "+kind+" not served")
		return
	case sv.isPty:
		sv.refuse(kind+" takes no terminal", "refused: "+kind+" with a terminal")
		return
	}
	root, err := s.cfg.Files(sv.entry.User)
	if err != nil {
		sv.refuse(err.Error(), "refused: "+err.Error())
		return
	}
	sv.files = &userFiles{root: root, readOnly: sv.readOnly, limit: s.cfg.FilesBytes, read: scp.NewFSReadHandler(root.FS())}
	sv.transfer = true
	sv.log.Info("ssh: file transfer started", "kind", kind, "read_only", sv.readOnly)
	sv.live.onStop(func() { sv.Close() })
	err = serve(sv)
	reason, _ := sv.live.outcome()
	switch {
	case reason != "":
		sv.end(reason, 1)
	case err != nil:
		sv.end(kind+": "+err.Error(), 1)
	default:
		sv.end(kind+" done", 0)
	}
}

// serveSFTP runs an SFTP server over the session, whose "/" is the
// directory.
func serveSFTP(sv *served) error {
	h := sftpFiles{sv.files}
	server := sftp.NewRequestServer(sv, sftp.Handlers{FileGet: h, FilePut: h, FileCmd: h, FileList: h})
	// Not server.Close: it would close the channel before session sends
	// the exit status, and OpenSSH's scp then fails a finished copy.
	if err := server.Serve(); !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// scpFiles serves wish's scp middleware in the session's directory.
type scpFiles struct{}

func filesOf(s ssh.Session) *userFiles {
	if src, ok := s.(*scpSource); ok {
		return src.files
	}
	return s.(*served).files
}

func (scpFiles) Glob(s ssh.Session, pattern string) ([]string, error) {
	return filesOf(s).read.Glob(s, pattern)
}

func (scpFiles) WalkDir(s ssh.Session, name string, fn fs.WalkDirFunc) error {
	return filesOf(s).read.WalkDir(s, name, fn)
}

func (scpFiles) NewDirEntry(s ssh.Session, name string) (*scp.DirEntry, error) {
	return filesOf(s).read.NewDirEntry(s, name)
}

func (scpFiles) NewFileEntry(s ssh.Session, name string) (*scp.FileEntry, func() error, error) {
	return filesOf(s).read.NewFileEntry(s, name)
}

func (scpFiles) Mkdir(s ssh.Session, entry *scp.DirEntry) error {
	f := filesOf(s)
	if f.readOnly {
		return errReadOnly
	}
	name, err := local(entry.Filepath)
	if err != nil {
		return err
	}
	return f.root.Mkdir(name, 0o700)
}

// Write writes a file sent with scp. scp names the target and then each
// file; a target that is not a directory is the file's new name.
func (scpFiles) Write(s ssh.Session, entry *scp.FileEntry) (int64, error) {
	f := filesOf(s)
	if f.readOnly {
		return 0, errReadOnly
	}
	name, err := local(entry.Filepath)
	if err != nil {
		return 0, err
	}
	if dir := filepath.Dir(name); dir != "." {
		if info, err := f.root.Stat(dir); err != nil || !info.IsDir() {
			name = dir
		}
	}
	room, err := f.room(name)
	if err != nil {
		return 0, err
	}
	if entry.Size > room {
		return 0, f.full()
	}
	out, err := f.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, err
	}
	written, err := io.Copy(out, entry.Reader)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return written, err
}

// sftpFiles serves pkg/sftp's request server in the session's directory.
type sftpFiles struct{ *userFiles }

// name is the request's path inside the root: the server hands clean
// absolute paths, whose "/" is the directory itself.
func (f sftpFiles) name(p string) (string, error) {
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	if rel == "" {
		return ".", nil
	}
	return local(rel)
}

func (f sftpFiles) Fileread(r *sftp.Request) (io.ReaderAt, error) {
	name, err := f.name(r.Filepath)
	if err != nil {
		return nil, err
	}
	return f.root.Open(name)
}

func (f sftpFiles) Filewrite(r *sftp.Request) (io.WriterAt, error) {
	if f.readOnly {
		return nil, errReadOnly
	}
	name, err := f.name(r.Filepath)
	if err != nil {
		return nil, err
	}
	flags, pflags := os.O_WRONLY, r.Pflags()
	if pflags.Creat {
		flags |= os.O_CREATE
	}
	if pflags.Trunc {
		flags |= os.O_TRUNC
	}
	if pflags.Excl {
		flags |= os.O_EXCL
	}
	room, err := f.room(name)
	if err != nil {
		return nil, err
	}
	file, err := f.root.OpenFile(name, flags, 0o600)
	if err != nil {
		return nil, err
	}
	return capped{File: file, room: room, files: f.userFiles}, nil
}

func (f sftpFiles) Filecmd(r *sftp.Request) error {
	if f.readOnly {
		return errReadOnly
	}
	name, err := f.name(r.Filepath)
	if err != nil {
		return err
	}
	switch r.Method {
	case "Setstat":
		return nil // modes and times are not kept: files stay their owner's only
	case "Rename":
		target, err := f.name(r.Target)
		if err != nil {
			return err
		}
		return f.root.Rename(name, target)
	case "Rmdir", "Remove":
		return f.root.Remove(name)
	case "Mkdir":
		return f.root.Mkdir(name, 0o700)
	}
	return sftp.ErrSSHFxOpUnsupported // links: one could point out of the directory
}

func (f sftpFiles) Filelist(r *sftp.Request) (sftp.ListerAt, error) {
	name, err := f.name(r.Filepath)
	if err != nil {
		return nil, err
	}
	switch r.Method {
	case "List":
		dir, err := f.root.Open(name)
		if err != nil {
			return nil, err
		}
		defer dir.Close()
		infos, err := dir.Readdir(-1)
		return listerAt(infos), err
	case "Stat":
		info, err := f.root.Stat(name)
		if err != nil {
			return nil, err
		}
		return listerAt{info}, nil
	}
	return nil, sftp.ErrSSHFxOpUnsupported
}

// listerAt hands a listing to the request server a page at a time.
type listerAt []os.FileInfo

func (l listerAt) ListAt(page []os.FileInfo, offset int64) (int, error) {
	if offset >= int64(len(l)) {
		return 0, io.EOF
	}
	n := copy(page, l[offset:])
	if n < len(page) {
		return n, io.EOF
	}
	return n, nil
}

// scpSource waits for the client's answers while wish's scp sends files
// (`scp -f`), as OpenSSH's own scp source does: wish writes the whole
// stream without reading them and returns, the session then ends, and the
// client's scp, writing its last answer to an ssh that has already exited,
// died of SIGPIPE ("lost connection", exit 1) after a finished copy, about
// one fetch in three. The client answers its start, every control line
// (T, C, D, E) and every file's body.
type scpSource struct {
	*served
	started bool
	body    int64 // bytes of the current file's body still to come; -1 between files
}

func newSCPSource(sv *served) *scpSource { return &scpSource{served: sv, body: -1} }

func (s *scpSource) Write(p []byte) (int, error) {
	if !s.started {
		s.started = true
		if err := s.answer(); err != nil {
			return 0, err
		}
	}
	if s.body > 0 { // a chunk of the file's body
		n, err := s.served.Write(p)
		s.body -= int64(n)
		return n, err
	}
	n, err := s.served.Write(p)
	if err != nil {
		return n, err
	}
	switch {
	case s.body == 0: // the NUL after the body
		s.body = -1
	case len(p) > 0 && p[0] == 'C':
		var mode uint32
		var name string
		if _, err := fmt.Sscanf(string(p), "C%o %d %s", &mode, &s.body, &name); err != nil {
			return n, fmt.Errorf("scp: file line %q: %w", p, err)
		}
	}
	return n, s.answer()
}

// answer reads the client's answer: 0 goes on; 1 (a warning) or 2 (an
// error) come with a message line.
func (s *scpSource) answer() error {
	var b [1]byte
	if _, err := io.ReadFull(s.served, b[:]); err != nil {
		return fmt.Errorf("scp: the client's answer: %w", err)
	}
	if b[0] == 0 {
		return nil
	}
	var msg []byte
	for {
		if _, err := io.ReadFull(s.served, b[:]); err != nil || b[0] == '\n' {
			break
		}
		msg = append(msg, b[0])
	}
	return fmt.Errorf("scp: the client refused: %s", msg)
}
