package dataview

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Target is the file whose data the view shows.
type Target struct {
	Kind     model.Kind
	ConfigID int64
	Path     string
}

// maxCell bounds what one cell keeps: a page's memory stays bounded
// whatever the data holds.
const maxCell = 256

// maxColumnWidth bounds a column's width on screen.
const maxColumnWidth = 32

// sheetsMsg answers the read of the sheets.
type sheetsMsg struct {
	ticket common.Ticket
	sheets []model.SheetDetails
	err    error
}

func (m sheetsMsg) Failure() error { return m.err }

// pageMsg answers the read of a page.
type pageMsg struct {
	ticket  common.Ticket
	start   int
	columns []string
	rows    [][]string
	err     error
}

func (m pageMsg) Failure() error { return m.err }

// View is the data view, a common.Dialog.
type View struct {
	ctx           *common.Context
	target        Target
	width, height int

	sheets []model.SheetDetails
	sheet  int

	start   int // row number of the page's first row
	columns []string
	rows    [][]string
	widths  []int // of the page's columns, measured once per page
	loading bool
	err     error
	cursor  int // within the page
	col     int // first column on screen

	// page counts the answers taken (pages, sheets, errors), so that the
	// frame cache knows the data changed; frame is the frame last drawn
	// for frameKey.
	page            int
	frameKey, frame string

	reads  common.Requests
	cancel context.CancelFunc // of the read in flight
	closed bool
}

// Open returns the view and the command that reads the sheets, then the
// first page.
func Open(ctx *common.Context, t Target) (*View, tea.Cmd) {
	v := &View{ctx: ctx, target: t}
	return v, tea.Batch(common.OpenDialog(v), v.readSheets())
}

// pageLength is how many rows a page holds: the table's height.
func (v *View) pageLength() int { return max(1, v.height-6) }

// run starts a read that closing the view, or a newer read, cancels.
func (v *View) run(label string, fn func(ctx context.Context, c *api.Client) tea.Msg) tea.Cmd {
	client := v.ctx.Client
	if client == nil {
		return nil
	}
	if v.cancel != nil {
		v.cancel()
	}
	own, cancel := context.WithCancel(context.Background())
	v.cancel, v.loading = cancel, true
	return common.StartTask(label, common.Quick, func(ctx context.Context) tea.Msg {
		ctx, stop := context.WithCancel(ctx)
		defer stop()
		defer context.AfterFunc(own, stop)()
		return fn(ctx, client)
	})
}

func (v *View) readSheets() tea.Cmd {
	ticket, t := v.reads.Next(), v.target
	return v.run("reading the sheets of "+t.Path, func(ctx context.Context, c *api.Client) tea.Msg {
		sheets, err := c.SheetDetails(ctx, t.ConfigID)
		if errors.Is(err, api.ErrUnsupported) {
			// Without sheet details, the one sheet named after the file.
			name := strings.TrimSuffix(path.Base(t.Path), path.Ext(t.Path))
			return sheetsMsg{ticket: ticket, sheets: []model.SheetDetails{{Name: name, Path: t.Path, RecordCount: -1}}}
		}
		return sheetsMsg{ticket: ticket, sheets: sheets, err: err}
	})
}

func (v *View) readPage(start int) tea.Cmd {
	if v.sheet >= len(v.sheets) {
		return nil
	}
	ticket, t, sheet, length := v.reads.Next(), v.target, v.sheets[v.sheet].Name, v.pageLength()
	return v.run(fmt.Sprintf("reading rows of %s from %d", t.Path, start+1), func(ctx context.Context, c *api.Client) tea.Msg {
		var rows [][]string
		columns, err := c.ReadDataPage(ctx, t.Kind, t.ConfigID, sheet, start, length, func(record []string) error {
			row := make([]string, len(record))
			for i, cell := range record {
				if len(cell) > maxCell {
					cell = cell[:maxCell]
				}
				row[i] = strings.Clone(cell)
			}
			rows = append(rows, row)
			return nil
		})
		return pageMsg{ticket: ticket, start: start, columns: columns, rows: rows, err: err}
	})
}

// SetSize implements common.Dialog.
func (v *View) SetSize(width, height int) { v.width, v.height = width, height }

// close cancels what is read and closes the view (Update then answers no
// dialog).
func (v *View) close() tea.Cmd {
	if v.cancel != nil {
		v.cancel()
	}
	v.reads.Reset()
	v.closed = true
	return nil
}

// Update implements common.Dialog.
func (v *View) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case sheetsMsg:
		if !v.reads.Current(msg.ticket) {
			return v, nil
		}
		v.loading, v.err = false, msg.err
		v.page++
		if msg.err != nil {
			return v, nil
		}
		v.sheets, v.sheet = msg.sheets, 0
		return v, v.readPage(0)
	case pageMsg:
		if !v.reads.Current(msg.ticket) {
			return v, nil
		}
		v.loading, v.err = false, msg.err
		v.page++
		if msg.err == nil {
			v.start, v.columns, v.rows, v.cursor = msg.start, msg.columns, msg.rows, 0
			v.col = min(v.col, max(0, len(v.columns)-1))
			v.measure()
		}
		return v, nil
	case common.LoggedInMsg:
		return nil, v.close()
	case tea.KeyPressMsg:
		return v.handleKey(msg)
	}
	return v, nil
}

func (v *View) handleKey(msg tea.KeyPressMsg) (common.Dialog, tea.Cmd) {
	cmd, _ := v.bindings().Handle(v.ctx, msg)
	if v.closed {
		return nil, cmd
	}
	return v, cmd
}

// bindings are the view's keys, declared once: they handle keys and make
// its help.
func (v *View) bindings() common.Bindings {
	k := v.ctx.Keys
	last := v.lastStart()
	page := v.pageLength()
	read := func(start int) func() tea.Cmd { return func() tea.Cmd { return v.readPage(start) } }
	why := func(no bool, reason string) string {
		if no {
			return reason
		}
		return ""
	}
	sheet := func(step int) func() tea.Cmd {
		return func() tea.Cmd {
			v.sheet, v.col = (v.sheet+step)%len(v.sheets), 0
			v.columns, v.rows = nil, nil
			v.page++
			return v.readPage(0)
		}
	}
	return common.Bindings{
		{Key: k.Move, Hint: 1, Column: common.NoHelp},
		{Key: k.Up, Run: func() tea.Cmd {
			if v.cursor > 0 {
				v.cursor--
				return nil
			}
			if v.start > 0 {
				return v.readPage(max(0, v.start-page))
			}
			return nil
		}},
		{Key: k.Down, Run: func() tea.Cmd { v.cursor = min(v.cursor+1, max(0, len(v.rows)-1)); return nil }},
		{Key: k.PageDown, Help: "next rows", Run: read(v.start + page), Hint: 2,
			Disabled: why(len(v.rows) < page || (last >= 0 && v.start >= last), "these are the last rows")},
		{Key: k.PageUp, Help: "previous rows", Run: read(max(0, v.start-page)), Hint: 3, Disabled: why(v.start == 0, "these are the first rows")},
		{Key: k.Top, Help: "first rows", Run: read(0)},
		{Key: k.Bottom, Help: "last rows", Run: read(last), Disabled: why(last < 0, "the platform does not say how many rows there are")},
		{Key: k.Open, Help: "scroll right", Run: func() tea.Cmd { v.col = min(v.col+1, max(0, len(v.columns)-1)); return nil }, Hint: 4, Column: 1},
		{Key: k.Close, Help: "scroll left", Run: func() tea.Cmd { v.col = max(0, v.col-1); return nil }, Hint: 5, Column: 1},
		{Key: k.NextSection, Help: "next sheet", Run: sheet(1), Hint: 6, Column: 1, Disabled: why(len(v.sheets) < 2, "one sheet only")},
		{Key: k.PrevSection, Help: "previous sheet", Run: sheet(len(v.sheets) - 1), Column: 1, Disabled: why(len(v.sheets) < 2, "one sheet only")},
		{Key: k.Refresh, Run: v.readSheets, Column: 1},
		{Key: k.Back, Help: "close", Run: v.close, Hint: 7, Column: 1},
		{Key: k.Quit, Help: "close", Run: v.close, Column: common.NoHelp},
	}
}

// records is the sheet's record count, -1 when unknown.
func (v *View) records() int64 {
	if v.sheet >= len(v.sheets) {
		return -1
	}
	return v.sheets[v.sheet].RecordCount
}

// lastStart is where the last page starts, -1 when the count is unknown.
func (v *View) lastStart() int {
	n := v.records()
	if n < 0 {
		return -1
	}
	return max(0, int(n-1)/v.pageLength()*v.pageLength())
}

// measure sizes the columns to the page's widest cell, bounded.
func (v *View) measure() {
	v.widths = make([]int, len(v.columns))
	for i, c := range v.columns {
		v.widths[i] = min(maxColumnWidth, max(3, ansi.StringWidth(common.Clean(c))))
	}
	for _, row := range v.rows {
		for i, cell := range row {
			if i < len(v.widths) {
				v.widths[i] = min(maxColumnWidth, max(v.widths[i], ansi.StringWidth(common.Clean(cell))))
			}
		}
	}
}
