package cli

import (
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/dapconsole/dapconsole/api"
)

// parseRef reads a file or folder as a script names it: a file id (digits),
// a UUID, or a path from the root.
func parseRef(s string) (api.Ref, error) {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return api.FileID(id), nil
	}
	if len(s) == 36 && uuid.Validate(s) == nil {
		return api.UUID(s), nil
	}
	if strings.HasPrefix(s, "/") {
		return api.Path(s), nil
	}
	return api.Ref{}, usage("%q: want a file id, a UUID or a path from the root (/Data/…)", s)
}

// parseID reads an id the platform numbers (a configuration, an execution).
func parseID(what, s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, usage("%s %q: want a positive number", what, s)
	}
	return id, nil
}
