package connections

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

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

// foreign tells the messages the pane does not handle itself (status
// lines, dialogs, messages for the root); uitest.Run keeps them for the test.
func foreign(msg tea.Msg) bool {
	switch msg.(type) {
	case listMsg, typesMsg, detailsMsg, levelMsg, editLoadedMsg, savedMsg, createdMsg,
		deleteCheckMsg, deleteMsg, deletedMsg, createMsg, newKindMsg:
		return false
	}
	return true
}
