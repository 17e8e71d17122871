package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

const benchSize = 10_000

// fill creates n files in one transaction, made by create(i).
func fill(b *testing.B, st *store.Store, n int, create func(i int) store.NewFile) {
	b.Helper()
	err := st.InTx(context.Background(), func(tx *store.Tx) error {
		for i := range n {
			if _, err := tx.CreateFile(context.Background(), create(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// benchGet reads path as each user over HTTP, b.N times per user.
func benchGet(b *testing.B, p *platform, path string, users ...string) {
	for _, user := range users {
		b.Run(user, func(b *testing.B) {
			req, _ := http.NewRequest(http.MethodGet, p.base+path, nil)
			req.SetBasicAuth(user, user)
			b.ReportAllocs()
			for b.Loop() {
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
				b.SetBytes(n)
			}
		})
	}
}

func BenchmarkReadFolder10000Subfolders(b *testing.B) {
	srv, p := demo(b)
	fill(b, srv.Store(), 1+benchSize, func(i int) store.NewFile {
		if i == 0 {
			return store.NewFile{Path: "/Data/Big", OwnerID: 1}
		}
		return store.NewFile{Path: fmt.Sprintf("/Data/Big/folder %05d", i), OwnerID: 1}
	})
	big, _ := srv.Store().FileByPath(context.Background(), "/Data/Big")
	benchGet(b, p, folderPath(big.ID), "admin", "viewer")
}

func BenchmarkListConnections10000(b *testing.B) {
	srv, p := demo(b)
	fill(b, srv.Store(), benchSize, func(i int) store.NewFile {
		return store.NewFile{Path: fmt.Sprintf("/Data/Connections/conn %05d.dst", i), OwnerID: 1,
			Config: &model.Configuration{Version: "2.1", File: model.FileInfo{Description: "bench"},
				Properties: map[string][]string{model.PropConnectionURL: {"jdbc:sqlite:/tmp/x.db"}}}}
	})
	benchGet(b, p, "/rest/connections", "admin", "viewer")
}
