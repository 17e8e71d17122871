package common

// LoadState says what a pane knows of a node's children or dependencies:
// a folder of the tree, a file of a dependency graph.
type LoadState int

const (
	NotLoaded LoadState = iota
	Loading
	Loaded
	LoadFailed
)
