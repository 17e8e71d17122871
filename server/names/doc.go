// Package names holds the rules every file and folder name of the tree
// follows, whichever way it enters: created, renamed, moved or restored
// from an archive. One rule set for all of them: a name an archive may
// not carry cannot be made by hand either, so every tree can be backed up
// and restored.
package names
