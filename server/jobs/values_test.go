package jobs

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

func TestCellValue(t *testing.T) {
	cases := map[string]any{
		"":                     nil,
		"42":                   int64(42),
		"-7":                   int64(-7),
		"12.50":                12.5,
		".5":                   0.5,
		"007":                  "007",
		"0":                    int64(0),
		"0.25":                 0.25,
		"NaN":                  "NaN",
		"Inf":                  "Inf",
		"1e3":                  1000.0,
		"12abc":                "12abc",
		"north":                "north",
		"+5":                   int64(5),
		"0.":                   0.0,
		"-.5":                  -0.5,
		"1.5E+3":               1500.0,
		"0e5":                  "0e5",
		"00.5":                 "00.5",
		"+-3":                  "+-3",
		"0x10":                 "0x10",
		"1_000":                "1_000",
		"+Inf":                 "+Inf",
		"1e400":                "1e400",
		"1e":                   "1e",
		".":                    ".",
		"-":                    "-",
		"9223372036854775807":  int64(9223372036854775807),
		"-9223372036854775808": int64(-9223372036854775808),
		"9223372036854775808":  9223372036854775808.0,
		"2026-01-01 00:01:00":  "2026-01-01 00:01:00",
	}
	for in, want := range cases {
		if got := cellValue(in); got != want {
			t.Errorf("cellValue(%q) = %#v, want %#v", in, got, want)
		}
	}
}

// FuzzCellValue holds cellValue to its definition: what strconv parses
// as an integer, else as a finite decimal, with no leading zero before
// another digit and no Go digit separator (1_000 is text in data), is a
// number; anything else is text.
func FuzzCellValue(f *testing.F) {
	for _, s := range []string{"42", "-7", "12.50", ".5", "007", "0e5", "1e400", "2026-01-01", "+-1", "1e-400", "0.", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := cellValue(s), strconvCellValue(s); got != want {
			t.Errorf("cellValue(%q) = %#v, strconv says %#v", s, got, want)
		}
	})
}

func strconvCellValue(s string) any {
	if s == "" {
		return nil
	}
	if c := s[0]; !(c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
		return s
	}
	if digits := strings.TrimLeft(s, "+-"); len(digits) > 1 && digits[0] == '0' && digits[1] != '.' || strings.Contains(s, "_") {
		return s
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return s
}

func TestBindVariables(t *testing.T) {
	vals := map[string]string{"region": "north", "min": "10", "a.b": "x"}
	cases := []struct {
		name, sql, want string
		args            []any
		fails           bool
	}{
		{"none", "SELECT 1", "SELECT 1", nil, false},
		{"two", "SELECT * FROM t WHERE r = ${region} AND n > ${min}", "SELECT * FROM t WHERE r = ? AND n > ?", []any{"north", int64(10)}, false},
		{"dotted name", "SELECT ${a.b}", "SELECT ?", []any{"x"}, false},
		{"doubled quote kept", "SELECT 'it''s', ${min}", "SELECT 'it''s', ?", []any{int64(10)}, false},
		{"in a comment is left alone", "SELECT 1 -- ${region}\n", "SELECT 1 -- ${region}\n", nil, false},
		{"in a block comment is left alone", "SELECT /* ${x} */ 1", "SELECT /* ${x} */ 1", nil, false},
		{"inside a string", "SELECT '${region}'", "", nil, true},
		{"inside a quoted name", `SELECT "${region}"`, "", nil, true},
		{"unknown", "SELECT ${nope}", "", nil, true},
		{"bad name", "SELECT ${1x}", "", nil, true},
		{"unterminated", "SELECT ${region", "", nil, true},
		{"unterminated quote", "SELECT 'abc", "", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, cells, err := bindVariables(tc.sql, vals)
			var args []any
			for _, c := range cells {
				args = append(args, cellAny(c))
			}
			if tc.fails {
				if err == nil {
					t.Fatalf("bound %q, want an error", got)
				}
				return
			}
			if err != nil || got != tc.want || !reflect.DeepEqual(args, tc.args) {
				t.Errorf("got %q %#v %v, want %q %#v", got, args, err, tc.want, tc.args)
			}
		})
	}
}

func TestViewNames(t *testing.T) {
	got := viewNames([]File{{Name: "Orders 2026"}, {Name: "orders-2026"}, {Name: "2026 sales"}, {Name: "input"}})
	want := []string{"orders_2026", "orders_2026_2", "t_2026_sales", "t_input", "input1", "input2", "input3", "input4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("viewNames = %v, want %v", got, want)
	}
}

func TestMalformedRecordsOfEveryKindAreDropped(t *testing.T) {
	fx := newFixture(t, 2)
	files := map[string]string{
		"quotes.csv": "a,b\n1,2\n3,\"x\"y\n4,5\n\"6,7\n",
		"fields.csv": "a,b\n1,2\n3\n4,5,6\n7,8\n",
		"lines.jsonl": `{"a":1,"b":"x"}` + "\n" + `[1,2]` + "\n" + `{"a":2,"c":3}` + "\n" + `not json` + "\n" +
			`{"a":3,"b":{"n":1}}` + "\n\n" + `{"a":4}`,
	}
	want := map[string][2]int64{"quotes.csv": {2, 2}, "fields.csv": {2, 2}, "lines.jsonl": {3, 3}}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(fx.files, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			job := fx.importJob("/"+name+".imp", name, nil)
			id := fx.trigger(job)
			if st := fx.waitFinal(job); st.JobStatus != model.StateCompletedWithWarnings {
				t.Fatalf("status %+v", st)
			}
			c := fx.details(id).Counters
			if got := [2]int64{c[model.CounterImportRecords], c[model.CounterImportDroppedRecords]}; got != want[name] {
				t.Errorf("records and dropped %v, want %v", got, want[name])
			}
		})
	}
}

// cellValue is parseCell's cell as a Go value, to compare.
func cellValue(s string) any { return cellAny(parseCell(s)) }

func cellAny(c cell) any {
	switch c.kind {
	case integerCell:
		return c.i
	case realCell:
		return c.f
	case textCell:
		return c.s
	case blobCell:
		return c.b
	}
	return nil
}
