// Package credentials knows where the console connects and as whom: named
// profiles on disk (never a password) and passwords in the OS keyring, env or memory.
package credentials
