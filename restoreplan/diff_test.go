package restoreplan

import (
	"archive/zip"
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// TestDiff: a backup of /Data/Connections against the folder after one
// connection was changed (its description and its password), one deleted
// and one created: changed with the fields, the secret only named; added;
// removed. The same backup against the folder as it was: no change.
func TestDiff(t *testing.T) {
	p := servertest.Start(t, server.Config{DemoData: true}, nil)
	client := api.New(p.URL, "admin", "admin")
	ctx := context.Background()
	src := backupOf(t, client, "/Data/Connections", 0)
	var b bytes.Buffer
	if err := copyWithout(&b, &zip.Reader{File: src.files}, nil); err != nil {
		t.Fatal(err)
	}
	archive, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	diff := func() []Change {
		t.Helper()
		target, err := ReadTarget(ctx, client, api.Path("/Data/Connections"))
		if err != nil {
			t.Fatal(err)
		}
		changes, err := Diff(archive, target)
		if err != nil {
			t.Fatal(err)
		}
		return changes
	}
	if changes := diff(); len(changes) != 0 {
		t.Fatalf("the folder as it was backed up: %+v", changes)
	}

	conn, err := client.Connection(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}
	conn.File.Description = "changed"
	conn.Properties["password"] = []string{"dap-test-pw-new"}
	if err := client.UpdateConnection(ctx, 4, conn); err != nil {
		t.Fatal(err)
	}
	if err := client.DeleteConnection(ctx, 6); err != nil {
		t.Fatal(err)
	}
	conn.File.Path, conn.File.Name, conn.File.UUID = "/Data/Connections/New.dst", "New", ""
	if _, err := client.CreateConnection(ctx, conn); err != nil {
		t.Fatal(err)
	}

	changes := diff()
	var got []string
	for _, c := range changes {
		got = append(got, c.Change+" "+c.Path)
	}
	want := []string{"changed /Data/Connections/MYSQL_QA1.dst", "removed /Data/Connections/New.dst", "added /Data/Connections/Partner SFTP.dst"}
	if !slices.Equal(got, want) {
		t.Fatalf("diff %v, want %v", got, want)
	}
	var fields []string
	for _, f := range changes[0].Fields {
		fields = append(fields, f.Field)
		if f.Secret && (f.Archive != "" || f.Live != "") {
			t.Errorf("a secret's values shown: %+v", f)
		}
		if strings.Contains(f.Archive+f.Live, "dap-test-pw") {
			t.Errorf("the password shown: %+v", f)
		}
	}
	if !slices.Equal(fields, []string{"file.description", "properties.password[0]"}) || !changes[0].Fields[1].Secret ||
		changes[0].Fields[0].Archive != `"MySQL Connection"` || changes[0].Fields[0].Live != `"changed"` {
		t.Errorf("fields %+v", changes[0].Fields)
	}
}
