package backup

import (
	"reflect"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
	"strings"
	"testing"
)

// TestEntryUUID: an entry's UUID gives back its text lower-cased, also
// after a page of entries went to disk and back, whether it is kept as
// bytes or as text.
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
		back := make([]restoreEntry, 1)
		if err := decodePage(string(encodePage(nil, []restoreEntry{{origUUID: u}})), back); err != nil || back[0].origUUID.String() != u.String() {
			t.Errorf("%q back from disk as %q (%v)", a, back[0].origUUID.String(), err)
		}
	}
}

// TestEntryPageRoundTrip: a page of entries reads back from disk as it
// was, and one cut short or longer does not read.
func TestEntryPageRoundTrip(t *testing.T) {
	odd := "not a uuid"
	entries := []restoreEntry{
		{},
		{origUUID: newEntryUUID("5b0c8a7e-1c1d-4c1e-9c1f-000000000001"), skipped: "source x cannot be resolved",
			rights: store.Rights{Write: true, Own: true}, uuidShared: true, linkedTo: true, createdID: 42, createdUUID: "u",
			formAt: 1 << 40, formLen: 612},
		{origUUID: entryUUID{other: &odd}, existing: &existingFile{id: 7, parentID: 3, ownerID: 2, uuid: "e"},
			sources: []sourceLink{{ref: model.SourceRef{Path: "/a.dst", UUID: "x"}, internal: -1,
				external: store.File{ID: 9, Path: "/a.dst", Name: "a.dst", Kind: model.KindConnection, UUID: "x", Others: model.Flags{Readable: true}}},
				{internal: 0}}, uuidTaken: true},
	}
	back := make([]restoreEntry, len(entries))
	if err := decodePage(string(encodePage(nil, entries)), back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, entries) {
		t.Errorf("back from disk:\n%+v\nwant\n%+v", back, entries)
	}
	page := string(encodePage(nil, entries))
	for _, bad := range []string{page[:len(page)-1], page + "x", ""} {
		if err := decodePage(bad, make([]restoreEntry, len(entries))); err == nil {
			t.Errorf("a page of %d bytes, not %d, reads", len(bad), len(page))
		}
	}
}
