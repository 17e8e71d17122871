package model

// IsTerminalControl reports whether r, drawn on a terminal, would act
// instead of showing: a C0 or C1 control (ESC, and so every escape
// sequence, CR, BEL…), DEL, or a bidirectional control that reorders the
// text around it (marks, embeddings, overrides such as U+202E, isolates).
// The server refuses names, paths and descriptions holding one; the console
// shows any that reach it in a visible form.
func IsTerminalControl(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// TerminalControlIn returns the first character of s that IsTerminalControl
// reports, and whether there is one.
func TerminalControlIn(s string) (rune, bool) {
	for _, r := range s {
		if IsTerminalControl(r) {
			return r, true
		}
	}
	return 0, false
}
