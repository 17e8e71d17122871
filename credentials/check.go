package credentials

import (
	"context"
	"errors"
	"fmt"

	"github.com/dapconsole/dapconsole/api"
)

// CheckWithServer is the Verifier login uses: one authenticated read of the
// root folder, which every user may make, so only the credentials can fail it.
// ErrRefused is a Verifier's answer when the server refused the user and
// password (and not, say, unreachable): login then asks again.
var ErrRefused = errors.New("the server refused this user and password")

func CheckWithServer(ctx context.Context, server, user, password string) error {
	if _, err := api.New(server, user, password).RootFolder(ctx); err != nil {
		if api.IsUnauthorized(err) {
			return fmt.Errorf("%w: %w", ErrRefused, err)
		}
		return err
	}
	return nil
}
