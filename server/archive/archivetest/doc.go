// Package archivetest builds ZIP archives for tests: well-formed ones from a
// list of entries, and the hostile corpus every archive reader must refuse.
package archivetest
