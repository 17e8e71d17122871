package lenient

import "bytes"

// Type is the JSON type a field wants, for Retype.
type Type int

const (
	String Type = iota // a number or a boolean becomes a string
	Number             // a string that holds a JSON number becomes that number
	Bool               // a string "true" or "false" becomes that boolean
)

// Retype rewrites the scalar of strict JSON (Strict's output) that ends
// just before byte end as Gson reads it for a field of the wanted type:
// Gson takes `{owner: 12}` for a name and `{"size":"12"}` for a number,
// where encoding/json refuses both (an UnmarshalTypeError, whose Offset is
// end). It reports false, changing nothing, when the scalar there is not
// one Gson would take so.
func Retype(body []byte, end int, want Type) ([]byte, bool) {
	if end <= 0 || end > len(body) {
		return body, false
	}
	if want == String {
		start := end
		for start > 0 && bytes.IndexByte([]byte("0123456789+-.eEtrufals"), body[start-1]) >= 0 {
			start--
		}
		lit := body[start:end]
		if !jsonNumber.Match(lit) && string(lit) != "true" && string(lit) != "false" {
			return body, false
		}
		return splice(body, start, end, append(append([]byte{'"'}, lit...), '"')), true
	}
	if body[end-1] != '"' {
		return body, false
	}
	// Strict writes no escapes in a number or a boolean, so the string's
	// opening quote is the nearest one before its closing one.
	start := bytes.LastIndexByte(body[:end-1], '"')
	if start < 0 {
		return body, false
	}
	inner := body[start+1 : end-1]
	ok := want == Number && jsonNumber.Match(inner) || want == Bool && (string(inner) == "true" || string(inner) == "false")
	if !ok {
		return body, false
	}
	return splice(body, start, end, inner), true
}

func splice(body []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(body)+2)
	out = append(out, body[:start]...)
	out = append(out, with...)
	return append(out, body[end:]...)
}
