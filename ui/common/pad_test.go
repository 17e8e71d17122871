package common

import "testing"

func TestPadRight(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"ab", 4, "ab  "},
		{"abcd", 4, "abcd"},
		{"abcdef", 4, "abcdef"},
		{"▦ é", 5, "▦ é  "},
		{"\x1b[1mab\x1b[m", 3, "\x1b[1mab\x1b[m "},
		{"", 0, ""},
		{"a", -1, "a"},
	}
	for _, tt := range tests {
		if got := PadRight(tt.s, tt.w); got != tt.want {
			t.Errorf("PadRight(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}
