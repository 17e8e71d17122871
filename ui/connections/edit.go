package connections

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/dialog"
)

// startEdit reads the connection, then opens it in the editor.
func (p *Pane) startEdit(id int64, path string) tea.Cmd {
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	if p.ctx.Served {
		return common.Info("editing runs $EDITOR on the server's host, which a console served over SSH never does: edit " + path + " from a console of your own")
	}
	return common.StartTask("reading "+path+" to edit", common.Quick, func(ctx context.Context) tea.Msg {
		conn, err := client.Connection(ctx, id)
		return editLoadedMsg{id: id, conn: conn, err: err}
	})
}

func (p *Pane) gotEditLoaded(msg editLoadedMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("reading the connection to edit", msg.err)
	}
	body, err := json.MarshalIndent(msg.conn, "", "  ")
	if err != nil {
		return common.Fail("editing "+msg.conn.File.Path, err)
	}
	return openEditor(msg.id, msg.conn.File.Path, string(body)+"\n", "")
}

// editHelp heads the file the editor opens.
const editHelp = `# Edit the connection and save to send it to the server; leave the file
# unchanged to cancel. Secrets are shown encoded, as the server sent them:
# leave them as they are to keep them, or replace one by a new value
# (plain text, sealed by the server, or a SECURE:<n>:<s> value).
# Lines starting with # at the top are removed before the JSON is read.
`

// openEditor opens body in the user's editor; problem, when set, is why
// the previous attempt was not saved, shown above the body.
func openEditor(id int64, path, body, problem string) tea.Cmd {
	session := &editorSession{text: editorText(body, problem)}
	return tea.Exec(session, func(err error) tea.Msg {
		return editedMsg{id: id, path: path, shown: body, edited: stripComments(session.edited), err: err, retry: problem != ""}
	})
}

// editorText is the file the editor opens: why the last attempt was not
// saved (if it was not), the help, then the body.
func editorText(body, problem string) string {
	head := editHelp
	if problem != "" {
		head = "# NOT SAVED: " + strings.ReplaceAll(problem, "\n", "\n# ") + "\n#\n" + head
	}
	return head + body
}

// editorSession runs the editor on a temporary file that only the user may
// read (it holds the connection, secrets encoded) and removes it after.
type editorSession struct {
	text           string
	edited         string
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (s *editorSession) SetStdin(r io.Reader)  { s.stdin = r }
func (s *editorSession) SetStdout(w io.Writer) { s.stdout = w }
func (s *editorSession) SetStderr(w io.Writer) { s.stderr = w }

// Run writes the file, runs the editor on it and reads it back.
func (s *editorSession) Run() error {
	f, err := os.CreateTemp("", "dapconsole-connection-*.json") // mode 0600
	if err != nil {
		return fmt.Errorf("edit: temporary file: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(s.text); err != nil {
		f.Close()
		return fmt.Errorf("edit: temporary file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("edit: temporary file: %w", err)
	}
	editor := editorCommand()
	// The shell reads the editor command as git does, so EDITOR may carry
	// arguments ("code --wait", "sed -i s/a/b/").
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "dapconsole-editor", f.Name())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.stdin, s.stdout, s.stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("editor %q: %w", editor, err)
	}
	edited, err := os.ReadFile(f.Name())
	if err != nil {
		return fmt.Errorf("edit: reading the edited file: %w", err)
	}
	s.edited = string(edited)
	return nil
}

// editorCommand is $VISUAL, else $EDITOR, else vi.
func editorCommand() string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if e := strings.TrimSpace(os.Getenv(v)); e != "" {
			return e
		}
	}
	return "vi"
}

// stripComments drops the block of # lines at the top of the file.
func stripComments(text string) string {
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			break
		}
		text = rest
	}
	return text
}

func (p *Pane) gotEdited(msg editedMsg) tea.Cmd {
	if msg.err != nil {
		return common.Fail("editing "+msg.path+" (nothing was saved)", msg.err)
	}
	if strings.TrimSpace(msg.edited) == strings.TrimSpace(msg.shown) {
		if msg.retry {
			return common.Info("edit of " + msg.path + " cancelled: the invalid edit was not saved")
		}
		return common.Info("edit of " + msg.path + " cancelled: nothing changed")
	}
	conn, err := parseEdit(msg.edited, msg.path)
	if err != nil && msg.retry {
		// The editor was reopened once already and the edit is still not
		// valid: an editor that does not wait for the user ($EDITOR set to a
		// script) would loop, so the next attempt waits for a key.
		return common.OpenDialog(dialog.NewConfirm(p.ctx, "The edit is still not valid",
			fmt.Sprintf("%s was not saved: %s\n\nOpen the editor again?", msg.path, err), "edit again", false,
			editAgainMsg{id: msg.id, path: msg.path, body: msg.edited, problem: err.Error()}))
	}
	if err != nil {
		return openEditor(msg.id, msg.path, msg.edited, err.Error())
	}
	client := p.ctx.Client
	if client == nil {
		return nil
	}
	id, path, edited := msg.id, msg.path, msg.edited
	return common.StartTask("saving "+path, common.Quick, func(ctx context.Context) tea.Msg {
		err := client.UpdateConnection(ctx, id, conn)
		return savedMsg{id: id, path: path, edited: edited, err: err}
	})
}

func (p *Pane) gotSaved(msg savedMsg) tea.Cmd {
	if api.IsBadRequest(msg.err) {
		return openEditor(msg.id, msg.path, msg.edited, common.Explain("the server refused the edit", msg.err))
	}
	if msg.err != nil {
		return common.Fail("saving "+msg.path, msg.err)
	}
	cmds := []tea.Cmd{common.Notify("saved " + msg.path), p.readList(0, true), p.changed()}
	if p.mode == modeDetails && p.details != nil && p.details.id == msg.id {
		cmds = append(cmds, p.readDetails(msg.id, msg.path))
	}
	return tea.Batch(cmds...)
}

// changed forgets what a write may have made stale, every graph, and
// reads again the one on screen.
func (p *Pane) changed() tea.Cmd {
	p.graphs = map[int64]*graph{}
	if p.graph == nil || p.mode != modeGraph {
		p.graph = nil
		return nil
	}
	g := newGraph(p.graph.connID, p.graph.path)
	p.graphs[g.connID] = g
	p.graph = g
	p.dropGraphLines()
	p.relayoutGraph()
	return p.readLevel(g)
}

// parseEdit reads an edited connection and checks its shape: valid JSON, at
// the same path, with a type and a class, and no links to other files.
// Fields the console does not know stay as they are (the real platform
// sends many), so an edit never drops them.
func parseEdit(text, path string) (model.Connection, error) {
	var conn model.Connection
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&conn); err != nil {
		return conn, fmt.Errorf("not a valid connection: %s", describeJSONError(text, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return conn, errors.New("not a valid connection: text after the closing }")
	}
	switch {
	case conn.File.Path != path:
		return conn, fmt.Errorf("file.path must stay %q: a connection cannot move", path)
	case strings.TrimSpace(conn.TypeID) == "":
		return conn, errors.New("typeId is empty")
	case strings.TrimSpace(conn.ClassName) == "":
		return conn, errors.New("className is empty")
	case len(conn.Sources) > 0 || len(conn.Links()) > 0:
		return conn, errors.New("a connection reads from no other file: remove its dataStore, sheet, sheets or sources")
	}
	for k, v := range conn.Properties {
		if len(v) == 0 {
			return conn, fmt.Errorf("property %q has no value (give it [\"…\"] or remove it)", k)
		}
	}
	return conn, nil
}

// describeJSONError says where a JSON error is and, for a value of the
// wrong type, which field wanted what.
func describeJSONError(text string, err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("%s: %v", position(text, syntax.Offset), err)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("%s: the file must hold one JSON object { … }, not %s", position(text, typ.Offset), withArticle(typ.Value))
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: %s must hold %s, not %s", position(text, typ.Offset), typ.Field, jsonKind(typ.Type), withArticle(typ.Value))
	}
	return err.Error()
}

// position names the line and column of a byte offset in the JSON.
func position(text string, offset int64) string {
	offset = max(0, min(offset, int64(len(text))))
	before := []byte(text[:offset])
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("JSON line %d, column %d (not counting the # lines)", line, col)
}

// withArticle puts "a" or "an" before a JSON kind ("an array").
func withArticle(kind string) string {
	if strings.IndexAny(kind, "aeiou") == 0 {
		return "an " + kind
	}
	return "a " + kind
}

// jsonKind names what a Go type reads from JSON.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list [ … ]"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object { … }"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return "a number"
}
