package credentials

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadProfilesMissingFileIsEmpty(t *testing.T) {
	profiles, err := LoadProfiles(filepath.Join(t.TempDir(), "none", "profiles.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(profiles.Profiles) != 0 || profiles.Default != "" {
		t.Fatalf("want no profiles, got %+v", profiles)
	}
	if _, ok := profiles.DefaultProfile(); ok {
		t.Fatal("an empty set has no default profile")
	}
}

func TestProfilesSaveRoundTripAndPermissions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dapconsole", "profiles.json")
	profiles, err := LoadProfiles(path)
	if err != nil {
		t.Fatal(err)
	}
	prod := Profile{Name: "prod", Server: "https://dap.example.com", User: "admin", ReadOnly: true}
	dev := Profile{Name: "dev", Server: "http://127.0.0.1:8080", User: "analyst"}
	profiles.Put(prod)
	profiles.Put(dev)
	dev.User = "viewer"
	profiles.Put(dev) // replaces, keeps the order
	if err := profiles.Save(); err != nil {
		t.Fatal(err)
	}

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("profiles file mode %o, want 600", perm)
	}
	dirInfo, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := dirInfo.Mode().Perm(); perm != 0o700 {
		t.Errorf("config dir mode %o, want 700", perm)
	}

	again, err := LoadProfiles(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.Default != "prod" {
		t.Errorf("default %q, want the first profile stored, prod", again.Default)
	}
	if got := strings.Join(again.Names(), ","); got != "prod,dev" {
		t.Errorf("names %s, want prod,dev", got)
	}
	if got, _ := again.Get("dev"); got != dev {
		t.Errorf("dev = %+v, want %+v", got, dev)
	}
	if got, ok := again.Match("https://dap.example.com", ""); !ok || got != prod {
		t.Errorf("Match(server) = %+v, %v; want prod", got, ok)
	}
	if _, ok := again.Match("https://dap.example.com", "viewer"); ok {
		t.Error("Match must honour the user")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("config dir holds %d entries, want only profiles.json (no temporary files left)", len(entries))
	}
}

func TestLoadProfilesCorruptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadProfiles(path)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("want an error naming %s, got %v", path, err)
	}
}

func TestSaveWithoutPath(t *testing.T) {
	if err := (&Profiles{}).Save(); err == nil {
		t.Fatal("want an error for profiles not loaded from a file")
	}
}

func TestNormalizeServer(t *testing.T) {
	tests := []struct {
		raw, want, wantErr string
	}{
		{raw: "https://dap.example.com", want: "https://dap.example.com"},
		{raw: " HTTPS://DAP.Example.com/ ", want: "https://dap.example.com"},
		{raw: "http://127.0.0.1:8080/dap//", want: "http://127.0.0.1:8080/dap"},
		{raw: "http://127.0.0.1:8080/?x=1#top", want: "http://127.0.0.1:8080"},
		{raw: "dap.example.com", wantErr: "want a URL"},
		{raw: "ftp://dap.example.com", wantErr: "want a URL"},
		{raw: "https://", wantErr: "want a URL"},
		{raw: "", wantErr: "want a URL"},
		{raw: "https://admin:hunter2@dap.example.com", wantErr: "not in the URL"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, err := NormalizeServer(tt.raw)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %q, %v", tt.wantErr, got, err)
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Fatalf("error shows the password: %v", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestValidateProfileName(t *testing.T) {
	for name, ok := range map[string]bool{
		"prod": true, "dev-2": true, "kunde.a": true,
		"": false, "two words": false, "a/b": false, "tab\there": false,
	} {
		if err := ValidateProfileName(name); (err == nil) != ok {
			t.Errorf("ValidateProfileName(%q) = %v, want ok=%v", name, err, ok)
		}
	}
}
