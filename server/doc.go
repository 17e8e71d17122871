// Package server is the embedded platform: a real implementation of the REST
// interface. Its HTTP handlers parse a request and answer; the rules live in
// the services below them (server/backup for backup and restore, server/jobs
// for the job engine), over server/store, which keeps the state.
package server
