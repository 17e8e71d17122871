package restoreplan

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// bigArchive is n connections in one folder, as a backup holds them.
func bigArchive(b testing.TB, folder string, n int) []byte {
	b.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		name := fmt.Sprintf("c%05d", i)
		w, err := zw.Create(name + ".dst")
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(w, `{"version":"2.1","className":"datameer.dap.common.entity.DataBaseConnection","file":{"uuid":%q,"path":"%s/%s.dst","description":"","name":%q},"typeId":"das.JdbcDataStoreType","properties":{"key.connectionUrl":["jdbc:mysql://db.example.com:3306/world"],"user_name":["extuser"]},"dbType":{"name":"MySQL"}}`,
			uuid.NewString(), folder, name, name)
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkPlan10k plans the restore of a 10,000-file archive into the
// folder that holds those 10,000 files (every entry unchanged): the reads
// of the target (one backup of the root, the users, the groups) and the
// plan itself. Issue 29 asks for at most 2 s.
func BenchmarkPlan10k(b *testing.B) {
	b.ReportAllocs()
	const n = 10_000
	p := servertest.Start(b, server.Config{DemoData: true}, nil)
	client := api.New(p.URL, "admin", "admin")
	ctx := context.Background()
	body := bigArchive(b, "/Big", n)
	if _, err := client.Restore(ctx, api.Path("/Big"), bytes.NewReader(body), int64(len(body)), 0, nil); err != nil {
		b.Fatal(err)
	}
	archive, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		target, err := ReadTarget(ctx, client, api.Path("/Big"))
		if err != nil {
			b.Fatal(err)
		}
		plan, err := Compute(archive, target, Options{Flags: api.RestoreOverwrite, SkipUnchanged: true})
		if err != nil {
			b.Fatal(err)
		}
		if got := plan.Count(Unchanged); got != n {
			b.Fatalf("%d unchanged of %d: %+v", got, n, plan.Files[:3])
		}
	}
}
