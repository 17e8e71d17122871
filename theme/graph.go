package theme

import "os"

// GraphSymbols draw the connections pane: one symbol per kind of file, so a
// dependency tree reads without colour, the guides of the tree, and the
// marks for hidden connections, repeated nodes and masked secrets.
type GraphSymbols struct {
	// Kinds holds each kind's glyph, keyed by its model.Kind, as the tree
	// shows it (see kindSymbols); Other marks a kind not in it.
	Kinds map[string]string
	Other string

	// Branch and Last start a node's line; Pipe and Space continue the
	// column of an ancestor that has (or has no) siblings below.
	Branch, Last, Pipe, Space string

	Downstream, Upstream string // section headings
	Repeat               string // a node already drawn elsewhere in the graph
	Hidden               string // a hidden /.system/ connection
	Masked               string // a secret's value, always the same length
	SortUp, SortDown     string
}

// UnicodeGraph uses line-drawing characters.
var UnicodeGraph = GraphSymbols{
	Kinds: kindGlyphs(false), Other: "?",
	Branch: "├─ ", Last: "└─ ", Pipe: "│  ", Space: "   ",
	Downstream: "▼", Upstream: "▲",
	Repeat: "↺", Hidden: "⊘", Masked: "••••••••",
	SortUp: "▲", SortDown: "▼",
}

// ASCIIGraph is the fallback for terminals without line drawing
// (DAP_ASCII=1).
var ASCIIGraph = GraphSymbols{
	Kinds: kindGlyphs(true), Other: "?",
	Branch: "|- ", Last: "`- ", Pipe: "|  ", Space: "   ",
	Downstream: "v", Upstream: "^",
	Repeat: "(again)", Hidden: "h", Masked: "********",
	SortUp: "^", SortDown: "v",
}

// asciiRequested is read once: DAP_ASCII set to anything asks for ASCIIGraph.
var asciiRequested = os.Getenv("DAP_ASCII") != ""

// Kind returns a kind's glyph.
func (g GraphSymbols) Kind(kind string) string {
	if s, ok := g.Kinds[kind]; ok {
		return s
	}
	return g.Other
}

// Graph returns the graph symbols the terminal can show.
func Graph() GraphSymbols {
	if asciiRequested {
		return ASCIIGraph
	}
	return UnicodeGraph
}
