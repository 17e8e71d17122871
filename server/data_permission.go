package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server/store"
)

// mayReadData reports whether user, who may read workbook f, may also read
// the data it computes. Without a dataPermission member that is whoever
// may read the workbook (its read flags are its data permissions, as a
// backup's includeDataPermissions records them). With one, only an
// administrator, the workbook's owner, others when permissionForOthers is
// true, and members of the groups it gives read (true, or an object whose
// readable is true). A member that does not decode gives the data to no
// one else: a mistyped permission must not open data up. Other kinds of
// files have no separate data permission.
func mayReadData(ctx context.Context, st *store.Store, user store.User, f store.File) (bool, error) {
	if f.Kind != model.KindWorkbook || user.Admin || (f.OwnerID != 0 && f.OwnerID == user.ID) {
		return true, nil
	}
	cfg, err := st.Configuration(ctx, f)
	if err != nil {
		return false, err
	}
	raw, ok := cfg.Extra[model.MemberDataPermission]
	if !ok {
		return true, nil
	}
	var dp struct {
		Groups              map[string]json.RawMessage `json:"groups"`
		PermissionForOthers json.RawMessage            `json:"permissionForOthers"`
	}
	if json.Unmarshal(raw, &dp) != nil {
		return false, nil
	}
	if grantsRead(dp.PermissionForOthers) {
		return true, nil
	}
	for name, v := range dp.Groups {
		if !grantsRead(v) {
			continue
		}
		g, err := st.GroupByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		if slices.Contains(user.GroupIDs, g.ID) {
			return true, nil
		}
	}
	return false, nil
}

// grantsRead reads a data permission's grant: true, or flags whose
// readable is true.
func grantsRead(raw json.RawMessage) bool {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return true
	}
	var flags model.Flags
	return json.Unmarshal(raw, &flags) == nil && flags.Readable
}
