package connections

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// demoClient starts the embedded platform with demo data and returns a
// client of it, as admin.
func demoClient(t testing.TB) *api.Client {
	t.Helper()
	return api.New(servertest.Start(t, server.Config{DemoData: true}, nil).URL, "admin", "admin")
}

// newTestPane returns a pane of the given size; a nil client talks to a
// port where nothing listens.
func newTestPane(client *api.Client, width, height int, readOnly bool) *Pane {
	if client == nil {
		client = api.New("http://127.0.0.1:1", "admin", "admin")
	}
	p := New(common.NewContext(client, "http://dap.test", "admin", "", readOnly))
	p.SetSize(width, height)
	return p
}

// entries makes n connections, every tenth one a system connection.
func entries(n int) []model.ConnectionEntry {
	out := make([]model.ConnectionEntry, n)
	for i := range out {
		folder := "/Data/Connections/"
		if i%10 == 0 {
			folder = systemFolder
		}
		name := fmt.Sprintf("conn-%05d", i)
		out[i] = model.ConnectionEntry{ID: int64(i + 1), Name: name, Path: folder + name + ".dst",
			Description: fmt.Sprintf("connection number %d", i)}
	}
	return out
}

// withList returns a pane holding the given connections, types known.
func withList(p *Pane, list []model.ConnectionEntry) *Pane {
	p.Update(listMsg{ticket: p.listReads.Next(), entries: list})
	types := map[int64]string{}
	for _, e := range list {
		types[e.ID] = "Jdbc MySQL"
	}
	p.Update(typesMsg{ticket: p.typeReads.Latest(), types: types})
	return p
}

// keys presses keys one by one and returns the command of the last.
func keys(p *Pane, names ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, n := range names {
		_, cmd = p.Update(uitest.Key(n))
	}
	return cmd
}

// drive feeds the messages of cmd back into the pane until nothing is left,
// as the program does, and returns the messages the pane did not own.
func drive(p *Pane, cmd tea.Cmd) []tea.Msg {
	var other []tea.Msg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, msg := range uitest.Expand(c) {
			switch msg.(type) {
			case listMsg, typesMsg, detailsMsg, levelMsg, editLoadedMsg, savedMsg, createdMsg,
				deleteCheckMsg, deleteMsg, deletedMsg, createMsg, newKindMsg:
				_, next := p.Update(msg)
				queue = append(queue, next)
			default:
				other = append(other, msg)
			}
		}
	}
	return other
}

// plain is a view as text, trailing blanks dropped.
func plain(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
