package lenient_test

import (
	"testing"

	"github.com/dapconsole/dapconsole/server/lenient"
)

func TestRetype(t *testing.T) {
	tests := []struct {
		name, body string
		end        int
		want       lenient.Type
		out        string
		ok         bool
	}{
		{"number as a name", `{"owner":12}`, 11, lenient.String, `{"owner":"12"}`, true},
		{"number in a list of tags", `{"tags":["a",2019,true]}`, 17, lenient.String, `{"tags":["a","2019",true]}`, true},
		{"boolean as a string", `{"tags":["a","2019",true]}`, 24, lenient.String, `{"tags":["a","2019","true"]}`, true},
		{"exponent", `{"owner":-1.5e+3}`, 16, lenient.String, `{"owner":"-1.5e+3"}`, true},
		{"string as a number", `{"n":"12"}`, 9, lenient.Number, `{"n":12}`, true},
		{"string as a boolean", `{"b":"true"}`, 11, lenient.Bool, `{"b":true}`, true},
		{"a string that is no number", `{"n":"12a"}`, 10, lenient.Number, `{"n":"12a"}`, false},
		{"a string that is no boolean", `{"b":"yes"}`, 10, lenient.Bool, `{"b":"yes"}`, false},
		{"a number wanted as a boolean", `{"b":"1"}`, 8, lenient.Bool, `{"b":"1"}`, false},
		{"an object is no scalar", `{"o":{}}`, 7, lenient.String, `{"o":{}}`, false},
		{"out of range", `{}`, 9, lenient.String, `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, ok := lenient.Retype([]byte(tt.body), tt.end, tt.want)
			if string(out) != tt.out || ok != tt.ok {
				t.Fatalf("Retype(%s, %d) = %s, %v; want %s, %v", tt.body, tt.end, out, ok, tt.out, tt.ok)
			}
		})
	}
}
