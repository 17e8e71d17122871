package server_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/server"
)

const um = "/rest/user-management"

// passwordCall sends a password change: the raw password as the body, no
// content type, as the platform's clients do.
func (p *platform) passwordCall(user, name, password string) answer {
	p.t.Helper()
	req, err := http.NewRequest(http.MethodPut, p.base+um+"/password/"+name, strings.NewReader(password))
	if err != nil {
		p.t.Fatal(err)
	}
	req.SetBasicAuth(user, user)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	return answer{code: resp.StatusCode, header: resp.Header, body: buf.Bytes()}
}

// login reports whether name/password are accepted.
func (p *platform) login(name, password string) int {
	p.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, p.base+um+"/logged-in-user", nil)
	req.SetBasicAuth(name, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestUserLifecycle(t *testing.T) {
	_, p := demo(t)
	var u model.User
	p.want(p.call("admin", http.MethodPost, um+"/users",
		map[string]any{"username": "ana", "email": "ana@example.com", "roles": []string{"ANALYST"}, "groups": []string{"analysts"}}), http.StatusOK, &u)
	if u.Username != "ana" || u.Email != "ana@example.com" || !u.Enabled || !slices.Equal(u.Groups, []string{"analysts"}) ||
		!slices.Equal(u.Roles, []string{model.RoleAnalyst}) || u.Version == "" {
		t.Fatalf("created %+v", u)
	}
	if code := p.login("ana", "anything"); code != http.StatusUnauthorized {
		t.Fatalf("a user created without a password logs in: %d", code)
	}
	p.want(p.passwordCall("admin", "ana", "s3cret pass"), http.StatusOK, nil)
	if code := p.login("ana", "s3cret pass"); code != http.StatusOK {
		t.Fatalf("login after the password change: %d", code)
	}
	// An update sends the read object back without username.
	p.want(p.call("admin", http.MethodPut, um+"/users/ana",
		map[string]any{"email": "a@x.io", "enabled": false, "groups": []string{"viewers", "analysts"}, "roles": []string{"ANALYST"}, "expires": "", "version": "3.1"}),
		http.StatusOK, &u)
	if u.Email != "a@x.io" || u.Enabled || !slices.Equal(u.Groups, []string{"analysts", "viewers"}) {
		t.Fatalf("updated %+v", u)
	}
	if code := p.login("ana", "s3cret pass"); code != http.StatusUnauthorized {
		t.Fatalf("a disabled user logs in: %d", code)
	}
	p.want(p.call("admin", http.MethodPut, um+"/users/ana", map[string]any{"enabled": true}), http.StatusOK, &u)
	if !u.Enabled || u.Email != "a@x.io" || len(u.Groups) != 2 {
		t.Fatalf("a partial update changed more than asked: %+v", u)
	}
	p.get("admin", um+"/users/ana", &u)
	if u.Username != "ana" || u.OwnedFiles == nil || *u.OwnedFiles != 0 {
		t.Fatalf("read %+v", u)
	}
	p.want(p.call("admin", http.MethodDelete, um+"/users/ana", nil), http.StatusOK, nil)
	p.wantFailure(p.call("admin", http.MethodGet, um+"/users/ana", nil), http.StatusNotFound, "ana")
	if code := p.login("ana", "s3cret pass"); code != http.StatusUnauthorized {
		t.Fatalf("a deleted user logs in: %d", code)
	}
}

// Deleting a user who owns files hands them to the system owner: nothing
// is lost, and the administrators still manage them.
func TestDeleteUserWhoOwnsFiles(t *testing.T) {
	_, p := demo(t)
	var u model.User
	p.get("admin", um+"/users/analyst", &u)
	if u.OwnedFiles == nil || *u.OwnedFiles == 0 {
		t.Fatalf("the demo analyst owns files: %+v", u)
	}
	p.want(p.call("admin", http.MethodDelete, um+"/users/analyst", nil), http.StatusOK, nil)
	var perm model.Permission
	p.get("admin", "/api/filesystem/files/%2FAnalytics%2FSales.wbk/permission", &perm)
	if perm.Owner != "system" {
		t.Fatalf("owner after the delete: %+v", perm)
	}
}

func TestUserManagementRefuses(t *testing.T) {
	_, p := demo(t)
	users := func() string {
		var page model.Users
		p.get("admin", um+"/users?maxResults=100", &page)
		var b strings.Builder
		for _, u := range page.Elements {
			b.WriteString(u.Username + u.Email + strings.Join(u.Groups, ",") + strings.Join(u.Roles, ",") + " ")
		}
		return b.String()
	}
	before := users()
	for _, c := range []struct {
		name, user, method, path string
		body                     any
		code                     int
		fragment                 string
	}{
		{"analyst lists", "analyst", "GET", um + "/users", nil, 403, "administrator"},
		{"viewer reads one", "viewer", "GET", um + "/users/admin", nil, 403, "administrator"},
		{"analyst creates", "analyst", "POST", um + "/users", map[string]any{"username": "x"}, 403, "administrator"},
		{"viewer changes a password", "viewer", "PUT", um + "/password/admin", "pw", 403, "administrator"},
		{"analyst creates a group", "analyst", "POST", um + "/groups", map[string]any{"name": "g"}, 403, "administrator"},
		{"viewer deletes a role", "viewer", "DELETE", um + "/roles/ANALYST", nil, 403, "administrator"},
		{"no username", "admin", "POST", um + "/users", map[string]any{"email": "x@y"}, 400, "username"},
		{"existing user", "admin", "POST", um + "/users", map[string]any{"username": "viewer"}, 409, "exists"},
		{"unknown group", "admin", "POST", um + "/users", map[string]any{"username": "x", "groups": []string{"nope"}}, 400, "nope"},
		{"unknown role", "admin", "POST", um + "/users", map[string]any{"username": "x", "roles": []string{"NOPE"}}, 400, "NOPE"},
		{"no role", "admin", "PUT", um + "/users/viewer", map[string]any{"roles": []string{}}, 400, "role"},
		{"control character", "admin", "PUT", um + "/users/viewer", map[string]any{"email": "a\x1b[2J@x"}, 400, "control"},
		{"rename", "admin", "PUT", um + "/users/viewer", map[string]any{"username": "v2"}, 400, "renamed"},
		{"not an object", "admin", "PUT", um + "/users/viewer", `[1]`, 400, ""},
		{"missing user", "admin", "PUT", um + "/users/nobody", map[string]any{"email": "x"}, 404, "nobody"},
		{"last administrator disabled", "admin", "PUT", um + "/users/admin", map[string]any{"enabled": false}, 409, "administrator"},
		{"last administrator demoted", "admin", "PUT", um + "/users/admin", map[string]any{"roles": []string{"ANALYST"}}, 409, "administrator"},
		{"last administrator deleted", "admin", "DELETE", um + "/users/admin", nil, 409, "administrator"},
		{"empty password", "admin", "PUT", um + "/password/viewer", "", 400, "empty"},
		{"password too long", "admin", "PUT", um + "/password/viewer", strings.Repeat("p", 73), 400, "longer"},
		{"password of nobody", "admin", "PUT", um + "/password/nobody", "pw", 404, "nobody"},
		{"bad window", "admin", "GET", um + "/users?firstResult=x", nil, 400, "firstResult"},
		{"group exists", "admin", "POST", um + "/groups", map[string]any{"name": "viewers"}, 409, "exists"},
		{"group bad name", "admin", "POST", um + "/groups", map[string]any{"name": "a/b"}, 400, "name"},
		{"rename group onto another", "admin", "PUT", um + "/groups/viewers", map[string]any{"name": "analysts"}, 409, "exists"},
		{"missing group", "admin", "DELETE", um + "/groups/nope", nil, 404, "nope"},
		{"built-in role renamed", "admin", "PUT", um + "/roles/ADMIN", map[string]any{"name": "BOSS"}, 400, "built-in"},
		{"built-in role deleted", "admin", "DELETE", um + "/roles/ANALYST", nil, 400, "built-in"},
		{"role exists", "admin", "POST", um + "/roles", map[string]any{"name": "ADMIN"}, 409, "exists"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a answer
			if c.method == "PUT" && strings.Contains(c.path, "/password/") {
				a = p.passwordCall(c.user, c.path[strings.LastIndexByte(c.path, '/')+1:], c.body.(string))
			} else {
				a = p.call(c.user, c.method, c.path, c.body)
			}
			p.wantFailure(a, c.code, c.fragment)
		})
	}
	if after := users(); after != before {
		t.Fatalf("a refused call changed the users:\n%s\n%s", before, after)
	}
	if code := p.login("viewer", "viewer"); code != http.StatusOK {
		t.Fatalf("a refused password change changed the password: %d", code)
	}
}

func TestGroupsAndRoles(t *testing.T) {
	_, p := demo(t)
	p.want(p.call("admin", http.MethodPost, um+"/groups", map[string]any{"name": "ops"}), http.StatusOK, nil)
	p.want(p.call("admin", http.MethodPut, um+"/users/viewer", map[string]any{"groups": []string{"ops"}}), http.StatusOK, nil)
	p.want(p.call("admin", http.MethodPut, um+"/groups/ops", map[string]any{"name": "operations"}), http.StatusOK, nil)
	var u model.User
	p.get("admin", um+"/users/viewer", &u)
	if !slices.Equal(u.Groups, []string{"operations"}) {
		t.Fatalf("a renamed group keeps its members: %+v", u)
	}
	p.want(p.call("admin", http.MethodDelete, um+"/groups/operations", nil), http.StatusOK, nil)
	p.get("admin", um+"/users/viewer", &u)
	if len(u.Groups) != 0 {
		t.Fatalf("a deleted group's members: %+v", u)
	}

	var role model.Role
	p.want(p.call("admin", http.MethodPost, um+"/roles", map[string]any{"name": "Ops", "capabilities": []string{"WORKBOOK_EDIT"}}), http.StatusOK, &role)
	p.want(p.call("admin", http.MethodPut, um+"/users/viewer", map[string]any{"roles": []string{"Ops"}}), http.StatusOK, nil)
	var me model.LoggedInUser
	p.get("viewer", um+"/logged-in-user", &me)
	if !slices.Equal(me.Roles, []string{"Ops"}) || !slices.Equal(me.Capabilities, []string{"WORKBOOK_EDIT"}) {
		t.Fatalf("logged-in user %+v", me)
	}
	p.want(p.call("admin", http.MethodPut, um+"/roles/Ops", map[string]any{"name": "Operators"}), http.StatusOK, &role)
	if role.Name != "Operators" || !slices.Equal(role.Capabilities, []string{"WORKBOOK_EDIT"}) {
		t.Fatalf("renamed role %+v", role)
	}
	p.want(p.call("admin", http.MethodDelete, um+"/roles/Operators", nil), http.StatusOK, nil)
	p.get("viewer", um+"/logged-in-user", &me)
	if !slices.Equal(me.Roles, []string{model.RoleAnalyst}) {
		t.Fatalf("a user whose only role went keeps ANALYST: %+v", me)
	}
	var roles model.Roles
	p.get("admin", um+"/roles", &roles)
	if roles.Total != 2 || roles.MaxResults != 10 {
		t.Fatalf("roles %+v", roles)
	}
}

// The default window is the platform's: 10.
func TestUsersPageDefault(t *testing.T) {
	_, p := demo(t)
	for i := range 12 {
		p.want(p.call("admin", http.MethodPost, um+"/users", map[string]any{"username": "u" + string(rune('a'+i))}), http.StatusOK, nil)
	}
	var page model.Users
	p.get("admin", um+"/users", &page)
	if page.MaxResults != 10 || page.Total != 15 || len(page.Elements) != 10 {
		t.Fatalf("default page: max %d total %d len %d", page.MaxResults, page.Total, len(page.Elements))
	}
	p.get("admin", um+"/users?firstResult=10&maxResults=10", &page)
	if len(page.Elements) != 5 {
		t.Fatalf("second page: %d", len(page.Elements))
	}
}

// No user-management answer carries a password or a hash, whoever asks.
func TestNoPasswordEverLeaves(t *testing.T) {
	_, p := demo(t)
	p.want(p.passwordCall("admin", "viewer", "viewer"), http.StatusOK, nil)
	for _, user := range []string{"admin", "analyst", "viewer"} {
		for _, path := range []string{um + "/users?maxResults=100", um + "/users/viewer", um + "/users/admin", um + "/logged-in-user", um + "/groups", um + "/roles"} {
			a := p.call(user, http.MethodGet, path, nil)
			low := strings.ToLower(string(a.body))
			if strings.Contains(low, "password") || strings.Contains(low, "hash") || strings.Contains(string(a.body), "$2a$") {
				t.Fatalf("%s %s: %s", user, path, a.body)
			}
		}
	}
}

func TestLicenseDetails(t *testing.T) {
	ends := time.Date(2031, 3, 4, 17, 5, 6, 0, time.Local)
	_, p := start(t, server.Config{DataDir: t.TempDir(), DemoData: true, LicenseExpires: ends})
	var raw map[string]any
	p.get("viewer", "/rest/license-details", &raw)
	for _, key := range []string{"ProductId", "ProductVersion", "LicenseHolder", "LicenseType", "LicenseStartDate",
		"LicenseExpirationDate", "LicenseVolumePeriodInMonths", "LicenseVolumelimitInBytes", "TotalVolumeConsumedInBytes"} {
		if _, ok := raw[key]; !ok {
			t.Fatalf("no %s in %v", key, raw)
		}
	}
	var l model.LicenseDetails
	p.get("admin", "/rest/license-details", &l)
	if l.ProductVersion != server.ProductVersion || l.LicenseType != "Evaluation" || l.LicenseExpirationDate != "Mar 4, 2031 5:05:06 PM" ||
		l.LicenseVolumeLimitInBytes >= 0 {
		t.Fatalf("licence %+v", l)
	}
	if _, err := time.Parse("Jan 2, 2006 3:04:05 PM", l.LicenseStartDate); err != nil {
		t.Fatalf("start date: %v", err)
	}
	var id model.ProductID
	p.get("analyst", "/license/product-id", &id)
	if id.ProductID != l.ProductID || id.ProductID == "" || id.ProductVersion != server.ProductVersion {
		t.Fatalf("product id %+v, licence %+v", id, l)
	}
	p.wantFailure(p.call("", http.MethodGet, "/rest/license-details", nil), http.StatusUnauthorized, "")
}

// The documented create bodies, unquoted and sent as curl -d sends them,
// create what they say.
func TestDocumentedUserBodies(t *testing.T) {
	_, p := demo(t)
	const form = "application/x-www-form-urlencoded"
	p.want(p.send("admin", http.MethodPost, um+"/users", form, `{username:"ana", email:"ana@example.com", roles : [ANALYST]}`), http.StatusOK, nil)
	p.want(p.send("admin", http.MethodPost, um+"/groups", form, `{name="ops"}`), http.StatusOK, nil)
	var u model.User
	p.get("admin", um+"/users/ana", &u)
	if u.Email != "ana@example.com" || !slices.Equal(u.Roles, []string{model.RoleAnalyst}) {
		t.Fatalf("created %+v", u)
	}
	var groups model.Groups
	p.get("admin", um+"/groups", &groups)
	if groups.Total != 3 {
		t.Fatalf("groups %+v", groups)
	}
}
