package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
)

func (a *app) connCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "conn", Short: "list, read, create and delete connections"}
	cmd.AddCommand(a.connLs(), a.connGet(), a.connDeps(), a.connCreate(), a.connDelete())
	return cmd
}

func (a *app) connLs() *cobra.Command {
	cmd := &cobra.Command{Use: "ls", Short: "every connection, hidden system connections included", Args: cobra.NoArgs}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, _ []string) error {
		if err := out.check(); err != nil {
			return err
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		conns, err := client.Connections(ctx)
		if err != nil {
			return fmt.Errorf("list connections: %w", err)
		}
		t := newTable("ID", "NAME", "PATH", "DESCRIPTION")
		for _, c := range conns {
			t.add(strconv.FormatInt(c.ID, 10), c.Name, c.Path, c.Description)
		}
		return out.show(conns, t)
	})
	return cmd
}

// idAndClient checks the output format and the configuration id, then connects.
func (a *app) idAndClient(out *output, arg string) (int64, *api.Client, error) {
	if out != nil {
		if err := out.check(); err != nil {
			return 0, nil, err
		}
	}
	id, err := parseID("connection", arg)
	if err != nil {
		return 0, nil, err
	}
	client, err := a.connect()
	return id, client, err
}

func (a *app) connGet() *cobra.Command {
	cmd := &cobra.Command{Use: "get ID", Short: "a connection's representation (its secrets as the platform shows them)", Args: cobra.ExactArgs(1)}
	out := addOutput(cmd, a.sys)
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		id, client, err := a.idAndClient(out, args[0])
		if err != nil {
			return err
		}
		conn, err := client.Connection(ctx, id)
		if err != nil {
			return fmt.Errorf("read connection %d: %w", id, err)
		}
		t := newTable("FIELD", "VALUE")
		t.add("path", conn.File.Path)
		t.add("description", conn.File.Description)
		t.add("type", conn.TypeID)
		for _, key := range slices.Sorted(maps.Keys(conn.Properties)) {
			t.add(key, strings.Join(conn.Properties[key], ", "))
		}
		return out.show(conn, t)
	})
	return cmd
}

func (a *app) connDeps() *cobra.Command {
	cmd := &cobra.Command{Use: "deps ID", Short: "what depends on a connection (down) and what it depends on (up)", Args: cobra.ExactArgs(1)}
	out := addOutput(cmd, a.sys)
	var q api.DependencyQuery
	cmd.Flags().StringVar(&q.Direction, "direction", "", "`up` or down (default both)")
	cmd.Flags().IntVar(&q.Level, "level", 0, "`N` levels (1: direct dependencies only; 0: every level)")
	_ = cmd.RegisterFlagCompletionFunc("direction", cobra.FixedCompletions([]string{"up", "down"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		switch q.Direction {
		case "", model.DirectionUpstream, model.DirectionDownstream:
		case "up":
			q.Direction = model.DirectionUpstream
		case "down":
			q.Direction = model.DirectionDownstream
		default:
			return usage("--direction %q: want up or down", q.Direction)
		}
		if q.Level < 0 {
			return usage("--level %d: want 0 or more", q.Level)
		}
		id, client, err := a.idAndClient(out, args[0])
		if err != nil {
			return err
		}
		deps, err := client.ConnectionDependencies(ctx, id, q)
		if err != nil {
			return fmt.Errorf("dependencies of connection %d: %w", id, err)
		}
		t := newTable("ID", "TYPE", "PATH")
		for _, d := range deps {
			t.add(strconv.FormatInt(d.ID, 10), d.File.Type, d.File.Path)
		}
		return out.show(model.Dependencies{Dependencies: deps}, t)
	})
	return cmd
}

func (a *app) connCreate() *cobra.Command {
	cmd := &cobra.Command{Use: "create -f FILE", Short: "create a connection from its JSON representation (- reads stdin)", Args: cobra.NoArgs}
	var file string
	cmd.Flags().StringVarP(&file, "file", "f", "", "the connection's JSON `FILE`, as conn get -o json writes it; - for stdin")
	_ = cmd.MarkFlagRequired("file")
	cmd.RunE = a.run(func(ctx context.Context, _ []string) error {
		var body []byte
		var err error
		if file == "-" {
			body, err = io.ReadAll(a.sys.Stdin)
		} else {
			body, err = os.ReadFile(file)
		}
		if err != nil {
			return err
		}
		var conn model.Connection
		if err := json.Unmarshal(body, &conn); err != nil {
			return usage("%s: not a connection's JSON: %v", file, err)
		}
		client, err := a.connect()
		if err != nil {
			return err
		}
		id, err := client.CreateConnection(ctx, conn)
		if err != nil {
			return fmt.Errorf("create connection %s: %w", conn.File.Path, err)
		}
		fmt.Fprintln(a.sys.Stdout, id)
		return nil
	})
	return cmd
}

func (a *app) connDelete() *cobra.Command {
	cmd := &cobra.Command{Use: "delete ID", Short: "delete a connection (the platform refuses while something uses it)", Args: cobra.ExactArgs(1)}
	cmd.RunE = a.run(func(ctx context.Context, args []string) error {
		id, client, err := a.idAndClient(nil, args[0])
		if err != nil {
			return err
		}
		if err := client.DeleteConnection(ctx, id); err != nil {
			return fmt.Errorf("delete connection %d: %w", id, err)
		}
		fmt.Fprintf(a.sys.Stderr, "deleted connection %d\n", id)
		return nil
	})
	return cmd
}
