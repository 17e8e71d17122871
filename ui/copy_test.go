package ui

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
	"github.com/dapconsole/dapconsole/server/store"
	"github.com/dapconsole/dapconsole/ui/common"
)

// otherPlatform is the saved profile "other" of a test: a second embedded
// platform, whose restores it keeps to read what left the console.
type otherPlatform struct {
	client   *api.Client
	seal     func(string) string // the target's key, when the console has it
	mu       sync.Mutex
	restores [][]byte
}

func (o *otherPlatform) Names() ([]string, error) { return []string{"other"}, nil }

func (o *otherPlatform) Connect(name string) (*api.Client, func(string) string, error) {
	if name != "other" {
		return nil, nil, errors.New("no saved profile " + name)
	}
	return o.client, o.seal, nil
}

// keep records the body of every restore the platform gets.
func (o *otherPlatform) keep(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/restore") {
			body, _ := io.ReadAll(r.Body)
			o.mu.Lock()
			o.restores = append(o.restores, body)
			o.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

// startOther starts the other platform; sealed gives the console its key.
func startOther(t *testing.T, sealed bool) *otherPlatform {
	t.Helper()
	o := &otherPlatform{}
	dir := t.TempDir()
	pl := servertest.Start(t, server.Config{DataDir: dir, DemoData: true}, o.keep)
	o.client = api.New(pl.URL, "admin", "admin")
	if sealed {
		secrets, err := store.OpenSecrets(dir)
		if err != nil {
			t.Fatal(err)
		}
		o.seal = secrets.Seal
	}
	return o
}

const copiedSecret = "dap-test-copied-pw"

// TestGoldenCopyToAnotherProfile: C on /Data copies it to the platform of
// the saved profile "other". Its plan shows first and names the
// connections whose secrets only this platform opens (needs-secret); y asks
// for them, masked; the plan again; y copies. The secrets left sealed with
// the target's key (the console has it here): no plain value in what the
// target received. Nothing reached the target before the last y.
func TestGoldenCopyToAnotherProfile(t *testing.T) {
	for _, size := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", size.width, size.height), func(t *testing.T) {
			other := startOther(t, true)
			c := startConsole(t, consoleOpts{width: size.width, height: size.height,
				started: func(ctx *common.Context) { ctx.Profiles = other }})
			c.waitFor("Exports/")
			c.keys("j", "j", "j", "C")
			c.waitFor("plan the copy")
			c.keys("tab", "ctrl+u")
			c.typeText("/Copied")
			c.keys("enter")
			c.golden(c.waitFor("needs-secret"))
			c.keys("y")
			form := c.waitFor("Secrets for other")
			t.Run("Secrets", func(t *testing.T) {
				c.t = t
				c.golden(form)
			})
			c.t = t
			for range strings.Count(form, "/Data/Connections/") {
				c.typeText(copiedSecret)
				c.keys("tab")
			}
			if screen := c.screen(); strings.Contains(screen, copiedSecret) {
				t.Fatalf("a secret shows as typed:\n%s", screen)
			}
			c.keys("enter")
			t.Run("Planned", func(t *testing.T) {
				c.t = t
				c.golden(c.waitFor("would take this copy"))
			})
			c.t = t
			if len(other.restores) != 0 {
				t.Fatal("the plan sent a restore")
			}
			c.keys("y")
			c.waitFor("copied")
			if _, err := other.client.Folder(context.Background(), api.Path("/Copied/Connections")); err != nil {
				t.Fatalf("the target has no copy: %v", err)
			}
			if sent := unzipped(t, other.restores[0]); strings.Contains(sent, copiedSecret) || !strings.Contains(sent, "SECURE:0:") {
				t.Errorf("the secrets did not leave sealed")
			}
		})
	}
}

// unzipped is an archive's entries, one after another.
func unzipped(t *testing.T, body []byte) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(&all, r)
		r.Close()
	}
	return all.String()
}
