package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/model"
)

// Exit codes of every command: scripts rely on them.
const (
	ExitOK      = 0
	ExitFailed  = 1 // the platform refused or failed, or the command could not do its work
	ExitUsage   = 2 // the command line itself is wrong
	exitUnknown = -1
)

// exitError carries the exit code of an error out of the tree. An error
// without one came from cobra's own checks (flags, arguments, unknown
// commands): a usage error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// failed marks err as the platform's refusal or a failure (exit 1).
func failed(err error) error {
	if err == nil {
		return nil
	}
	var coded *exitError
	if errors.As(err, &coded) {
		return err
	}
	return &exitError{code: ExitFailed, err: err}
}

// usage marks err as a mistake on the command line (exit 2).
func usage(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// ExitCode is the process's exit code for what Execute returned.
func ExitCode(err error) int {
	var coded *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &coded):
		return coded.code
	}
	return ExitUsage
}

// Report writes err to w, cleaned for the terminal (a reason the server
// gave reaches it verbatim otherwise), and returns the exit code.
func Report(err error, w io.Writer) int {
	code := ExitCode(err)
	if code != ExitOK {
		fmt.Fprintln(w, "dapconsole:", model.Clean(err.Error()))
	}
	return code
}

// Hosted is a command that parses its own arguments (the console's
// sub-commands, written with package flag before the tree existed): the
// tree lists it and hands it every argument as it came.
type Hosted struct {
	Name, Short string
	Run         func(args []string) error
}

// Options is what the program gives the tree.
type Options struct {
	// Console runs for a command line that names no command of the tree,
	// with every argument as it came (it has its own flags and usage).
	Console func(args []string) error
	Hosted  []Hosted
	System  System
}

// Execute runs the command line args (without the program name).
func Execute(ctx context.Context, opts Options, args []string) error {
	root := newRoot(opts)
	if args == nil {
		args = []string{} // cobra reads os.Args for a nil slice
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if errors.Is(err, errHelpShown) {
		return flag.ErrHelp
	}
	return err
}

// errHelpShown is a hosted command's flag.ErrHelp on its way out of the
// tree: cobra would answer flag.ErrHelp itself with the tree's help, over
// the usage the command has printed.
var errHelpShown = errors.New("help shown")

func newRoot(opts Options) *cobra.Command {
	sys := opts.System
	a := &app{sys: sys}
	root := &cobra.Command{
		Use:   "dapconsole",
		Short: "a console and a command line for the data-analytics platform",
		// The console parses its own flags (--demo, --mouse …) and prints
		// its own usage; the tree only routes to it.
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		RunE:               hosted(opts.Console),
		SilenceErrors:      true,
		SilenceUsage:       true,
	}
	root.SetIn(sys.Stdin)
	root.SetOut(sys.Stdout)
	root.SetErr(sys.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &exitError{code: ExitUsage, err: err} })
	global := root.PersistentFlags()
	global.StringVar(&a.req.Server, "server", "", "base `URL` of the platform, e.g. https://dap.example.com")
	global.StringVar(&a.req.User, "user", "", "user `NAME`")
	global.StringVar(&a.req.Profile, "profile", "", "named profile `NAME` (see dapconsole login)")
	global.BoolVar(&a.req.ReadOnly, "read-only", false, "refuse every command that writes to the platform")
	_ = root.RegisterFlagCompletionFunc("profile", a.completeProfiles)

	root.AddGroup(&cobra.Group{ID: "platform", Title: "Scripting the platform:"}, &cobra.Group{ID: "console", Title: "The console and its server:"})
	for _, cmd := range []*cobra.Command{a.folderCommand(), a.jobCommand(), a.connCommand()} {
		cmd.GroupID = "platform"
		cmd.Args = cobra.ArbitraryArgs
		cmd.RunE = group
		root.AddCommand(cmd)
	}
	for _, h := range opts.Hosted {
		root.AddCommand(&cobra.Command{
			Use: h.Name, Short: h.Short, GroupID: "console",
			DisableFlagParsing: true, Args: cobra.ArbitraryArgs,
			RunE: hosted(h.Run),
		})
	}
	root.SetHelpCommandGroupID("console")
	root.SetCompletionCommandGroupID("platform")
	// cobra's completion command, made now rather than at Execute, is a
	// group too: `completion tcsh` printed the help and exited 0.
	root.InitDefaultCompletionCmd()
	if comp, _, err := root.Find([]string{"completion"}); err == nil && comp != root {
		comp.Args = cobra.ArbitraryArgs
		comp.RunE = group
	}
	return root
}

// group is a command that only groups others: alone it prints its help;
// with an argument that names none of them it is a usage error (cobra
// would print the help and exit 0, which a script would take for success).
func group(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usage("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return cmd.Help()
}

// hosted runs a command that parses its own arguments; its errors are
// failures (exit 1), as they were before the tree, and its -h is help.
func hosted(run func([]string) error) func(*cobra.Command, []string) error {
	return func(_ *cobra.Command, args []string) error {
		err := run(args)
		if errors.Is(err, flag.ErrHelp) {
			return errHelpShown
		}
		return failed(err)
	}
}
