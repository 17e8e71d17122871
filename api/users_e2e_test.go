package api_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

func TestE2EUserManagement(t *testing.T) {
	url, admin, analyst, _ := demoServer(t)
	ctx := t.Context()
	if err := admin.CreateGroup(ctx, "ops"); err != nil {
		t.Fatal(err)
	}
	if err := admin.CreateRole(ctx, model.Role{Name: "Ops", Capabilities: []string{"WORKBOOK_EDIT"}}); err != nil {
		t.Fatal(err)
	}
	const pw = "a pass: with \"quotes\" & spaces"
	err := admin.CreateUser(ctx, model.User{Username: "ana", Email: "ana@example.com", Enabled: true,
		Groups: []string{"ops"}, Roles: []string{"Ops"}}, pw)
	if err != nil {
		t.Fatal(err)
	}
	ana := api.New(url, "ana", pw)
	me, err := ana.LoggedInUser(ctx)
	if err != nil || me.Username != "ana" || !slices.Equal(me.Capabilities, []string{"WORKBOOK_EDIT"}) {
		t.Fatalf("the new user logs in with the password given once: %+v, %v", me, err)
	}
	u, err := admin.ReadUser(ctx, "ana")
	if err != nil || u.Email != "ana@example.com" || u.OwnedFiles == nil {
		t.Fatalf("read %+v, %v", u, err)
	}
	u.Enabled, u.Email, u.Groups = false, "a@x.io", []string{"analysts", "ops"}
	if err := admin.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.LoggedInUser(ctx); !api.IsUnauthorized(err) {
		t.Fatalf("a disabled user: %v", err)
	}
	if err := admin.SetPassword(ctx, "ana", "new"); err != nil {
		t.Fatal(err)
	}
	if err := admin.RenameGroup(ctx, "ops", "operations"); err != nil {
		t.Fatal(err)
	}
	if err := admin.UpdateRole(ctx, "Ops", model.Role{Name: "Operators", Capabilities: []string{}}); err != nil {
		t.Fatal(err)
	}
	u, _ = admin.ReadUser(ctx, "ana")
	if !slices.Equal(u.Groups, []string{"analysts", "operations"}) || !slices.Equal(u.Roles, []string{"Operators"}) {
		t.Fatalf("after the renames %+v", u)
	}
	roles, err := admin.Roles(ctx)
	if err != nil || len(roles) != 3 {
		t.Fatalf("roles %+v, %v", roles, err)
	}
	for _, step := range []func() error{
		func() error { return admin.DeleteUser(ctx, "ana") },
		func() error { return admin.DeleteGroup(ctx, "operations") },
		func() error { return admin.DeleteRole(ctx, "Operators") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := admin.ReadUser(ctx, "ana"); !api.IsNotFound(err) {
		t.Fatalf("read after delete: %v", err)
	}
	if err := analyst.CreateUser(ctx, model.User{Username: "x"}, "pw"); !api.IsForbidden(err) {
		t.Fatalf("analyst creates: %v", err)
	}
	if err := admin.SetPassword(ctx, "viewer", strings.Repeat("x", 100)); !api.IsBadRequest(err) || strings.Contains(err.Error(), "xxx") {
		t.Fatalf("a long password: %v (never echoed)", err)
	}
	users, err := admin.Users(ctx)
	if err != nil || len(users) != 3 {
		t.Fatalf("users %d, %v", len(users), err)
	}
}

func TestE2ELicense(t *testing.T) {
	_, admin, _, viewer := demoServer(t)
	for _, c := range []*api.Client{admin, viewer} {
		l, err := c.LicenseDetails(t.Context())
		if err != nil || l.ProductVersion != server.ProductVersion || l.LicenseType == "" {
			t.Fatalf("licence %+v, %v", l, err)
		}
	}
	url := servertest.Start(t, server.Config{DemoData: true}, servertest.Lacking("/rest/license-details")).URL
	if _, err := api.New(url, "admin", "admin").LicenseDetails(t.Context()); !errors.Is(err, api.ErrUnsupported) {
		t.Fatalf("a platform without licence details: %v", err)
	}
}

// A read-only client sends none of the user-management writes.
func TestReadOnlyClientSendsNoUserWrite(t *testing.T) {
	var rec servertest.WriteRecorder
	c := api.New(servertest.Start(t, server.Config{DemoData: true}, rec.Wrap).URL, "admin", "admin", api.WithReadOnly())
	ctx := t.Context()
	for call, write := range map[string]func() error{
		"CreateUser":  func() error { return c.CreateUser(ctx, model.User{Username: "x"}, "pw") },
		"UpdateUser":  func() error { return c.UpdateUser(ctx, model.User{Username: "viewer"}) },
		"DeleteUser":  func() error { return c.DeleteUser(ctx, "viewer") },
		"SetPassword": func() error { return c.SetPassword(ctx, "viewer", "pw") },
		"CreateGroup": func() error { return c.CreateGroup(ctx, "g") },
		"RenameGroup": func() error { return c.RenameGroup(ctx, "viewers", "g") },
		"DeleteGroup": func() error { return c.DeleteGroup(ctx, "viewers") },
		"CreateRole":  func() error { return c.CreateRole(ctx, model.Role{Name: "r"}) },
		"UpdateRole":  func() error { return c.UpdateRole(ctx, "r", model.Role{Name: "s"}) },
		"DeleteRole":  func() error { return c.DeleteRole(ctx, "r") },
	} {
		if err := write(); !api.IsReadOnly(err) {
			t.Errorf("%s: %v, want ErrReadOnly", call, err)
		}
	}
	if _, err := c.Users(ctx); err != nil {
		t.Fatalf("a read-only client cannot read: %v", err)
	}
	if len(rec.Writes()) > 0 {
		t.Fatalf("the server received writes: %v", rec.Writes())
	}
}
