// Package store keeps the embedded platform's state in one SQLite database per
// data directory: users, groups, the file tree with permissions, and secrets.
package store
