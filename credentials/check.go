package credentials

import (
	"context"
	"fmt"

	"github.com/dapconsole/dapconsole/api"
)

// CheckWithServer is the Verifier login uses: one authenticated read of the
// root folder, which every user may make, so only the credentials can fail it.
func CheckWithServer(ctx context.Context, server, user, password string) error {
	if _, err := api.New(server, user, password).RootFolder(ctx); err != nil {
		if api.IsUnauthorized(err) {
			return fmt.Errorf("the server refused this user and password: %w", err)
		}
		return err
	}
	return nil
}
