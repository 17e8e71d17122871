package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// TestFirstFrameTakesTheEarlyRootRead: the root folder read before the
// program started is the tree's first answer (a folder made after that
// read does not show), and a refresh reads anew.
func TestFirstFrameTakesTheEarlyRootRead(t *testing.T) {
	c := startConsole(t, consoleOpts{started: func(ctx *common.Context) {
		read := make(chan struct{})
		ctx.FirstRoot = common.StartEarly(context.Background(), func(rctx context.Context) (model.Folder, error) {
			defer close(read)
			return ctx.Client.RootFolder(rctx)
		})
		<-read
		if _, err := ctx.Client.CreateFolder(context.Background(), api.Path("/"), "MadeLater"); err != nil {
			t.Fatal(err)
		}
	}})
	if screen := c.waitFor("Exports/"); strings.Contains(screen, "MadeLater") {
		t.Fatalf("the first tree shows a folder made after the early read:\n%s", screen)
	}
	c.keys("r")
	c.waitFor("MadeLater/")
}

// TestFailedEarlyRootReadIsToldAndRetried: a root folder read that failed
// before the program started is told in the status line as the tree's
// first read failing, and a refresh reads the tree anew.
func TestFailedEarlyRootReadIsToldAndRetried(t *testing.T) {
	c := startConsole(t, consoleOpts{started: func(ctx *common.Context) {
		ctx.FirstRoot = common.StartEarly(context.Background(), func(context.Context) (model.Folder, error) {
			return model.Folder{}, errors.New("connection refused")
		})
	}})
	c.waitFor("reading the root folder: connection refused")
	c.keys("r")
	c.waitFor("Exports/")
}
