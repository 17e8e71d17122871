package server_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// BenchmarkRestoreFileConnectionsAsNonAdmin: an analyst restores, over
// itself, an archive of 2,000 file connections into a tree that holds 2,000
// other ones; each restored directory is checked against every other.
func BenchmarkRestoreFileConnectionsAsNonAdmin(b *testing.B) {
	const connections = 2_000
	_, p := demo(b)
	fileConnections := func(root string) []byte {
		files := make([]archiveFile, connections)
		for i := range files {
			name := fmt.Sprintf("C%04d", i)
			cfg := connectionConfig(name)
			cfg.Properties[model.PropConnectionURL] = []string{fmt.Sprintf("file:///srv/%s/%s/", root, name)}
			files[i] = archiveFile{path: name + ".dst", cfg: cfg}
		}
		return buildArchive(b, nil, files...)
	}
	p.restore("admin", "/Data/Existing", fileConnections("existing"))
	body := fileConnections("restored")
	p.restore("analyst", "/Analytics/Restored", body)
	b.ReportAllocs()
	for b.Loop() {
		if a := p.upload("analyst", restoreURL("/Analytics/Restored", model.FlagOverwrite), "application/zip", body); a.code != http.StatusOK {
			b.Fatalf("status %d: %s", a.code, a.body)
		}
	}
}
