package ui

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/ui/common"
)

// commandArgs are arguments that make each : command act on something real.
var commandArgs = map[string]string{
	"trigger": "/Data/ImportJobs/Orders.imp", "stop": "/Data/ImportJobs/Events.imp", "seq": "/Data/ImportJobs/Orders.imp",
	"history": "/Data/ImportJobs/Orders.imp", "details": "1", "interval": "1s", "cd": "/Data/Connections",
}

// TestReadOnlyReachesTheServerWithNoWrite walks a read-only console through
// every key of the key map in every pane, each followed by the keys that
// accept a confirmation or a form, and through every : command with an
// argument, against a server that records writes: it records none. The
// reproduction: --read-only disabled t, but :trigger, :stop and :seq still
// reached the server.
func TestReadOnlyReachesTheServerWithNoWrite(t *testing.T) {
	t.Chdir(t.TempDir()) // a backup the walk starts is written here
	var rec servertest.WriteRecorder
	c := startConsole(t, consoleOpts{readOnly: true, width: 120, height: 40, wrap: rec.Wrap,
		panes: ownModels})
	c.waitFor("Data")
	accept := []string{"y", "enter", "esc", "esc"}
	for _, pane := range []string{"1", "2", "3"} {
		for _, k := range walkedKeys() {
			c.keys("esc", pane, "j", k)
			c.keys(accept...)
		}
		c.screen() // every key handled before the next pane
	}
	m := New(Options{Context: common.NewContext(nil, "", "", "", true), HeartbeatOff: true})
	for _, cmd := range m.commands {
		if cmd.Name == "q" || cmd.Name == "quit" {
			continue
		}
		c.keys("esc", ":")
		c.typeText(strings.TrimSpace(cmd.Name + " " + commandArgs[cmd.Name]))
		c.keys("enter")
		c.keys(accept...)
		if cmd.Name == "trigger" {
			c.waitFor("read-only")
		}
	}
	c.screen()
	if writes := rec.Writes(); len(writes) > 0 {
		t.Fatalf("a read-only console sent %d write(s): %v", len(writes), writes)
	}
}

// walkedKeys are the keys of every binding of the key map but quit.
func walkedKeys() []string {
	keys := common.DefaultKeyMap()
	v := reflect.ValueOf(keys).Elem()
	var out []string
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok || v.Type().Field(i).Name == "Quit" {
			continue
		}
		for _, k := range b.Keys() {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}
