package cli

import (
	"strconv"
	"strings"

	"github.com/dapconsole/dapconsole/api"
)

// parseRef reads a file or folder as a script names it: a file id (digits),
// a UUID, or a path from the root.
func parseRef(s string) (api.Ref, error) {
	ref := api.ParseRef(s)
	if ref.IsPath() && !strings.HasPrefix(s, "/") {
		return api.Ref{}, usage("%q: want a file id, a UUID or a path from the root (/Data/…)", s)
	}
	return ref, nil
}

// parseID reads an id the platform numbers (a configuration, an execution).
func parseID(what, s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, usage("%s %q: want a positive number", what, s)
	}
	return id, nil
}
