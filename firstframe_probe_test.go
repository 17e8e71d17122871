//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dapconsole/dapconsole/sshserve/sshtest"
)

// TestFirstFrameProbe is run by scripts/bench.sh, and does nothing in a
// normal run: it starts the dapconsole binary DAP_PROBE_BINARY on a pty
// against the server DAP_PROBE_SERVER (as admin, password admin), draws
// what it writes on a 100x30 virtual terminal that answers its queries as
// a terminal does, and prints the nanoseconds from starting the process to
// the first frame showing DAP_PROBE_TEXT (the root folder's content).
func TestFirstFrameProbe(t *testing.T) {
	binary, serverURL, text := os.Getenv("DAP_PROBE_BINARY"), os.Getenv("DAP_PROBE_SERVER"), os.Getenv("DAP_PROBE_TEXT")
	if binary == "" || serverURL == "" || text == "" {
		t.Skip("a measuring aid: set DAP_PROBE_BINARY, DAP_PROBE_SERVER and DAP_PROBE_TEXT")
	}
	const width, height = 100, 30
	ptmx, tty := openPty(t, width, height)
	screen := sshtest.NewScreen(t, width, height)
	defer screen.Close()
	go io.Copy(screen, ptmx)
	go io.Copy(ptmx, screen.Replies())

	cmd := exec.Command(binary, "--server", serverURL, "--user", "admin")
	cmd.Env = []string{"TERM=xterm-256color", "DAP_PASSWORD=admin", "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	screen.WaitForText(text)
	elapsed := time.Since(start)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	tty.Close()
	ptmx.Close()
	fmt.Println(elapsed.Nanoseconds())
}

// openPty opens a pseudo-terminal of the given size: its master, and the
// terminal a program runs on.
func openPty(t *testing.T, width, height int) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("pty number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(height), Col: uint16(width)}); err != nil {
		t.Fatalf("pty size: %v", err)
	}
	return ptmx, tty
}
