package common

import (
	"os"
	"path/filepath"
	"testing"
)

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

func TestAlign(t *testing.T) {
	tests := []struct {
		s           string
		w           int
		left, right string
	}{
		{"ab", 4, "ab  ", "  ab"},
		{"abcd", 4, "abcd", "abcd"},
		{"abcdef", 4, "abc…", "abc…"},
		{"▦ é", 5, "▦ é  ", "  ▦ é"},
		{"", 0, "", ""},
	}
	for _, tt := range tests {
		if got := AlignLeft(tt.s, tt.w); got != tt.left {
			t.Errorf("AlignLeft(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.left)
		}
		if got := AlignRight(tt.s, tt.w); got != tt.right {
			t.Errorf("AlignRight(%q, %d) = %q, want %q", tt.s, tt.w, got, tt.right)
		}
	}
}

func TestExpandHome(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory")
	}
	tests := []struct{ in, want string }{
		{"~", home},
		{"~/backups/Data.zip", filepath.Join(home, "backups/Data.zip")},
		{"./Data.zip", "./Data.zip"},
		{"~other/Data.zip", "~other/Data.zip"},
		{"/tmp/~/x.zip", "/tmp/~/x.zip"},
	}
	for _, tt := range tests {
		if got := ExpandHome(tt.in); got != tt.want {
			t.Errorf("ExpandHome(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
