package jobs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/model"
)

// Properties of workbooks.
const (
	propSQL            = "sql"
	propVariablePrefix = "variable." // variable.<name> holds the default of ${name}
	propDataDriven     = "dataDriven"
)

// maxWorkbookRows bounds a workbook's result, which is held in memory
// between the query and the write; Engine.workbookBytes bounds its bytes.
const maxWorkbookRows = 1_000_000

// DataDriven reports whether a workbook may run inside a sequential trigger.
func DataDriven(f File) bool {
	v, _ := strconv.ParseBool(f.Config.Property(propDataDriven))
	return v
}

// runWorkbook runs the workbook's SQL over its inputs' newest data, in a
// scratch database that holds a copy of each input and nothing else (see
// scratch). Each input is a table named after the input file (see
// viewNames); variables are bound as parameters, never pasted into the SQL
// text. The run, copy and query, ends at the engine's query time limit.
func (e *Engine) runWorkbook(r *run) (result, error) {
	cfg := r.file.Config
	text := cfg.Property(propSQL)
	if strings.TrimSpace(text) == "" {
		return result{}, fmt.Errorf("%s has no %s property", r.file.Path, propSQL)
	}
	query, args, err := bindVariables(text, variableValues(cfg, r.vars))
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	_, inputs, err := e.sources(r)
	if err != nil {
		return result{}, err
	}
	tables := make([]string, len(inputs))
	for i, in := range inputs {
		if tables[i], err = e.latestData(r.ctx, in); err != nil {
			return result{}, fmt.Errorf("%s: input %w", r.file.Path, err)
		}
		r.logf("input %s", in.Path)
	}
	ctx, cancel := context.WithTimeoutCause(r.ctx, e.queryTime, e.queryTimeExceeded())
	defer cancel()
	columns, rows, err := e.queryInputs(ctx, inputs, tables, query, args)
	if err != nil {
		return result{}, fmt.Errorf("%s: %w", r.file.Path, err)
	}
	r.setProgress(0.5)
	r.logf("the query returned %d rows of %d columns", len(rows), len(columns))
	staged := e.newStagedTable(r.id)
	res := result{staged: staged}
	if err := staged.create(r.ctx, columns); err != nil {
		return res, err
	}
	for i, row := range rows {
		if err := staged.add(r.ctx, row); err != nil {
			return res, err
		}
		if i%checkEvery == 0 {
			r.setProgress(0.5 + 0.5*float64(i)/float64(len(rows)))
		}
	}
	res.success = staged.added
	res.counters = map[string]int64{"WORKBOOK_RECORDS": res.success, "WORKBOOK_OUTPUT_BYTES": staged.bytes}
	return res, nil
}

// queryTimeExceeded is the reason of a run stopped by the query time limit.
func (e *Engine) queryTimeExceeded() error {
	return fmt.Errorf("the query ran longer than %s, the limit of one run's SQL (--max-query-time)", e.queryTime)
}

// queryInputs copies the inputs into a scratch database and runs the query
// there, and returns the whole result.
func (e *Engine) queryInputs(ctx context.Context, inputs []File, tables []string, query string, args []cell) ([]string, [][]cell, error) {
	names := viewNames(inputs)
	aliases := make([][]string, len(inputs))
	for i := range inputs {
		aliases[i] = []string{names[len(inputs)+i]}
	}
	db, err := e.openScratch(ctx, names[:len(inputs)], tables, aliases)
	if err != nil {
		return nil, nil, err
	}
	defer db.close()
	var (
		out  [][]cell
		held int64
	)
	columns, err := db.query(ctx, query, args, func(cells []cell) error {
		if len(out) == maxWorkbookRows {
			return fmt.Errorf("the result has more than %d rows", maxWorkbookRows)
		}
		for _, c := range cells {
			held += c.size()
		}
		if held > e.workbookBytes {
			return fmt.Errorf("the result holds more than %d bytes, the cap of one workbook run (--max-workbook-bytes)", e.workbookBytes)
		}
		out = append(out, slices.Clone(cells))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return columns, out, nil
}

// viewNames names the views of a workbook's inputs: first each input's file
// name, lower-cased, with every character outside a-z, 0-9 and _ replaced
// by _ (a name starting with a digit gets a t_ prefix; a repeated name gets
// _2, _3); then input1, input2, … in the order of the sources. The result
// has 2×len(inputs) names; name i and name len(inputs)+i show the same data.
func viewNames(inputs []File) []string {
	names := make([]string, 0, 2*len(inputs))
	seen := make(map[string]bool)
	for _, in := range inputs {
		base := sqlName(in.Name)
		n := base
		for k := 2; seen[n]; k++ {
			n = base + "_" + strconv.Itoa(k)
		}
		seen[n] = true
		names = append(names, n)
	}
	for i := range inputs {
		names = append(names, "input"+strconv.Itoa(i+1))
	}
	return names
}

func sqlName(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	n := b.String()
	if n == "" || (n[0] >= '0' && n[0] <= '9') || strings.HasPrefix(n, "input") {
		n = "t_" + n
	}
	return n
}

// variableValues merges a workbook's defaults (variable.<name> properties)
// with the values a trigger brings; the trigger's win.
func variableValues(cfg model.Configuration, given map[string]string) map[string]string {
	values := make(map[string]string)
	for k, v := range cfg.Properties {
		if name, ok := strings.CutPrefix(k, propVariablePrefix); ok && len(v) > 0 {
			values[name] = v[0]
		}
	}
	for k, v := range given {
		values[k] = v
	}
	return values
}

// bindVariables replaces each ${name} in the SQL text by a ? parameter and
// returns the values to bind, in order. A variable inside a quoted string,
// quoted name or comment is refused: it would be bound as text there anyway,
// and pasting it would open the text to injection.
func bindVariables(text string, values map[string]string) (string, []cell, error) {
	var out strings.Builder
	var args []cell
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closing := c
			if c == '[' {
				closing = ']'
			}
			end := strings.IndexByte(text[i+1:], closing)
			if end < 0 {
				return "", nil, errors.New("sql: unterminated quote")
			}
			quoted := text[i : i+end+2]
			if strings.Contains(quoted, "${") {
				return "", nil, fmt.Errorf("sql: variable inside %s; write ${name} without quotes, it is bound as a value", quoted)
			}
			out.WriteString(quoted)
			i += end + 2
		case strings.HasPrefix(text[i:], "--"):
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			out.WriteString(text[i : i+end])
			i += end
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return "", nil, errors.New("sql: unterminated comment")
			}
			out.WriteString(text[i : i+end+4])
			i += end + 4
		case strings.HasPrefix(text[i:], "${"):
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return "", nil, errors.New("sql: unterminated ${")
			}
			name := text[i+2 : i+end]
			if !validVariableName(name) {
				return "", nil, fmt.Errorf("sql: %q is not a variable name", name)
			}
			v, ok := values[name]
			if !ok {
				return "", nil, fmt.Errorf("variable %s has no value and no default (property %s%s)", name, propVariablePrefix, name)
			}
			out.WriteByte('?')
			args = append(args, parseCell(v))
			i += end + 1
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), args, nil
}

func validVariableName(name string) bool {
	for i, c := range name {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		digitOrDot := c == '.' || (c >= '0' && c <= '9')
		if !letter && (i == 0 || !digitOrDot) {
			return false
		}
	}
	return name != ""
}
