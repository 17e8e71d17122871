// Package restoreplan says what a restore would do before anything is sent,
// and what differs between an archive and the live folder: for every entry
// its action in the target folder and the reason the platform would give
// for refusing, or its changed fields, computed on the client from the
// archive and reads the platform already serves, so the console and the
// command line show the same plan against any platform.
package restoreplan
