package lenient_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/lenient"
)

func TestStrict(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"documented owner body", `{owner:analyst}`, `{"owner":"analyst"}`},
		{"documented user body", `{username:"ana", email:"a@x.io", roles : [ANALYST]}`,
			`{"username":"ana","email":"a@x.io","roles":["ANALYST"]}`},
		{"equals separator", `{name="g",permissions=rwx}`, `{"name":"g","permissions":"rwx"}`},
		{"arrow separator", `{a=>1}`, `{"a":1}`},
		{"SetTags command", `{_type: SetTags, tags:[a,b]}`, `{"_type":"SetTags","tags":["a","b"]}`},
		{"single quotes", `{'a':'it\'s "x"'}`, `{"a":"it's \"x\""}`},
		{"semicolons", `{a:1;b:[1;2]}`, `{"a":1,"b":[1,2]}`},
		{"keywords in any case", `[TRUE,False,nUlL,truex]`, `[true,false,null,"truex"]`},
		{"numbers and not numbers", `[1,-2.5e3,01,1.,-,0x10,NaN]`, `[1,-2.5e3,"01","1.","-","0x10","NaN"]`},
		{"omitted elements", `[1,,2,]`, `[1,null,2,null]`},
		{"comments", "{a:1 # one\n, /* two */ b:2 // end\n}", `{"a":1,"b":2}`},
		{"quotes inside an unquoted value", `{a:b"c'd}`, `{"a":"b\"c'd"}`},
		{"control characters in quotes", "{\"a\":\"x\ty\"}", `{"a":"x\u0009y"}`},
		{"line continuation", "{\"a\":\"x\\\ny\"}", `{"a":"x\ny"}`},
		{"unicode escape kept", `{"a":"\u00e9\/"}`, `{"a":"\u00e9\/"}`},
		{"not an object stays what it is", `analyst`, `"analyst"`},
		{"strict JSON unchanged", `{"a": [1, "b", {"c": null}], "d": true}`, `{"a":[1,"b",{"c":null}],"d":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lenient.Strict([]byte(tt.in))
			if err != nil {
				t.Fatalf("Strict(%q): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("Strict(%q) = %s, want %s", tt.in, got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("Strict(%q) = %s is not JSON", tt.in, got)
			}
		})
	}
}

func TestStrictRefuses(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", ``, "unexpected end"},
		{"blank", " \n ", "unexpected end"},
		{"two values", `{a:1} {b:2}`, "data after the JSON value"},
		{"unterminated object", `{a:1`, "unexpected end"},
		{"missing separator", `{a 1}`, "after a name"},
		{"trailing comma in an object", `{a:1,}`, "where a name is expected"},
		{"missing value", `{a:}`, "where a value is expected"},
		{"unterminated string", `{a:'x}`, "unterminated string"},
		{"bad escape", `{a:"\x"}`, "invalid escape"},
		{"short unicode escape", `{a:"\u12"}`, "four hexadecimal"},
		{"unterminated comment", `{a:1 /* x`, "unterminated comment"},
		{"too deep", strings.Repeat("[", 10001), "nested too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lenient.Strict([]byte(tt.in))
			var syntax *lenient.SyntaxError
			if !errors.As(err, &syntax) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Strict(%q) = %s, %v; want a SyntaxError with %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// FuzzStrictKeepsJSON holds that valid JSON means the same after Strict as
// before (encoding/json reads both alike), and that whatever Strict accepts
// comes out as valid JSON.
func FuzzStrictKeepsJSON(f *testing.F) {
	for _, seed := range []string{
		`{"a":[1,2.5e-3,"x\u00e9\n",true,false,null,{}]}`, `"\ud800"`, "\"\xff\"", `[]`, `-0`,
		`{owner:analyst}`, `{a='b';c=>[1,,2]}`, "# c\n{a:1}", `[1"a"]`, `{"a":1}x`, `01`, ` 1 `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := lenient.Strict(in)
		if err == nil && !json.Valid(out) {
			t.Fatalf("Strict(%q) = %q, not JSON", in, out)
		}
		if !json.Valid(in) {
			return
		}
		if err != nil {
			t.Fatalf("Strict(%q) refused valid JSON: %v", in, err)
		}
		want, err := readNumbersAsText(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readNumbersAsText(out)
		if err != nil {
			t.Fatalf("Strict(%q) = %q: %v", in, out, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("Strict(%q) = %q: reads as %#v, want %#v", in, out, got, want)
		}
	})
}

// readNumbersAsText decodes JSON keeping numbers as their text, so numbers
// too big for a float64 compare too.
func readNumbersAsText(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
