package common

import "testing"

func TestScrollOffset(t *testing.T) {
	tests := []struct {
		name                          string
		cursor, offset, height, total int
		want                          int
	}{
		{"cursor in view stays", 5, 2, 10, 100, 2},
		{"cursor above scrolls up", 1, 4, 10, 100, 1},
		{"cursor below scrolls down", 20, 4, 10, 100, 11},
		{"list shorter than window", 3, 2, 10, 5, 0},
		{"offset past the end comes back", 99, 95, 10, 100, 90},
		{"no height keeps offset", 50, 7, 0, 100, 7},
	}
	for _, tt := range tests {
		if got := ScrollOffset(tt.cursor, tt.offset, tt.height, tt.total); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}
