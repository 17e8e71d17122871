package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
	"github.com/google/uuid"
)

// TestFileBatchIDs: the id fileBatch.add gives a file is the id the file
// has once inserted, across flushes and after the newest file was deleted
// (AUTOINCREMENT never gives an id twice), and a file created after the
// batch takes the next one.
func TestFileBatchIDs(t *testing.T) {
	st, folder := batchStore(t)
	ctx := context.Background()
	newest, err := st.CreateFile(ctx, NewFile{Path: "/Deleted"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteFile(ctx, newest); err != nil {
		t.Fatal(err)
	}
	given := map[string]int64{}
	err = st.InTx(ctx, func(tx *Tx) error {
		batch := tx.cached().NewFileBatch()
		for i := range 2*batchRows + 3 {
			row := testRow(folder, fmt.Sprintf("File %03d.dst", i))
			if given[row.path], err = batch.add(ctx, row); err != nil {
				return err
			}
		}
		return batch.Flush(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
	var highest int64
	for path, id := range given {
		f, err := st.FileByPath(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if f.ID != id || id <= newest.ID {
			t.Errorf("%s: given id %d, inserted as %d (the deleted newest file had %d)", path, id, f.ID, newest.ID)
		}
		highest = max(highest, id)
	}
	after, err := st.CreateFile(ctx, NewFile{Path: "/After"})
	if err != nil {
		t.Fatal(err)
	}
	if after.ID != highest+1 {
		t.Errorf("a file made after the batch has id %d, want %d", after.ID, highest+1)
	}
}

// TestFileBatchNamesTheFailingFile: a statement of many rows that fails
// is told by the path of the row that fails, and leaves none of them.
func TestFileBatchNamesTheFailingFile(t *testing.T) {
	st, folder := batchStore(t)
	ctx := context.Background()
	if _, err := st.CreateFile(ctx, NewFile{Path: "/Batch/File 007.dst", Config: &model.Configuration{}}); err != nil {
		t.Fatal(err)
	}
	err := st.InTx(ctx, func(tx *Tx) error {
		batch := tx.cached().NewFileBatch()
		for i := range 10 {
			if _, err := batch.add(ctx, testRow(folder, fmt.Sprintf("File %03d.dst", i))); err != nil {
				return err
			}
		}
		return batch.Flush(ctx)
	})
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), "/Batch/File 007.dst") {
		t.Fatalf("error %v, want ErrExists naming /Batch/File 007.dst", err)
	}
	if _, err := st.FileByPath(ctx, "/Batch/File 000.dst"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a file of the failed batch stayed: %v", err)
	}
}

// batchStore opens a new store with a folder /Batch.
func batchStore(t *testing.T) (*Store, File) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	folder, err := st.CreateFile(context.Background(), NewFile{Path: "/Batch"})
	if err != nil {
		t.Fatal(err)
	}
	return st, folder
}

func testRow(folder File, name string) fileRow {
	return fileRow{parentID: folder.ID, path: folder.Path + "/" + name, name: name, kind: model.KindConnection,
		uuid: uuid.NewString(), config: "{}"}
}
