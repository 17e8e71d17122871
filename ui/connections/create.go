package connections

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// newKind is a kind of connection the console can create.
type newKind int

const (
	kindJDBC newKind = iota
	kindFileSystem
)

// newKinds describes each kind: what the chooser says, and the class, type
// and defaults the platform expects of it.
var newKinds = []struct {
	label, className, typeID, urlHint, usage string
}{
	kindJDBC: {"JDBC database", "datameer.dap.common.entity.DataBaseConnection", "das.JdbcDataStoreType",
		"jdbc:mysql://host:3306/db", "IMPORT_EXPORT"},
	kindFileSystem: {"file system", "datameer.dap.common.entity.DataStore", "das.FileSystemDataStoreType",
		"file:///srv/data/", "IMPORT_EXPORT"},
}

// defaultFolder is where the platform keeps connections.
const defaultFolder = "/Data/Connections"

// kindChooser asks which kind of connection to create.
type kindChooser struct {
	ctx           *common.Context
	focus         int
	width, height int
}

func newKindChooser(ctx *common.Context) *kindChooser { return &kindChooser{ctx: ctx} }

func (c *kindChooser) SetSize(width, height int) { c.width, c.height = width, height }

func (c *kindChooser) Update(msg tea.Msg) (common.Dialog, tea.Cmd) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	k := c.ctx.Keys
	switch {
	case key.Matches(press, k.Back):
		return nil, nil
	case key.Matches(press, k.Confirm):
		kind := newKind(c.focus)
		return nil, func() tea.Msg { return newKindMsg{kind: kind} }
	case key.Matches(press, k.Up, k.PrevField):
		c.focus = (c.focus + len(newKinds) - 1) % len(newKinds)
	case key.Matches(press, k.Down, k.NextField):
		c.focus = (c.focus + 1) % len(newKinds)
	}
	return c, nil
}

func (c *kindChooser) View() string {
	st := c.ctx.Styles
	lines := []string{st.DialogTitle.Render("New connection — which kind?"), ""}
	for i, kd := range newKinds {
		if i == c.focus {
			lines = append(lines, st.FieldFocused.Render(st.Symbols.Cursor+" "+kd.label))
		} else {
			lines = append(lines, "  "+kd.label)
		}
	}
	lines = append(lines, "", st.ButtonFocused.Render("enter choose")+"  "+st.Button.Render("esc cancel"))
	inner := max(10, min(40, c.width-st.Dialog.GetHorizontalFrameSize()))
	return st.Dialog.Width(inner + st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

func (c *kindChooser) ShortHelp() []key.Binding {
	k := c.ctx.Keys
	return []key.Binding{k.Move, k.Confirm, k.Back}
}

func (c *kindChooser) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }

// newConnectionForm asks for what a connection of the kind needs.
func newConnectionForm(ctx *common.Context, kind newKind) *dialog.Form {
	kd := newKinds[kind]
	fields := []dialog.Field{
		{Name: "name", Label: "name", Text: true},
		{Name: "folder", Label: "folder", Text: true, Value: defaultFolder},
		{Name: "url", Label: "URL", Text: true, Value: strings.SplitAfter(kd.urlHint, ":")[0]},
		{Name: "user", Label: "user", Text: true},
		{Name: "password", Label: "password", Text: true, Secret: true},
		{Name: "description", Label: "description", Text: true},
	}
	note := "URL like " + kd.urlHint + ". The password is sealed here with the server's key and " +
		"goes out as a SECURE: value; a SECURE:<n>:<s> value you type is sent as it is."
	if ctx.Seal == nil {
		note = "URL like " + kd.urlHint + ". This console has no key of the server's, so the password " +
			"goes in the request and the server seals it; type a SECURE:<n>:<s> value " +
			"(encrypt.sh, dapconsole encrypt) to send none in plain text."
	}
	return dialog.NewForm(ctx, "New "+kd.label+" connection", note, "create", fields,
		func(v dialog.Values) (tea.Msg, error) {
			conn, err := buildConnection(kind, v, ctx.Seal)
			if err != nil {
				return nil, err
			}
			return createMsg{conn: conn}, nil
		})
}

// buildConnection turns the form into the representation the server takes;
// seal, when not nil, turns a plain password into its SECURE: form.
func buildConnection(kind newKind, v dialog.Values, seal func(string) string) (model.Connection, error) {
	kd := newKinds[kind]
	name, folder, url := v.Text("name"), strings.TrimRight(v.Text("folder"), "/"), v.Text("url")
	switch {
	case name == "":
		return model.Connection{}, errors.New("name: give the connection a name")
	case strings.ContainsAny(name, "/\\"):
		return model.Connection{}, errors.New("name: no / or \\ in a name")
	case !strings.HasPrefix(folder, "/"):
		return model.Connection{}, errors.New("folder: a path from the root, like " + defaultFolder)
	case kind == kindJDBC && !strings.HasPrefix(url, "jdbc:"):
		return model.Connection{}, errors.New(`URL: a JDBC URL starts with "jdbc:"`)
	case kind == kindFileSystem && !strings.Contains(url, "://"):
		return model.Connection{}, errors.New("URL: a file system URL looks like file:///path/ or hdfs://host/path")
	}
	props := map[string][]string{
		model.PropConnectionURL:     {url},
		model.PropDataStoreTemplate: {"false"},
		model.PropDataStoreUsage:    {kd.usage},
	}
	if user := v.Text("user"); user != "" {
		props[model.PropUserName] = []string{user}
	}
	if password := v.Text("password"); password != "" {
		if seal != nil && !strings.HasPrefix(password, "SECURE:") {
			password = seal(password)
		}
		props[model.PropPassword] = []string{password}
	}
	conn := model.Connection{
		ClassName: kd.className, TypeID: kd.typeID, Properties: props,
		File: model.FileInfo{Name: name, Path: folder + "/" + name + model.KindConnection.Extension(),
			Description: v.Text("description")},
	}
	if kind == kindJDBC {
		if db := databaseOf(url); db != "" {
			conn.DBType = &model.DBType{Name: db}
		}
	}
	return conn, nil
}

// databaseOf names the database a JDBC URL points at, "" when unknown.
func databaseOf(url string) string {
	sub, _, _ := strings.Cut(strings.TrimPrefix(url, "jdbc:"), ":")
	names := map[string]string{"mysql": "MySQL", "mariadb": "MariaDB", "postgresql": "PostgreSQL",
		"sqlite": "SQLite", "oracle": "Oracle", "sqlserver": "SQL Server", "db2": "DB2", "h2": "H2"}
	return names[strings.ToLower(sub)]
}

// create sends a new connection. The password travels only inside this
// request; nothing of the pane keeps it.
func (p *Pane) create(msg createMsg) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	conn := msg.conn
	path := conn.File.Path
	return common.StartTask("creating "+path, common.Quick, func(ctx context.Context) tea.Msg {
		id, err := client.CreateConnection(ctx, conn)
		return createdMsg{id: id, path: path, err: err}
	})
}

func (p *Pane) gotCreated(msg createdMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("creating "+msg.path, msg.err)
	}
	p.mode = modeList
	if p.list.filter != "" {
		p.setFilter("")
	}
	return tea.Batch(common.Notify(fmt.Sprintf("created %s (configuration id %d)", msg.path, msg.id)),
		p.readList(msg.id, true), p.changed())
}
