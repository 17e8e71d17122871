// Package jobs is the platform's job engine: a bounded queue of executions that
// really import, compute and export data, stored in the server's SQLite database.
package jobs
