package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/cli"

	"github.com/dapconsole/dapconsole/server/store"
)

// TestSealerOf: --server-data seals with the server's existing key, so the
// server opens what the console sealed; a directory with no key is refused
// rather than given a new key the server does not have.
func TestSealerOf(t *testing.T) {
	if _, err := sealerOf(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no secrets key") {
		t.Fatalf("a directory with no key: %v", err)
	}
	dir := t.TempDir()
	server, err := store.OpenSecrets(dir) // as the server makes it
	if err != nil {
		t.Fatal(err)
	}
	seal, err := sealerOf(dir)
	if err != nil {
		t.Fatal(err)
	}
	sealed := seal("pw-console-sealed")
	if !strings.HasPrefix(sealed, "SECURE:0:") || strings.Contains(sealed, "pw-console-sealed") {
		t.Fatalf("sealed as %q", sealed)
	}
	if plain, err := server.Reveal(sealed); err != nil || plain != "pw-console-sealed" {
		t.Fatalf("the server opens %q, %v", plain, err)
	}
}

// TestHelpListsTheSubcommands: --help is a request, not a mistake: run
// answers flag.ErrHelp (main exits 0) after printing every sub-command, and
// an unknown argument names them all, encrypt among them.
func TestHelpListsTheSubcommands(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		if err := run(args); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%v: %v, want flag.ErrHelp", args, err)
		}
	}
	for _, sub := range strings.Split(subcommands, ", ") {
		if !strings.Contains(consoleUsage, "dapconsole "+sub) {
			t.Errorf("the usage does not list %s", sub)
		}
	}
	err := run([]string{"bogus"})
	if err == nil || !strings.Contains(err.Error(), "encrypt") {
		t.Errorf("unknown argument: %v", err)
	}
	// Each scripting group's line names every command of the group (it
	// lacked folder diff and copy, added after it was written).
	for _, group := range []string{"folder", "job", "conn"} {
		var help bytes.Buffer
		sys := cli.System{Stdin: strings.NewReader(""), Stdout: &help, Stderr: &help, Getenv: func(string) string { return "" }}
		if err := cli.Execute(context.Background(), cli.Options{System: sys}, []string{group, "-h"}); err != nil {
			t.Fatalf("%s -h: %v", group, err)
		}
		_, commands, _ := strings.Cut(help.String(), "Available Commands:\n")
		commands, _, _ = strings.Cut(commands, "\n\n")
		var names []string
		for _, line := range strings.Split(commands, "\n") {
			names = append(names, strings.Fields(line)[0])
		}
		line := regexp.MustCompile(`dapconsole ` + group + ` (\S+)`).FindStringSubmatch(consoleUsage)
		if len(names) == 0 || line == nil || !sameSet(strings.Split(line[1], "|"), names) {
			t.Errorf("the usage's %s line %q, its commands %q", group, line, names)
		}
	}
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}
