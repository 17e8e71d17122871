package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Error is a request the server answered with a failure, or one that got no
// usable answer. Status is the HTTP status as received: job endpoints answer
// 200 with a failure body, so a 200 here is such a failure; 0 means no
// answer came (server unreachable, request cancelled). Reason is the body's
// `reason`, or a description of what was wrong with the answer.
type Error struct {
	Op     string   // method and path as sent, e.g. "GET /api/filesystem/folders/4"
	Status int      // HTTP status, 0 when no answer came
	Reason string   // the failure body's reason, or what was wrong with the answer
	Paths  []string // files the failure is about, when the server names them
	Err    error    // underlying cause (transport or decoding), may be nil

	unreachable bool // no server answered at the base URL
	notSent     bool // the request never left the console (IsNotSent)
	failureBody bool // a 2xx answer whose body said failure
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	b.WriteString(": ")
	switch {
	case e.failureBody:
		b.WriteString("failure")
		if e.Reason != "" {
			b.WriteString(": ")
			b.WriteString(e.Reason)
		}
	case e.Status != 0:
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
		if e.Reason != "" {
			b.WriteString(": ")
			b.WriteString(e.Reason)
		}
	case e.Reason != "":
		b.WriteString(e.Reason)
	default:
		b.WriteString("no answer")
	}
	// The embedded platform's reasons name the paths already ("still used by
	// 2 file(s): /A, /B"); only those a reason leaves out are added, so that a
	// refusal does not list every file twice.
	var unnamed []string
	for _, p := range e.Paths {
		if !strings.Contains(e.Reason, p) {
			unnamed = append(unnamed, p)
		}
	}
	if len(unnamed) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(unnamed, ", "))
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// IsNotFound reports whether err is a 404: the file does not exist or the
// user may not see it (the platform does not tell the two apart).
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// ErrReadOnly is what a read-only client (WithReadOnly) answers a write
// with, before sending anything.
var ErrReadOnly = errors.New("read-only session: the console sends no writes")

// IsReadOnly reports whether err is a write a read-only client refused.
func IsReadOnly(err error) bool { return errors.Is(err, ErrReadOnly) }

// IsForbidden reports whether err is a 403: the user may see but not do it.
func IsForbidden(err error) bool { return hasStatus(err, http.StatusForbidden) }

// IsUnauthorized reports whether err is a 401: missing or wrong credentials.
func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }

// IsConflict reports whether err is a 409, e.g. a restore over existing files without overwrite.
func IsConflict(err error) bool { return hasStatus(err, http.StatusConflict) }

// IsBadRequest reports whether err is a 400: the server rejected the input.
func IsBadRequest(err error) bool { return hasStatus(err, http.StatusBadRequest) }

// IsUnreachable reports whether err means the server could not be reached at
// all (connection refused, unknown host, dial timeout).
func IsUnreachable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.unreachable
}

// IsNotSent reports whether err is a request the client kept back or could
// not make (a read-only session's write, a body that does not encode): it
// says nothing of the server, unlike a request that got no answer.
func IsNotSent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.notSent
}

// IsFailure reports whether err is a failure body that came with HTTP 200,
// as the job endpoints send for a file that does not exist or is not
// accessible, or a job that cannot be started.
func IsFailure(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.failureBody
}

func hasStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}

// reasonOf returns the server's reason carried by err, or err's text.
func reasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Reason != "" {
		return e.Reason
	}
	return err.Error()
}
