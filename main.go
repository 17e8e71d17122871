// Command dapconsole is a terminal console for the administrators of a
// data-analytics platform, and carries an embedded platform for demos and tests.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	err := run(os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		// -h and --help asked for the usage, which is printed: not a failure.
	case err != nil:
		fmt.Fprintln(os.Stderr, "dapconsole:", err)
		os.Exit(1)
	}
}

// subcommands names every sub-command, for the usage and for errors.
const subcommands = "serve, ssh, encrypt, login, logout, version"

// consoleUsage starts the console's --help: the sub-commands, then its flags.
const consoleUsage = `dapconsole — a console for the data-analytics platform

Usage:
  dapconsole [flags]                                   the console (--demo: on the embedded platform)
  dapconsole serve --addr HOST:PORT --data DIR [--demo-data]
  dapconsole ssh ...                                   the console served over SSH
  dapconsole encrypt -v VALUE|- --data DIR             seal a secret as SECURE:<n>:<s> for a server
  dapconsole login [--server URL] [--user NAME] [--profile NAME]
  dapconsole logout [--profile NAME]
  dapconsole version

Each sub-command takes -h for its flags. The console's flags:
`

func run(args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return runServe(args[1:])
		case "ssh":
			return runSSH(args[1:])
		case "encrypt":
			return runEncrypt(args[1:])
		case "login":
			return runLogin(args[1:])
		case "logout":
			return runLogout(args[1:])
		case "version":
			fmt.Println("dapconsole", version)
			return nil
		}
	}
	return runConsole(args)
}
