package api_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/api"
)

func TestRefPathSegment(t *testing.T) {
	tests := []struct {
		name string
		ref  api.Ref
		want string
	}{
		// The spec's own rule and the examples of platform-examples.md.
		{"spec example: a folder with a space", api.Path("/Data/My Folder"), "%2FData%2FMy%20Folder"},
		{"slash becomes %2F", api.Path("/Data/Connections"), "%2FData%2FConnections"},
		{"the root", api.Path("/"), "%2F"},
		{"several levels with spaces", api.Path("/Users/Data Team/Q1 Reports/Cities 2026.imp"), "%2FUsers%2FData%20Team%2FQ1%20Reports%2FCities%202026.imp"},
		{"hidden folder keeps its dot", api.Path("/.system/FileUploadDataStore.dst"), "%2F.system%2FFileUploadDataStore.dst"},
		{"plus is escaped, not taken for a space", api.Path("/Data/C++ jobs"), "%2FData%2FC%2B%2B%20jobs"},
		{"reserved characters", api.Path("/a?b#c&d=e%f"), "%2Fa%3Fb%23c%26d%3De%25f"},
		{"non-ASCII as UTF-8 bytes", api.Path("/Daten/Übersicht"), "%2FDaten%2F%C3%9Cbersicht"},
		{"unreserved characters stay", api.Path("a-b_c.d~e"), "a-b_c.d~e"},
		{"file id", api.FileID(42), "42"},
		{"UUID", api.UUID("9e6635dd-0b7e-4c8e-9a55-1c8d3a1b2c3d"), "9e6635dd-0b7e-4c8e-9a55-1c8d3a1b2c3d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ref.PathSegment(); got != tt.want {
				t.Errorf("PathSegment(%q) = %q, want %q", tt.ref, got, tt.want)
			}
			if strings.Contains(tt.ref.PathSegment(), "+") {
				t.Errorf("PathSegment(%q) writes a +", tt.ref)
			}
		})
	}
}

func TestRefKinds(t *testing.T) {
	tests := []struct {
		ref          api.Ref
		str          string
		isPath, zero bool
	}{
		{api.FileID(42), "42", false, false},
		{api.FileID(0), "0", false, true},
		{api.FileID(-1), "-1", false, true},
		{api.UUID("9e66"), "9e66", false, false},
		{api.UUID(""), "", false, true},
		{api.Path("/Data"), "/Data", true, false},
		{api.Path(""), "", true, true},
		{api.Ref{}, "", false, true},
	}
	for _, tt := range tests {
		if tt.ref.String() != tt.str || tt.ref.IsPath() != tt.isPath || tt.ref.IsZero() != tt.zero {
			t.Errorf("%#v: String, IsPath, IsZero = %q, %v, %v; want %q, %v, %v",
				tt.ref, tt.ref.String(), tt.ref.IsPath(), tt.ref.IsZero(), tt.str, tt.isPath, tt.zero)
		}
	}
}

// TestRefInSelection checks the body of a backup of chosen files: ids as
// numbers, UUIDs and paths as strings.
func TestRefInSelection(t *testing.T) {
	got, err := json.Marshal([]api.Ref{api.FileID(48), api.UUID("0c1d-ee"), api.Path("/Data/My Folder/Cities.imp")})
	if err != nil {
		t.Fatal(err)
	}
	if want := `[48,"0c1d-ee","/Data/My Folder/Cities.imp"]`; string(got) != want {
		t.Errorf("selection = %s, want %s", got, want)
	}
}

func TestFlags(t *testing.T) {
	backups := []struct {
		flags api.BackupFlags
		query string
		str   string
	}{
		{0, "", "none"},
		{api.BackupIncludeOwner, "includeOwner", "includeOwner"},
		{api.BackupIncludeOwner | api.BackupIncludeGroupPermissions, "includeGroupPermissions&includeOwner", "includeGroupPermissions|includeOwner"},
		{api.BackupIgnoreMissingDependencies | api.BackupSkipFilesWithMissingDependencies | api.BackupIncludeDataPermissions |
			api.BackupIncludeGroupPermissions | api.BackupIncludeSharing | api.BackupIncludeOwner,
			"ignoreMissingDependencies&skipFilesWithMissingDependencies&includeDataPermissions&includeGroupPermissions&includeSharing&includeOwner", ""},
	}
	for _, tt := range backups {
		if got := tt.flags.Query(); got != tt.query {
			t.Errorf("BackupFlags(%d).Query() = %q, want %q", tt.flags, got, tt.query)
		}
		if tt.str != "" && tt.flags.String() != tt.str {
			t.Errorf("BackupFlags(%d).String() = %q, want %q", tt.flags, tt.flags.String(), tt.str)
		}
	}
	restores := []struct {
		flags api.RestoreFlags
		query string
	}{
		{0, ""},
		{api.RestoreOverwrite | api.RestoreIncludeOwner, "overwrite&includeOwner"},
		{api.RestoreSubstituteMissingUser | api.RestoreIncludeOwner | api.RestoreIgnoreUnknownGroups | api.RestoreIncludeGroupPermissions,
			"includeGroupPermissions&ignoreUnknownGroups&includeOwner&substituteMissingUser"},
		{api.RestoreOverwrite | api.RestoreSkipFilesWithMissingDependencies | api.RestoreIncludeDataPermissions | api.RestoreIncludeGroupPermissions |
			api.RestoreIgnoreUnknownGroups | api.RestoreIncludeSharing | api.RestoreIncludeOwner | api.RestoreSubstituteMissingUser,
			"overwrite&skipFilesWithMissingDependencies&includeDataPermissions&includeGroupPermissions&ignoreUnknownGroups&includeSharing&includeOwner&substituteMissingUser"},
	}
	for _, tt := range restores {
		if got := tt.flags.Query(); got != tt.query {
			t.Errorf("RestoreFlags(%d).Query() = %q, want %q", tt.flags, got, tt.query)
		}
	}
	if f := api.BackupIncludeOwner | api.BackupIncludeSharing; !f.Has(api.BackupIncludeOwner) || f.Has(api.BackupIncludeOwner|api.BackupIncludeDataPermissions) {
		t.Errorf("BackupFlags.Has is wrong for %v", f)
	}
	if f := api.RestoreOverwrite; !f.Has(api.RestoreOverwrite) || f.Has(api.RestoreIncludeOwner) {
		t.Errorf("RestoreFlags.Has is wrong for %v", f)
	}
	var names []string
	for _, f := range api.AllBackupFlags() {
		names = append(names, f.Names()...)
	}
	if want := []string{"ignoreMissingDependencies", "skipFilesWithMissingDependencies", "includeDataPermissions", "includeGroupPermissions", "includeSharing", "includeOwner"}; !reflect.DeepEqual(names, want) {
		t.Errorf("AllBackupFlags names = %q, want %q", names, want)
	}
	if n := len(api.AllRestoreFlags()); n != 8 {
		t.Errorf("AllRestoreFlags has %d flags, want the spec's 8", n)
	}
}

// TestParseRef: the console's :seq and the CLI read what people type alike.
func TestParseRef(t *testing.T) {
	const id = "8f14e45f-ceea-467a-9af1-1b2c3d4e5f60"
	for _, tc := range []struct {
		in   string
		want api.Ref
	}{
		{"42", api.FileID(42)},
		{"0", api.Path("0")},
		{"-3", api.Path("-3")},
		{id, api.UUID(id)},
		{strings.ToUpper(id), api.UUID(strings.ToUpper(id))},
		{"{" + id + "}", api.Path("{" + id + "}")}, // uuid.Validate's other forms are no UUID here
		{"urn:uuid:" + id, api.Path("urn:uuid:" + id)},
		{"8f14e45fxceea-467a-9af1-1b2c3d4e5f60", api.Path("8f14e45fxceea-467a-9af1-1b2c3d4e5f60")},
		{"/Data/Orders.imp", api.Path("/Data/Orders.imp")},
	} {
		if got := api.ParseRef(tc.in); got != tc.want {
			t.Errorf("ParseRef(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}
