package theme

import "os"

// GraphSymbols draw the connections pane: one symbol per kind of file, so a
// dependency tree reads without colour, the guides of the tree, and the
// marks for hidden connections, repeated nodes and masked secrets.
type GraphSymbols struct {
	Connection, ImportJob, DataLink, Workbook string
	ExportJob, Infographic, FileUpload, Other string

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
	Connection: "◉", ImportJob: "⇣", DataLink: "⇢", Workbook: "▦",
	ExportJob: "⇡", Infographic: "◔", FileUpload: "⇪", Other: "?",
	Branch: "├─ ", Last: "└─ ", Pipe: "│  ", Space: "   ",
	Downstream: "▼", Upstream: "▲",
	Repeat: "↺", Hidden: "⊘", Masked: "••••••••",
	SortUp: "▲", SortDown: "▼",
}

// ASCIIGraph is the fallback for terminals without line drawing
// (DAP_ASCII=1).
var ASCIIGraph = GraphSymbols{
	Connection: "C", ImportJob: "I", DataLink: "L", Workbook: "W",
	ExportJob: "E", Infographic: "G", FileUpload: "U", Other: "?",
	Branch: "|- ", Last: "`- ", Pipe: "|  ", Space: "   ",
	Downstream: "v", Upstream: "^",
	Repeat: "(again)", Hidden: "h", Masked: "********",
	SortUp: "^", SortDown: "v",
}

// asciiRequested is read once: DAP_ASCII set to anything asks for ASCIIGraph.
var asciiRequested = os.Getenv("DAP_ASCII") != ""

// Graph returns the graph symbols the terminal can show.
func Graph() GraphSymbols {
	if asciiRequested {
		return ASCIIGraph
	}
	return UnicodeGraph
}
