// Package login is the console's login screen and its :profile command: it
// checks credentials with one call and stores them as `dapconsole login` does.
package login
