package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// valuesAt returns the values at a dotted key path; "[]" steps into every
// element of an array (a path into an empty array gives no values).
func valuesAt(v any, path string) ([]any, bool) {
	if path == "" {
		return []any{v}, true
	}
	head, rest, _ := strings.Cut(path, ".")
	if head == "[]" {
		arr, ok := v.([]any)
		if !ok {
			return nil, false
		}
		var out []any
		for _, e := range arr {
			vals, ok := valuesAt(e, rest)
			if !ok {
				return nil, false
			}
			out = append(out, vals...)
		}
		return out, true
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	child, ok := obj[head]
	if !ok {
		return nil, false
	}
	return valuesAt(child, rest)
}

// wantShape checks, on the raw body, that every key path exists with its JSON type.
func wantShape(t *testing.T, body []byte, shape map[string]string) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, body)
	}
	for path, want := range shape {
		vals, ok := valuesAt(doc, path)
		if !ok {
			t.Errorf("key %s missing in %s", path, body)
			continue
		}
		if len(vals) == 0 && strings.Contains(path, "[]") {
			t.Errorf("key %s: no array elements to check in %s", path, body)
		}
		for _, v := range vals {
			if got := jsonType(v); got != want {
				t.Errorf("key %s is %s, want %s", path, got, want)
			}
		}
	}
}

// TestWireShapes asserts every key spec section 2 lists, with its JSON type,
// for each resource of the folder, permission and connection endpoints.
func TestWireShapes(t *testing.T) {
	srv, p := demo(t)
	data := folderPath(fileID(t, srv, "/Data"))
	perm := data + "/permission"
	local := configID(t, srv, "/Data/Connections/Local Files.dst")
	warehouse := configID(t, srv, "/Data/Connections/Warehouse.dst")
	mysql := configID(t, srv, "/Data/Connections/MYSQL_QA1.dst") // nothing depends on it
	exportsPerm := folderPath(fileID(t, srv, "/Exports")) + "/permission"
	links := func(names ...string) map[string]string {
		m := map[string]string{"_links": "object"}
		for _, n := range names {
			m["_links."+n+".href"] = "string"
		}
		return m
	}
	merge := func(ms ...map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	folder := map[string]string{"name": "string", "uuid": "string", "_embedded.folders": "array",
		"_embedded.folders.[].name": "string", "_embedded.folders.[]._links.self.href": "string"}
	cases := []struct {
		name, method, path string
		body               any
		shape              map[string]string
	}{
		{"root folder", "GET", "/api/filesystem/root-folder", nil, merge(folder, links("self", "permission"))},
		{"folder", "GET", data, nil, merge(folder, links("self", "parent", "permission"))},
		{"permission", "GET", perm, nil, merge(links("folder", "others", "owner", "self", "groups"), map[string]string{
			"others.readable": "boolean", "others.writable": "boolean", "others.executable": "boolean", "owner": "string"})},
		{"group permissions", "GET", perm + "/groups", nil, merge(links("self", "permission"), map[string]string{
			"_embedded.groups": "array", "_embedded.groups.[].name": "string",
			"_embedded.groups.[].flags.readable": "boolean", "_embedded.groups.[].flags.writable": "boolean",
			"_embedded.groups.[].flags.executable": "boolean",
			"_embedded.groups.[]._links.self.href": "string", "_embedded.groups.[]._links.permission.href": "string"})},
		{"others", "GET", perm + "/others", nil, merge(links("self", "permission"), map[string]string{
			"readable": "boolean", "writable": "boolean", "executable": "boolean"})},
		{"owner", "GET", perm + "/owner", nil, merge(links("self", "permission"), map[string]string{"owner": "string"})},
		{"owner change", "PUT", perm + "/owner", model.Owner{Owner: "admin"}, merge(links("self", "permission"), map[string]string{"owner": "string"})},
		{"others change", "PUT", perm + "/others", model.Flags{Readable: true}, merge(links("self", "permission"), map[string]string{
			"readable": "boolean", "writable": "boolean", "executable": "boolean"})},
		{"group change", "PUT", perm + "/groups/viewers", model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true}},
			merge(links("self", "permission"), map[string]string{"_embedded.groups": "array", "_embedded.groups.[].name": "string",
				"_embedded.groups.[].flags.readable": "boolean"})},
		{"group create", "POST", exportsPerm + "/groups", model.GroupPermission{Name: "viewers", Flags: model.Flags{Readable: true}},
			merge(links("self", "permission"), map[string]string{"_embedded.groups": "array", "_embedded.groups.[].name": "string",
				"_embedded.groups.[].flags.readable": "boolean", "_embedded.groups.[]._links.self.href": "string"})},
		{"group delete", "DELETE", exportsPerm + "/groups/viewers", nil,
			merge(links("self", "permission"), map[string]string{"_embedded.groups": "array", "_embedded.groups.[].name": "string"})},
		{"connection", "GET", connectionPath(warehouse), nil, map[string]string{
			"version": "string", "className": "string", "typeId": "string",
			"file.uuid": "string", "file.path": "string", "file.description": "string", "file.name": "string",
			"properties": "object", "properties.user_name": "array", "properties.user_name.[]": "string",
			"properties.password.[]": "string", "properties.dataStoreTemplate.[]": "string",
			"properties.dataStoreUsage.[]": "string", "dbType.name": "string"}},
		{"connection list", "GET", "/rest/connections", nil, map[string]string{
			"[].id": "number", "[].name": "string", "[].description": "string", "[].path": "string", "[].uuid": "string"}},
		{"connection create", "POST", "/rest/connections", newConnection("/Data/Connections/Shape.dst", "pw"), map[string]string{
			"configuration-id": "number", "status": "string"}},
		{"connection update", "PUT", connectionPath(warehouse), newConnection("", "pw"), map[string]string{"status": "string"}},
		{"dependencies", "GET", fmt.Sprintf("/api/connections/%d/dependencies", local), nil, map[string]string{
			"dependencies": "array", "dependencies.[].id": "number", "dependencies.[].file.path": "string",
			"dependencies.[].file.name": "string", "dependencies.[].file.type": "string",
			"dependencies.[].file.description": "string", "dependencies.[].file.uuid": "string"}},
		{"connection delete", "DELETE", connectionPath(mysql), nil, map[string]string{"status": "string"}},
		{"failure", "GET", "/rest/connections/x", nil, map[string]string{"status": "string", "reason": "string"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := p.call("admin", tc.method, tc.path, tc.body)
			if wantFailure := tc.name == "failure"; (a.code == http.StatusOK) == wantFailure {
				t.Errorf("status %d: %s", a.code, a.body)
			}
			if a.header.Get("Content-Type") != "application/json" {
				t.Errorf("Content-Type %q", a.header.Get("Content-Type"))
			}
			wantShape(t, a.body, tc.shape)
		})
	}
	// key.connectionUrl holds a dot, which the key paths above cannot express.
	var raw map[string]any
	json.Unmarshal(p.call("admin", http.MethodGet, connectionPath(warehouse), nil).body, &raw)
	if urls, ok := raw["properties"].(map[string]any)[model.PropConnectionURL].([]any); !ok || len(urls) != 1 || jsonType(urls[0]) != "string" {
		t.Fatalf("properties.key.connectionUrl: %v", raw["properties"])
	}
	// The root has no parent link.
	json.Unmarshal(p.call("admin", http.MethodGet, "/api/filesystem/root-folder", nil).body, &raw)
	if _, ok := raw["_links"].(map[string]any)["parent"]; ok {
		t.Fatalf("root has a parent link: %v", raw)
	}
}
