package common

import "testing"

func TestFitterMatchesFit(t *testing.T) {
	tests := []struct {
		s    string
		w, h int
		want string
	}{
		{"ab\ncd", 4, 3, "ab\ncd\n"},
		{"abcdef\nxy", 3, 2, "abc\nxy"},
		{"a\nb\nc", 2, 2, "a\nb"},
		{"\x1b[1mabcdef\x1b[m", 2, 1, "\x1b[1mab\x1b[m"},
		{"日本語", 4, 1, "日本"},
		{"", 3, 1, ""},
	}
	var f Fitter
	for range 3 { // the second and third rounds answer from the memory
		for _, tt := range tests {
			if got := Fit(tt.s, tt.w, tt.h); got != tt.want {
				t.Errorf("Fit(%q, %d, %d) = %q, want %q", tt.s, tt.w, tt.h, got, tt.want)
			}
			if got := f.Fit(tt.s, tt.w, tt.h); got != tt.want {
				t.Errorf("Fitter.Fit(%q, %d, %d) = %q, want %q", tt.s, tt.w, tt.h, got, tt.want)
			}
			if got := f.Fit(tt.s, tt.w, tt.h); got != tt.want {
				t.Errorf("Fitter.Fit(%q, %d, %d) again = %q, want %q", tt.s, tt.w, tt.h, got, tt.want)
			}
		}
	}
}
