package archive_test

import (
	"bytes"
	"compress/flate"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/server/archive"
	"github.com/dapconsole/dapconsole/server/archive/archivetest"
)

// inflate reads a deflate stream back with compress/flate.
func inflate(t testing.TB, deflated []byte) []byte {
	t.Helper()
	got, err := io.ReadAll(flate.NewReader(bytes.NewReader(deflated)))
	if err != nil {
		t.Fatalf("inflate: %v", err)
	}
	return got
}

func TestDeflateFixedReadsBack(t *testing.T) {
	random := make([]byte, 5000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	every := make([]byte, 256)
	for i := range every {
		every[i] = byte(i)
	}
	// Far matches: a random block, 30,000 bytes of filler, the block again.
	far := append(append(append([]byte{}, random[:300]...), bytes.Repeat([]byte{'x', 'y', 'z'}, 10_000)...), random[:300]...)
	cases := map[string][]byte{
		"empty":                {},
		"one byte":             {'a'},
		"shorter than a match": []byte("abc"),
		"every byte value":     every,
		"long run":             bytes.Repeat([]byte{'a'}, 1000),
		"repeated phrase":      []byte(strings.Repeat("warehouse replica ", 300)),
		"connection":           []byte(archivetest.Connection),
		"random":               random,
		"far matches":          far,
		"beyond the window":    bytes.Repeat(random[:4000], 20),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if got := inflate(t, archive.DeflateFixed(src)); !bytes.Equal(got, src) {
				t.Fatalf("read back %d bytes differing from the %d written", len(got), len(src))
			}
		})
	}
	if small := archive.DeflateFixed([]byte(archivetest.Connection)); len(small) >= len(archivetest.Connection) {
		t.Errorf("a connection's JSON deflates to %d bytes, no fewer than its %d", len(small), len(archivetest.Connection))
	}
}

func FuzzDeflateFixed(f *testing.F) {
	f.Add([]byte(archivetest.Connection))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, src []byte) {
		if got := inflate(t, archive.DeflateFixed(src)); !bytes.Equal(got, src) {
			t.Fatalf("read back %q, want %q", got, src)
		}
	})
}
