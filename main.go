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
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "dapconsole:", err)
		}
		os.Exit(1)
	}
}

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
