package model

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Clean makes a string from a server safe to draw: every character that
// would act on the terminal instead of showing (C0 and C1 controls, ESC and
// so every escape sequence, DEL) is shown in caret or <XX> notation, and
// the bidirectional controls that reorder what follows them (U+202E and its
// kin) as <U+XXXX>; bytes that are not UTF-8 become U+FFFD. A name, a path,
// a description, a reason or a state from a hostile server then cannot
// open a hyperlink, set the title, move the cursor or rewrite the line.
// Strings with none of these come back as they are, without allocating.
func Clean(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || IsTerminalControl(r) {
			return clean(s, i)
		}
		i += size
	}
	return s
}

// clean is Clean's slow path, from the first byte at i that may need it.
func clean(s string, i int) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 0x40)
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, "<%02X>", r)
		case IsTerminalControl(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
