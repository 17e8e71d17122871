// Package backup is the embedded platform's backup and restore (spec 4.2,
// 4.3): which files a backup takes and what a restore makes of an uploaded
// archive, both dependency rules side by side, over the store's queries.
// The HTTP handlers parse a request and answer; the rules live here.
//
// A backup (backup.go) plans the files the user may read below a folder,
// applies the backup's dependency rule, and streams the archive, reading
// and compressing a batch ahead of the writer. A restore (restore.go)
// reads the upload into an index of its entries (entries.go keeps them in
// memory, or on disk past spillPast so that memory stays flat), runs its
// checks before taking SQLite's write lock when it can, and writes in one
// transaction, decoding entries ahead of the single writer.
package backup
