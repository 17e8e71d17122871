package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
)

// plainSecrets are the secrets TestSecretsOutsidePropertiesAreSealed
// stores outside properties; no answer and no archive may hold one.
var plainSecrets = []string{"S3-SECRET-VALUE", "AZURE-SECRET-VALUE", "OAUTH-SECRET-VALUE", "API-TOKEN-VALUE"}

// secretConnection is a connection with secrets in hadoopProperties (a key
// ending in key, one holding "account key") and in members the model does
// not know (a top-level token, a nested client secret).
func secretConnection(t *testing.T) model.Connection {
	c := newConnection("/Data/Connections/Hidden Secrets.dst", "pw")
	c.HadoopProperties = "fs.s3a.endpoint=s3.example.com\nfs.s3a.secret.key=S3-SECRET-VALUE\n" +
		"fs.azure.account.key.acct.blob.core.windows.net=AZURE-SECRET-VALUE"
	c.Extra = map[string]json.RawMessage{
		"apiToken": json.RawMessage(`"API-TOKEN-VALUE"`),
		"oauth":    json.RawMessage(`{"clientId":"dap","clientSecret":"OAUTH-SECRET-VALUE"}`),
	}
	return c
}

// holdsPlainSecret names the first plain secret in b, "" when none.
func holdsPlainSecret(b []byte) string {
	for _, s := range plainSecrets {
		if bytes.Contains(b, []byte(s)) {
			return s
		}
	}
	return ""
}

var sealedValue = regexp.MustCompile(`SECURE:0:[A-Za-z0-9+/]+=*`)

// revealed is every secret of a stored configuration outside properties,
// opened with the server's key, in one string.
func revealed(t *testing.T, srv *server.Server, path string) string {
	t.Helper()
	ctx := context.Background()
	f, err := srv.Store().FileByPath(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := srv.Store().Configuration(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := json.Marshal(cfg)
	if s := holdsPlainSecret(stored); s != "" {
		t.Fatalf("%s is stored in plain text: %s", s, stored)
	}
	var out []string
	for _, sealed := range sealedValue.FindAllString(string(stored), -1) {
		plain, err := srv.Store().Secrets().Reveal(sealed)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, plain)
	}
	return strings.Join(out, " ")
}

func TestSecretsOutsidePropertiesAreSealed(t *testing.T) {
	srv, p := demo(t)
	c := secretConnection(t)
	var created model.ConnectionCreated
	p.want(p.call("admin", http.MethodPost, "/rest/connections", c), http.StatusOK, &created)
	path := c.File.Path
	wantAll := func(when string) {
		t.Helper()
		got := revealed(t, srv, path)
		for _, s := range plainSecrets {
			if !strings.Contains(got, s) {
				t.Fatalf("%s: secret %s lost; the stored secrets open to %q", when, s, got)
			}
		}
	}
	wantAll("created")

	// Every reader sees them sealed or encoded, the other lines as they are.
	for _, user := range []string{"viewer", "analyst", "admin"} {
		a := p.call(user, http.MethodGet, connectionPath(created.ConfigurationID), nil)
		p.want(a, http.StatusOK, nil)
		if s := holdsPlainSecret(a.body); s != "" {
			t.Fatalf("%s reads %s: %s", user, s, a.body)
		}
		var read model.Connection
		p.want(a, http.StatusOK, &read)
		if !strings.Contains(read.HadoopProperties, "fs.s3a.endpoint=s3.example.com\nfs.s3a.secret.key=SECURE:0:") {
			t.Fatalf("%s reads hadoopProperties %q", user, read.HadoopProperties)
		}
	}

	// An analyst may send back what they read: nothing hidden changes.
	var read model.Connection
	p.get("analyst", connectionPath(created.ConfigurationID), &read)
	read.File.Description = "edited by an analyst"
	p.want(p.call("analyst", http.MethodPut, connectionPath(created.ConfigurationID), read), http.StatusOK, nil)
	wantAll("after an analyst's read-edit-write")
	// but may not put a secret of their own there,
	changed := read
	changed.HadoopProperties = strings.Replace(read.HadoopProperties, "fs.s3a.secret.key=SECURE:0:", "fs.s3a.secret.key=guess", 1)
	p.wantFailure(p.call("analyst", http.MethodPut, connectionPath(created.ConfigurationID), changed), http.StatusForbidden, "only an administrator")
	// and a sealed value of another server's key is refused.
	foreign := read
	foreign.HadoopProperties = strings.Replace(read.HadoopProperties, "fs.s3a.secret.key=SECURE:0:", "fs.s3a.secret.key=SECURE:0:AAAA", 1)
	p.wantFailure(p.call("admin", http.MethodPut, connectionPath(created.ConfigurationID), foreign), http.StatusBadRequest, "fs.s3a.secret.key")
	wantAll("after refused writes")

	// A backup carries them sealed; a restore on this server opens them.
	body := p.backup("admin", "/Data/Connections")
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(rc)
		rc.Close()
		if s := holdsPlainSecret(raw); s != "" {
			t.Fatalf("backup entry %s holds %s", zf.Name, s)
		}
	}
	p.restore("admin", "/Data/Copy", body)
	p.restore("admin", "/Data/Copy", body, "overwrite")
	if got := revealed(t, srv, "/Data/Copy/Hidden Secrets.dst"); !strings.Contains(got, "OAUTH-SECRET-VALUE") || !strings.Contains(got, "S3-SECRET-VALUE") {
		t.Fatalf("a restored copy opens to %q", got)
	}
}

// A v2 workbook read shows its hadoopProperties secrets sealed and its
// secret members encoded.
func TestWorkbookV2ReadSealsSecrets(t *testing.T) {
	srv, p := demo(t)
	id := p.configID("/rest/workbook", "/Analytics/Sales.wbk")
	var cfg model.Configuration
	p.get("admin", configPath("/rest/workbook", id), &cfg)
	cfg.HadoopProperties = "fs.s3a.secret.key=S3-SECRET-VALUE"
	cfg.Extra = map[string]json.RawMessage{"apiToken": json.RawMessage(`"API-TOKEN-VALUE"`)}
	p.want(p.call("admin", http.MethodPut, configPath("/rest/workbook", id), cfg), http.StatusOK, nil)
	f, err := srv.Store().FileByPath(context.Background(), "/Analytics/Sales.wbk")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/workbooks/" + f.UUID, configPath("/rest/workbook", id)} {
		a := p.call("viewer", http.MethodGet, path, nil)
		p.want(a, http.StatusOK, nil)
		if s := holdsPlainSecret(a.body); s != "" || !bytes.Contains(a.body, []byte("SECURE:0:")) {
			t.Fatalf("viewer reads %s (%q): %s", path, s, a.body)
		}
	}
}
