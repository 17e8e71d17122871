package common

import (
	"errors"
	"fmt"

	"github.com/dapconsole/dapconsole/api"
)

// Explain says what went wrong with an action in words an admin reads at a
// glance: what an older platform does not offer in the error's words, a
// 403, 404 or 409 as what it means, another refusal by the
// server's reason, an unreachable server as such, anything else as the
// error reads. It never quotes credentials (api errors carry none). What the
// server said is cleaned (Clean) for the terminal.
func Explain(action string, err error) string {
	return Clean(explain(action, err))
}

func explain(action string, err error) string {
	var apiErr *api.Error
	if !errors.As(err, &apiErr) {
		return fmt.Sprintf("%s: %v", action, err)
	}
	reason := ""
	if apiErr.Reason != "" {
		reason = ": " + apiErr.Reason
	}
	switch {
	case errors.Is(err, api.ErrUnsupported):
		// What the platform lacks, and what to do instead, come first in
		// the error's own words; its answer (an HTML page) follows.
		return fmt.Sprintf("%s: %v", action, err)
	case api.IsReadOnly(err):
		return fmt.Sprintf("%s: not sent — this session is read-only", action)
	case api.IsForbidden(err):
		return fmt.Sprintf("%s: not allowed — the server refused it (403)%s", action, reason)
	case api.IsNotFound(err):
		return fmt.Sprintf("%s: not found — it does not exist or you may not see it (404)%s", action, reason)
	case api.IsConflict(err):
		return fmt.Sprintf("%s: the server refused (409)%s", action, reason)
	case api.IsUnreachable(err):
		return fmt.Sprintf("%s: the server does not answer", action)
	case api.IsFailure(err): // a refusal sent with HTTP 200, as the job endpoints do
		return fmt.Sprintf("%s: the server refused%s", action, reason)
	case apiErr.Status != 0 && apiErr.Reason != "":
		return fmt.Sprintf("%s: %s (%d)", action, apiErr.Reason, apiErr.Status)
	}
	return fmt.Sprintf("%s: %v", action, err)
}
