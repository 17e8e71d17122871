// Package server is the embedded platform: a real implementation of the REST
// interface with storage, auth, permissions, backup/restore and a job engine.
package server
