package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/google/uuid"
)

// floorFiles is how many files BenchmarkInsertFloor inserts, as many as
// the 10,000-file restore of the server's BenchmarkRestore makes.
const floorFiles = 10_000

// BenchmarkInsertFloor inserts 10,000 files into a new database in one
// transaction as a restore's writer does at its best: rows checked and
// encoded beforehand, ids and UUIDs given, nothing read back. It is the
// floor under a restore of as many files with this storage (SQLite
// through database/sql), to hold BenchmarkRestore against: rows=1 runs
// one statement per file, rows=batch the restore's fileBatch.
func BenchmarkInsertFloor(b *testing.B) {
	for _, batched := range []bool{false, true} {
		b.Run(map[bool]string{false: "rows=1", true: "rows=batch"}[batched], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				st, rows := floorStore(b)
				b.StartTimer()
				err := st.InTx(context.Background(), func(tx *Tx) error {
					return insertFloorRows(tx.cached(), rows, batched)
				})
				b.StopTimer()
				st.Close()
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(floorFiles)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// floorStore opens a new store holding the folders of the floor's files,
// and returns the rows of those files: 100 folders of 100 connections,
// their representations as BenchmarkRestore's project stores them.
func floorStore(b *testing.B) (*Store, []fileRow) {
	st, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	owner, err := st.CreateUser(ctx, "admin", "", true)
	if err != nil {
		b.Fatal(err)
	}
	root, err := st.CreateFile(ctx, NewFile{Path: "/Restored", OwnerID: owner.ID})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]fileRow, 0, floorFiles)
	for d := range floorFiles / 100 {
		folder, err := st.CreateFile(ctx, NewFile{Path: fmt.Sprintf("%s/Team %02d", root.Path, d), OwnerID: owner.ID})
		if err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			cfg := model.Configuration{Version: "2.1", ClassName: "datameer.dap.common.entity.DataBaseConnection", TypeID: "das.JdbcDataStoreType",
				File: model.FileInfo{Description: fmt.Sprintf("Warehouse replica %d of team %d", i, d)},
				Properties: map[string][]string{
					model.PropConnectionURL: {fmt.Sprintf("jdbc:postgresql://db%02d.example.com:5432/warehouse_%03d", d, i)},
					model.PropUserName:      {fmt.Sprintf("reader_%02d_%03d", d, i)}, model.PropPassword: {"s3cret-" + fmt.Sprint(i)},
					model.PropDataStoreTemplate: {"false"}, model.PropDataStoreUsage: {"IMPORT_EXPORT"},
				}, DBType: &model.DBType{Name: "PostgreSQL"}}
			stored, err := st.encodeConfig(cfg, model.KindConnection, nil)
			if err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("Replica %03d.dst", i)
			rows = append(rows, fileRow{parentID: folder.ID, path: folder.Path + "/" + name, name: name, kind: model.KindConnection,
				uuid: uuid.NewString(), configID: int64(len(rows) + 1000), owner: owner.ID, others: folder.Others,
				description: stored.description, config: stored.json})
		}
	}
	return st, rows
}

// insertFloorRows inserts rows through a fileBatch, or one statement each.
func insertFloorRows(q Queries, rows []fileRow, batched bool) error {
	ctx := context.Background()
	if !batched {
		for _, row := range rows {
			if _, err := q.q.ExecContext(ctx, insertFiles+fileRowParams, row.appendArgs(nil)...); err != nil {
				return err
			}
		}
		return nil
	}
	batch := q.NewFileBatch()
	for _, row := range rows {
		if _, err := batch.add(ctx, row); err != nil {
			return err
		}
	}
	return batch.Flush(ctx)
}
