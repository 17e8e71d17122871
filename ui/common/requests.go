package common

import "sync/atomic"

// Ticket tags one request (a read, a timer) so that its answer, carried
// back in a message, can be told from the answers of others. No two
// tickets of a console are alike, whichever Requests issued them.
type Ticket uint64

// tickets numbers every ticket issued; the ssh server runs many consoles.
var tickets atomic.Uint64

// Requests is how a pane drops stale results: each kind of request it
// makes (the list, a view's read, the poll timer) has a Requests; Next
// tags a new request and the message that answers it carries the ticket;
// Current says whether that answer is still wanted. A new request
// supersedes the ones before it; Reset drops every one outstanding (a new
// login, a view closed). Requests that belong together (the reads of one
// list's types, running at once) share the ticket Latest returns, so a
// Next drops them all at once. The zero value has nothing outstanding.
type Requests struct {
	latest Ticket
}

// Next tags a new request; answers to every earlier one are dropped.
func (r *Requests) Next() Ticket {
	r.latest = Ticket(tickets.Add(1))
	return r.latest
}

// Latest is the ticket of the latest request, 0 when none is outstanding.
func (r *Requests) Latest() Ticket { return r.latest }

// Current reports whether an answer tagged t is still wanted: t is the
// latest ticket and no Reset came since.
func (r *Requests) Current(t Ticket) bool { return t != 0 && t == r.latest }

// Reset drops the answers to every request outstanding.
func (r *Requests) Reset() { r.latest = 0 }
