// Package lenient reads request bodies as leniently as the real platform's
// reader (Gson in lenient mode) does, and writes them out as strict JSON for
// encoding/json: admins' scripts and the platform's own documentation send
// `{owner:analyst}` and `{name="g"}`, which strict JSON refuses.
package lenient
