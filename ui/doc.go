// Package ui is the console: a root Bubble Tea model that composes the pane
// models (folders, connections, jobs), the shared key map, help and dialogs.
package ui
