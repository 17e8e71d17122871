// Package connections is the console's connections pane: the list of every
// connection, their masked details, the dependency graph of one, and
// creating, editing (in $EDITOR) and deleting them.
package connections
