// Package sshserve serves a Bubble Tea program over SSH, one program per
// session: public-key authentication against an OpenSSH authorized_keys file
// whose lines name the platform user (user="NAME") and may be read-only,
// re-read when it changes; a limit on sessions, an idle timeout and a
// per-address connection rate; logs of who came, from where and for how
// long; and a graceful stop that lets every program end as its own quit does.
//
// It knows nothing of the console: Config.Program builds the model of a
// session from what the session tells (user, read-only, terminal, size,
// colour profile), and Config.Stop is the message that ends it cleanly.
//
// Besides the program, sftp and scp of the directory Config.Files gives the
// key's user are served, confined to it by an os.Root (files.go).
//
// It is built on charm.land/wish/v2 as soft-serve is: a chain of
// middlewares (session: key, limits, log; route: what the session asks
// for: sftp, wish's scp middleware, or the console) ends in wish's Bubble
// Tea middleware, which runs the program.
package sshserve
