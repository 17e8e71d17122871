// Package store keeps the embedded platform's state in one SQLite database per
// data directory: users, groups, the file tree with permissions, and secrets.
// It is persistence only: the queries, the schema and its migrations. What a
// backup or a restore decides lives in server/backup, which reads and writes
// through the queries here (bulk.go holds those only a restore needs).
package store
