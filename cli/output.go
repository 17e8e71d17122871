package cli

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/theme"
)

// Output formats of every read.
const (
	formatTable = "table"
	formatJSON  = "json"
)

// output is the -o flag of a read and where its answer goes.
type output struct {
	format string
	sys    System
}

// addOutput gives a read its -o table|json flag.
func addOutput(cmd *cobra.Command, sys System) *output {
	o := &output{sys: sys}
	cmd.Flags().StringVarP(&o.format, "output", "o", formatTable, "`format`: table (aligned, for people) or json (the platform's own shapes)")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{formatTable, formatJSON}, cobra.ShellCompDirectiveNoFileComp))
	return o
}

// check refuses a format that is neither, before anything is sent.
func (o *output) check() error {
	if o.format != formatTable && o.format != formatJSON {
		return usage("-o %q: want table or json", o.format)
	}
	return nil
}

func (o *output) json() bool { return o.format == formatJSON }

// writeJSON writes v as the platform sent it: no cleaning, no HTML escapes.
func (o *output) writeJSON(v any) error {
	enc := json.NewEncoder(o.sys.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table is rows of cells for people: every cell is cleaned for the
// terminal (it may hold what a server sent) and the columns are aligned
// by display width.
type table struct {
	header []string
	rows   [][]string
}

func newTable(header ...string) *table { return &table{header: header} }

// add appends a row; cells from a server are cleaned here.
func (t *table) add(cells ...string) {
	for i, c := range cells {
		cells[i] = model.Clean(c)
	}
	t.rows = append(t.rows, cells)
}

// write prints the table; the header is styled only when colour is allowed.
func (t *table) write(w io.Writer, colour bool) error {
	widths := make([]int, len(t.header))
	for _, row := range append([][]string{t.header}, t.rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	var b strings.Builder
	line := func(row []string, style func(string) string) {
		// Empty cells at the end of a row leave no trailing blanks.
		last := len(row) - 1
		for last > 0 && row[last] == "" {
			last--
		}
		for i, c := range row[:last+1] {
			b.WriteString(style(c))
			if i < last {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	plain := func(s string) string { return s }
	head := plain
	if colour {
		style := theme.New(true, false).PaneTitle
		head = func(s string) string { return style.Render(s) }
	}
	line(t.header, head)
	for _, row := range t.rows {
		line(row, plain)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// show writes v as json, or the table for people.
func (o *output) show(v any, t *table) error {
	if o.json() {
		return o.writeJSON(v)
	}
	return t.write(o.sys.Stdout, o.sys.colour())
}
