package common

import "testing"

func TestNeedle(t *testing.T) {
	tests := []struct {
		filter, haystack string
		want             bool
	}{
		{"", "anything", true},
		{"ord", "orders.imp", true},
		{"ORD", "orders.imp", true},
		{"ord", "events.imp", false},
		{"!ord", "orders.imp", false},
		{"!ord", "events.imp", true},
		{"!", "events.imp", true},
		{"!CANCELED", "canceled", false},
	}
	for _, tt := range tests {
		if got := ParseNeedle(tt.filter).Match(tt.haystack); got != tt.want {
			t.Errorf("%q on %q: %v, want %v", tt.filter, tt.haystack, got, tt.want)
		}
	}
}
