package jobs

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Sample data files WriteSampleData creates, relative to its directory.
const (
	SampleOrders           = "orders.csv"             // 1,000 orders
	SampleOrdersWithErrors = "orders_with_errors.csv" // 100 rows, 3 of them malformed
	SampleCustomers        = "customers.jsonl"        // 200 customers
	SampleEvents           = "events.csv"             // 60,000 events, for the long demo import
	SampleWarehouse        = "warehouse.db"           // SQLite database with a products table
)

// Sizes of the sample files.
const (
	SampleOrdersRows    = 1000
	SampleCustomersRows = 200
	SampleEventsRows    = 60_000
	SampleProductsRows  = 500
	// SampleMalformedRows is how many rows of orders_with_errors.csv are malformed.
	SampleMalformedRows = 3
)

var regions = []string{"north", "south", "east", "west"}

// WriteSampleData writes the demo's sample files into dir. The content is
// the same on every call (a fixed seed), so demos and tests can count on it.
func WriteSampleData(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sample data: %w", err)
	}
	if err := WriteOrdersCSV(filepath.Join(dir, SampleOrders), SampleOrdersRows, nil); err != nil {
		return err
	}
	if err := WriteOrdersCSV(filepath.Join(dir, SampleOrdersWithErrors), 100, []int{10, 50, 90}); err != nil {
		return err
	}
	if err := writeCustomers(filepath.Join(dir, SampleCustomers)); err != nil {
		return err
	}
	if err := writeEvents(filepath.Join(dir, SampleEvents)); err != nil {
		return err
	}
	return writeWarehouse(filepath.Join(dir, SampleWarehouse))
}

// WriteOrdersCSV writes a header and rows orders; the rows whose 1-based
// numbers are in malformed get a missing field, so an import drops them.
func WriteOrdersCSV(path string, rows int, malformed []int) error {
	return writeLines(path, func(w *bufio.Writer) {
		rng := rand.New(rand.NewPCG(1, uint64(rows)))
		bad := make(map[int]bool, len(malformed))
		for _, m := range malformed {
			bad[m] = true
		}
		w.WriteString("order_id,customer_id,region,amount,ordered_at\n")
		day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := 1; i <= rows; i++ {
			w.WriteString(strconv.Itoa(i))
			w.WriteByte(',')
			w.WriteString(strconv.Itoa(1 + rng.IntN(SampleCustomersRows)))
			w.WriteByte(',')
			w.WriteString(regions[rng.IntN(len(regions))])
			if bad[i] {
				w.WriteByte('\n')
				continue
			}
			w.WriteByte(',')
			w.WriteString(strconv.FormatFloat(float64(100+rng.IntN(100000))/100, 'f', 2, 64))
			w.WriteByte(',')
			w.WriteString(day.Add(time.Duration(i) * time.Minute).Format(time.DateTime))
			w.WriteByte('\n')
		}
	})
}

func writeCustomers(path string) error {
	return writeLines(path, func(w *bufio.Writer) {
		rng := rand.New(rand.NewPCG(2, 2))
		enc := json.NewEncoder(w)
		for i := 1; i <= SampleCustomersRows; i++ {
			enc.Encode(map[string]any{
				"customer_id": i,
				"name":        fmt.Sprintf("Customer %03d", i),
				"region":      regions[rng.IntN(len(regions))],
				"since":       2015 + rng.IntN(11),
			})
		}
	})
}

func writeEvents(path string) error {
	return writeLines(path, func(w *bufio.Writer) {
		rng := rand.New(rand.NewPCG(3, 3))
		kinds := []string{"view", "click", "search", "purchase"}
		w.WriteString("event_id,customer_id,kind,duration_ms\n")
		line := make([]byte, 0, 64)
		for i := 1; i <= SampleEventsRows; i++ {
			line = strconv.AppendInt(line[:0], int64(i), 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(1+rng.IntN(SampleCustomersRows)), 10)
			line = append(line, ',')
			line = append(line, kinds[rng.IntN(len(kinds))]...)
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(rng.IntN(5000)), 10)
			line = append(line, '\n')
			w.Write(line)
		}
	})
}

func writeLines(path string, write func(*bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("sample data: %w", err)
	}
	w := bufio.NewWriter(f)
	write(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("sample data %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("sample data %s: %w", path, err)
	}
	return nil
}

// writeWarehouse creates the SQLite sample database; one statement makes
// all its rows, which keeps seeding quick even under the race detector.
func writeWarehouse(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("sample data: %w", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return fmt.Errorf("sample data %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), `
		CREATE TABLE products (product_id INTEGER PRIMARY KEY, name TEXT, category TEXT, price REAL);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO products SELECT i, printf('Product %03d', i),
			CASE (i * 7) % 4 WHEN 0 THEN 'tools' WHEN 1 THEN 'garden' WHEN 2 THEN 'kitchen' ELSE 'office' END,
			round(1 + ((i * 7919) % 9900) / 100.0, 2) FROM n`, SampleProductsRows); err != nil {
		return fmt.Errorf("sample data %s: %w", path, err)
	}
	return nil
}
