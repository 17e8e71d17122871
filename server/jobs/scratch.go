package jobs

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	zsqlite "zombiezen.com/go/sqlite"
)

// errOneStatement refuses SQL text that holds more than one statement.
var errOneStatement = errors.New("sql: a workbook runs one statement; remove what follows the first")

// scratch is the database a workbook computes in: the private temporary
// database of a connection of its own (SQLite keeps it in memory and
// spills it to a temporary file), holding a copy of each input and nothing
// else. The server's database is attached read-only only while the inputs
// are copied, and detached before the workbook's SQL is compiled; from then
// on no database can be attached (SQLITE_LIMIT_ATTACHED is 0) and an
// authorizer allows reading the inputs and nothing more (inputsOnly). So no schema name,
// ATTACH, pragma, sqlite_schema or temp table reaches the server's data:
// it is not there.
type scratch struct {
	conn *zsqlite.Conn
}

// openScratch copies the tables of the server's database into a new scratch
// database, tables[i] as names[i], and adds the views alias → names[i] for
// each alias in aliases[i]. Its work stops when ctx ends.
func (e *Engine) openScratch(ctx context.Context, names, tables []string, aliases [][]string) (*scratch, error) {
	conn, err := zsqlite.OpenConn("", zsqlite.OpenReadWrite|zsqlite.OpenCreate|zsqlite.OpenURI)
	if err != nil {
		return nil, fmt.Errorf("workbook database: %w", err)
	}
	s := &scratch{conn: conn}
	conn.SetInterrupt(ctx.Done())
	conn.SetBusyTimeout(e.file.busyTimeout)
	if err := s.copyIn(e.file.path, names, tables, aliases); err != nil {
		s.close()
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("workbook database: %w", err)
	}
	conn.Limit(zsqlite.LimitAttached, 0)
	if err := conn.SetDefensive(true); err != nil {
		s.close()
		return nil, fmt.Errorf("workbook database: %w", err)
	}
	if err := conn.SetAuthorizer(zsqlite.AuthorizeFunc(inputsOnly)); err != nil {
		s.close()
		return nil, fmt.Errorf("workbook database: %w", err)
	}
	return s, nil
}

func (s *scratch) copyIn(serverDB string, names, tables []string, aliases [][]string) error {
	src := "file:" + (&url.URL{Path: serverDB}).EscapedPath() + "?mode=ro"
	if err := s.exec(`ATTACH DATABASE '` + strings.ReplaceAll(src, "'", "''") + `' AS server`); err != nil {
		return err
	}
	// One read transaction: every input is copied as of the same moment.
	if err := s.exec(`BEGIN`); err != nil {
		return err
	}
	for i, n := range names {
		if err := s.exec(`CREATE TABLE main.` + quoteIdent(n) + ` AS SELECT * FROM server.` + quoteIdent(tables[i])); err != nil {
			return fmt.Errorf("copy input %s: %w", n, err)
		}
		for _, a := range aliases[i] {
			if err := s.exec(`CREATE VIEW main.` + quoteIdent(a) + ` AS SELECT * FROM main.` + quoteIdent(n)); err != nil {
				return fmt.Errorf("view %s: %w", a, err)
			}
		}
	}
	if err := s.exec(`COMMIT`); err != nil {
		return err
	}
	return s.exec(`DETACH DATABASE server`)
}

func (s *scratch) exec(query string) error {
	stmt, _, err := s.conn.PrepareTransient(query)
	if err != nil {
		return err
	}
	defer stmt.Finalize()
	_, err = stmt.Step()
	return err
}

// close drops the scratch database with its connection.
func (s *scratch) close() { s.conn.Close() }

// query runs one SELECT with its arguments, hands each row to row (which
// must not keep the slice) and answers the result's column names. Errors SQLite finds while compiling the statement
// (syntax, unknown names, the authorizer) say what they are; an error while
// it runs is named by its code alone, because SQLite's message may quote a
// value of the data (a bad JSON path, say), and the reason and the log of a
// run must carry no row.
func (s *scratch) query(ctx context.Context, text string, args []cell, row func(cells []cell) error) ([]string, error) {
	stmt, tail, err := s.conn.PrepareTransient(text)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("sql: %s", compileError(err))
	}
	defer stmt.Finalize()
	if !onlyComments(text[len(text)-tail:]) {
		return nil, errOneStatement
	}
	for i, a := range args {
		a.bind(stmt, i+1)
	}
	columns := make([]string, stmt.ColumnCount())
	for i := range columns {
		columns[i] = stmt.ColumnName(i)
	}
	cells := make([]cell, len(columns))
	for {
		more, err := stmt.Step()
		if err != nil {
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
			return nil, fmt.Errorf("sql: the query failed while it ran (%s); SQLite's message is not shown, it may quote the data", zsqlite.ErrCode(err))
		}
		if !more {
			return columns, nil
		}
		for i := range cells {
			cells[i] = columnCell(stmt, i)
		}
		if err := row(cells); err != nil {
			return nil, err
		}
	}
}

// compileError is SQLite's message for a statement it could not compile,
// without the driver's prefix.
func compileError(err error) string {
	return strings.TrimPrefix(err.Error(), "sqlite: prepare: ")
}

// columnCell reads one value of the current row in its storage class.
func columnCell(stmt *zsqlite.Stmt, col int) cell {
	switch stmt.ColumnType(col) {
	case zsqlite.TypeInteger:
		return cell{kind: integerCell, i: stmt.ColumnInt64(col)}
	case zsqlite.TypeFloat:
		return cell{kind: realCell, f: stmt.ColumnFloat(col)}
	case zsqlite.TypeText:
		return cell{kind: textCell, s: stmt.ColumnText(col)}
	case zsqlite.TypeBlob:
		b := make([]byte, stmt.ColumnLen(col))
		stmt.ColumnBytes(col, b)
		return cell{kind: blobCell, b: b}
	}
	return cell{}
}

// onlyComments reports whether SQL text holds nothing but blanks,
// semicolons and comments.
func onlyComments(text string) bool {
	for {
		text = strings.TrimLeft(text, " \t\r\n\f;")
		switch {
		case text == "":
			return true
		case strings.HasPrefix(text, "--"):
			end := strings.IndexByte(text, '\n')
			if end < 0 {
				return true
			}
			text = text[end:]
		case strings.HasPrefix(text, "/*"):
			end := strings.Index(text[2:], "*/")
			if end < 0 {
				return true
			}
			text = text[end+4:]
		default:
			return false
		}
	}
}

// inputsOnly allows a query to select, recurse, call functions and read
// the tables of the main database (the inputs and their views: there is
// nothing else) and its own common table expressions (SQLite names no
// database for either); it denies SQLite's own tables, pragma and dbstat
// tables, the temp database and everything that is not a read, when the
// statement is compiled. (The function load_extension stays refused by
// SQLite itself: the connection never enables extension loading.)
func inputsOnly(a zsqlite.Action) zsqlite.AuthResult {
	switch a.Type() {
	case zsqlite.OpSelect, zsqlite.OpRecursive, zsqlite.OpFunction:
		return zsqlite.AuthResultOK
	case zsqlite.OpRead:
		table := strings.ToLower(a.Table())
		builtIn := strings.HasPrefix(table, "sqlite_") || strings.HasPrefix(table, "pragma_") || table == "dbstat"
		if (a.Database() == "" || a.Database() == "main") && !builtIn {
			return zsqlite.AuthResultOK
		}
	}
	return zsqlite.AuthResultDeny
}
