package theme

// kindSymbols is the one table of the kinds of file: each kind's glyph, its
// letter for terminals without those glyphs (DAP_ASCII), and its word. The
// tree's kind column, the dependency graph, its legend and the delete
// dialog's list all draw a kind from here, so a kind looks the same
// everywhere.
var kindSymbols = map[string]struct{ glyph, ascii, word string }{
	"folder":      {"▣", "D", "folder"},
	"connection":  {"⛁", "C", "connection"},
	"import-job":  {"⇣", "I", "import"},
	"data-link":   {"⇢", "L", "data link"},
	"workbook":    {"▦", "W", "workbook"},
	"export-job":  {"⇡", "E", "export"},
	"infographic": {"◔", "G", "infographic"},
	"file-upload": {"⇧", "U", "upload"},
}

// kindGlyphs returns each kind's glyph (its letter when ascii).
func kindGlyphs(ascii bool) map[string]string {
	out := make(map[string]string, len(kindSymbols))
	for k, s := range kindSymbols {
		out[k] = s.glyph
		if ascii {
			out[k] = s.ascii
		}
	}
	return out
}

// kindLabels returns each kind's glyph and word: "⛁ connection".
func kindLabels(ascii bool) map[string]string {
	out := kindGlyphs(ascii)
	for k, g := range out {
		out[k] = g + " " + kindSymbols[k].word
	}
	return out
}
