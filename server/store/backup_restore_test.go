package store

import (
	"strings"
	"testing"
)

// TestEntryUUID: an entry's UUID gives back its text lower-cased, and two
// compare equal exactly when those texts are equal, whether they are kept
// as bytes or as text.
func TestEntryUUID(t *testing.T) {
	texts := []string{
		"", "5b0c8a7e-1c1d-4c1e-9c1f-000000000001", "5B0C8A7E-1C1D-4C1E-9C1F-000000000001",
		"00000000-0000-0000-0000-000000000000", "5b0c8a7e-1c1d-4c1e-9c1f-0000000000ff",
		"urn:uuid:5b0c8a7e-1c1d-4c1e-9c1f-000000000001", "{5b0c8a7e-1c1d-4c1e-9c1f-000000000001}",
		"5b0c8a7e1c1d4c1e9c1f000000000001", "not a uuid", "5b0c8a7e-1c1d-4c1e-9c1f-00000000000g",
	}
	for _, a := range texts {
		u := newEntryUUID(a)
		if u.String() != strings.ToLower(a) || u.none() != (a == "") {
			t.Errorf("%q kept as %q (none %v)", a, u.String(), u.none())
		}
		for _, b := range texts {
			v := newEntryUUID(b)
			if same := strings.EqualFold(a, b); (u.compare(v) == 0) != same || u.compare(v) != -v.compare(u) {
				t.Errorf("%q and %q compare %d and %d", a, b, u.compare(v), v.compare(u))
			}
		}
	}
}
