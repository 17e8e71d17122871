package common

import (
	"testing"
)

// hostile is what a hostile server sent in names, paths, descriptions and
// reasons: each reached the terminal before the console cleaned them.
var hostile = map[string]string{
	"OSC 8 hyperlink": "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
	"OSC title":       "\x1b]0;owned\x07",
	"DCS":             "\x1bP+q544e\x1b\\",
	"C1 CSI":          "\u009b2J\u009b31m",
	"CSI clear":       "\x1b[2J\x1b[H",
	"RLO":             "invoice\u202Egpj.exe",
	"CR":              "ok\rFAILED",
	"BEL and BS":      "a\x07\x08b",
	"bad UTF-8":       "a\xffb",
}

func TestCleanLeavesNoControl(t *testing.T) {
	for name, s := range hostile {
		t.Run(name, func(t *testing.T) {
			got := Clean(s)
			if Clean(got) != got {
				t.Fatalf("Clean(%q) = %q still holds a control", s, got)
			}
		})
	}
}

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Orders.imp", "Orders.imp"},
		{"Ümlaut – ok 東京", "Ümlaut – ok 東京"},
		{"\x1b[31mred", "^[[31mred"},
		{"ok\rFAILED", "ok^MFAILED"},
		{"a\tb\nc", "a^Ib^Jc"},
		{"\u009b2J", "<9B>2J"},
		{"invoice\u202Egpj.exe", "invoice<U+202E>gpj.exe"},
		{"\u2066x\u2069", "<U+2066>x<U+2069>"},
		{"a\x7fb", "a^?b"},
		{"a\xffb", "a\uFFFDb"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Clean(c.in); got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCleanDoesNotAllocateForPlainText(t *testing.T) {
	s := "/Data/ImportJobs/Orders Ümlaut.imp"
	if n := testing.AllocsPerRun(100, func() { _ = Clean(s) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func BenchmarkClean(b *testing.B) {
	s := "/Data/ImportJobs/Orders from the sample CSV.imp"
	b.ReportAllocs()
	for b.Loop() {
		_ = Clean(s)
	}
}
