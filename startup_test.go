//go:build linux

package main

import (
	"bytes"
	"io"
	"strings"
	"syscall"
	"testing"
)

// TestStartAsksTheTerminalNothing: starting (here `dapconsole version`) on
// a terminal that answers no queries writes none. charmbracelet/log before
// v0.4 (wish's logger) made its default logger at package init and asked
// the terminal for its colours there, in every process, console included:
// on a terminal that does not answer it waited 5 seconds a query, twice,
// before main.
func TestStartAsksTheTerminalNothing(t *testing.T) {
	ptmx, tty := openPty(t, 80, 24)
	defer ptmx.Close()
	cmd := dapconsole(t, []string{"TERM=xterm-256color"}, "version")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true} // in the foreground, as from a shell
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var out bytes.Buffer
	io.Copy(&out, ptmx) // until the child has closed the terminal (EIO)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dapconsole version: %v; wrote %q", err, out.String())
	}
	if !strings.Contains(out.String(), "dapconsole ") {
		t.Errorf("wrote %q, want the version", out.String())
	}
	if strings.ContainsAny(out.String(), "\x1b") {
		t.Errorf("wrote %q: a query or control sequence before the console started", out.String())
	}
}
