// Package cli is dapconsole's command tree (spf13/cobra): the scriptable
// commands beside the console (folder, job, conn, completion) and the hosts
// of the console's own sub-commands, with one exit-code rule for all of
// them. It reaches the platform through api, with the credentials package's
// lookup, as the console does.
package cli
