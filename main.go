// Command dapconsole is a terminal console for the administrators of a
// data-analytics platform, and carries an embedded platform for demos and tests.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dapconsole/dapconsole/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Report(run(os.Args[1:]), os.Stderr))
}

// subcommands names every sub-command, for the usage and for errors.
const subcommands = "folder, job, conn, completion, serve, ssh, encrypt, login, logout, version"

// consoleUsage starts the console's --help: the sub-commands, then its flags.
const consoleUsage = `dapconsole — a console for the data-analytics platform

Usage:
  dapconsole [flags]                                   the console (--demo: on the embedded platform)
  dapconsole folder ls|backup|restore|diff|copy|perm ...  script the platform: folders
  dapconsole job ls|status|history|details|log|trigger|stop|seq ...
  dapconsole conn ls|get|deps|create|delete ...
  dapconsole completion bash|zsh|fish
  dapconsole serve --addr HOST:PORT --data DIR [--demo-data]
  dapconsole ssh ...                                   the console served over SSH
  dapconsole encrypt -v VALUE|- --data DIR             seal a secret as SECURE:<n>:<s> for a server
  dapconsole login [--server URL] [--user NAME] [--profile NAME]
  dapconsole logout [--profile NAME]
  dapconsole version

Each sub-command takes -h for its flags. The console's flags:
`

// run routes the command line through the command tree: the console when
// it names no command, the console's sub-commands, and the scripting ones.
func run(args []string) error {
	return cli.Execute(context.Background(), cli.Options{
		Console: runConsole,
		Hosted: []cli.Hosted{
			{Name: "serve", Short: "run the embedded platform in the foreground", Run: runServe},
			{Name: "ssh", Short: "serve the console over SSH", Run: runSSH},
			{Name: "encrypt", Short: "seal a secret as SECURE:<n>:<s> for a server", Run: runEncrypt},
			{Name: "login", Short: "check and save a profile, and its password in the OS keyring", Run: runLogin},
			{Name: "logout", Short: "forget a profile's password (and with --forget the profile)", Run: runLogout},
			{Name: "version", Short: "print the version", Run: func([]string) error {
				fmt.Println("dapconsole", version)
				return nil
			}},
		},
		System: cli.ProcessSystem(),
	}, args)
}
