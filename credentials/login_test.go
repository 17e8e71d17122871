package credentials

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials/credtest"
)

var errRefused = errors.New("401 Unauthorized: bad credentials")

func TestLogin(t *testing.T) {
	const password = testPasswordPrefix + "login"
	tests := []struct {
		name        string
		profile     Profile
		password    string
		verifyErr   error
		keyringErr  error
		wantErr     string
		wantNotice  string
		wantStored  bool
		wantProfile bool
	}{
		{
			name:        "accepted: profile saved, password stored",
			profile:     Profile{Name: "prod", Server: "https://DAP.example.com/", User: "admin"},
			password:    password,
			wantStored:  true,
			wantProfile: true,
		},
		{
			name:      "refused: nothing saved",
			profile:   Profile{Name: "prod", Server: "https://dap.example.com", User: "admin"},
			password:  password,
			verifyErr: errRefused,
			wantErr:   "login admin@https://dap.example.com: 401",
		},
		{
			name:        "no keyring: profile saved, advice given",
			profile:     Profile{Name: "prod", Server: "https://dap.example.com", User: "admin"},
			password:    password,
			keyringErr:  errNoSessionBus,
			wantNotice:  "set DAP_PASSWORD",
			wantProfile: true,
		},
		{name: "bad server", profile: Profile{Name: "prod", Server: "dap", User: "admin"}, password: password, wantErr: "want a URL"},
		{name: "no user", profile: Profile{Name: "prod", Server: "https://dap.example.com", User: " "}, password: password, wantErr: "no user"},
		{name: "empty password", profile: Profile{Name: "prod", Server: "https://dap.example.com", User: "admin"}, wantErr: "empty password"},
		{name: "bad profile name", profile: Profile{Name: "my prod", Server: "https://dap.example.com", User: "admin"}, password: password, wantErr: "profile name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keyring.MockInit()
			if tt.keyringErr != nil {
				keyring.MockInitWithError(tt.keyringErr)
			}
			configDir := t.TempDir()
			path := filepath.Join(configDir, "dapconsole", "profiles.json")
			profiles, err := LoadProfiles(path)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			verify := func(_ context.Context, server, user, pw string) error {
				calls++
				if server != "https://dap.example.com" || user != "admin" || pw != tt.password {
					t.Errorf("verify(%q, %q, <password>): not the normalized credentials", server, user)
				}
				return tt.verifyErr
			}

			_, notice, err := Login(context.Background(), profiles, tt.profile, tt.password, verify)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
				if strings.Contains(err.Error(), password) {
					t.Fatalf("the error shows the password: %v", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(notice, tt.wantNotice) {
				t.Errorf("notice %q, want it to contain %q", notice, tt.wantNotice)
			}
			if tt.wantErr == "" && calls != 1 {
				t.Errorf("verify called %d times, want exactly one authenticated call", calls)
			}

			keyring.MockInit() // read what was stored, whatever the keyring did before
			_, statErr := os.Stat(path)
			if saved := statErr == nil; saved != tt.wantProfile {
				t.Errorf("profiles file saved = %v, want %v", saved, tt.wantProfile)
			}
			credtest.NoPasswordUnder(t, configDir)
		})
	}
}

func TestLoginStoresInKeyringAndLogoutRemoves(t *testing.T) {
	keyring.MockInit()
	const password = testPasswordPrefix + "roundtrip"
	profiles, err := LoadProfiles(filepath.Join(t.TempDir(), "profiles.json"))
	if err != nil {
		t.Fatal(err)
	}
	accept := func(context.Context, string, string, string) error { return nil }
	profile := Profile{Name: "dev", Server: "http://127.0.0.1:8080", User: "analyst", ReadOnly: true}
	if _, _, err := Login(context.Background(), profiles, profile, password, accept); err != nil {
		t.Fatal(err)
	}
	if got, err := LookupPassword(profile.Server, profile.User); err != nil || got != password {
		t.Fatalf("after login: %q, %v", got, err)
	}
	if saved, _ := profiles.Get("dev"); saved != profile || profiles.Default != "dev" {
		t.Fatalf("saved %+v (default %q), want %+v as default", saved, profiles.Default, profile)
	}

	if err := Logout(profile); err != nil {
		t.Fatal(err)
	}
	if _, err := LookupPassword(profile.Server, profile.User); !errors.Is(err, ErrNoPassword) {
		t.Fatalf("after logout: want ErrNoPassword, got %v", err)
	}
	if _, ok := profiles.Get("dev"); !ok {
		t.Fatal("logout must keep the profile, so the next start asks only for the password")
	}
	if err := Logout(profile); !errors.Is(err, ErrNoPassword) || !strings.Contains(err.Error(), "logout dev") {
		t.Fatalf("second logout: want ErrNoPassword naming the profile, got %v", err)
	}

	keyring.MockInitWithError(errNoSessionBus)
	var unavailable *UnavailableError
	if err := Logout(profile); !errors.As(err, &unavailable) {
		t.Fatalf("logout without keyring: want *UnavailableError, got %v", err)
	}
}

func TestLoginNamesAnUnnamedProfile(t *testing.T) {
	keyring.MockInit()
	accept := func(context.Context, string, string, string) error { return nil }
	profiles, err := LoadProfiles(filepath.Join(t.TempDir(), "profiles.json"))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		server, user, want string
	}{
		{"https://dap.example.com", "admin", "default"},
		{"https://dap.example.com/", "admin", "default"}, // the same account keeps its profile
		{"https://qa.example.com:8443", "admin", "qa.example.com"},
		{"https://qa.example.com:9443", "viewer", "viewer-qa.example.com"},
	}
	for _, step := range steps {
		saved, _, err := Login(context.Background(), profiles, Profile{Server: step.server, User: step.user}, testPasswordPrefix+"name", accept)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Name != step.want {
			t.Errorf("%s@%s saved as %q, want %q", step.user, step.server, saved.Name, step.want)
		}
	}
	if profiles.Default != "default" {
		t.Errorf("default %q, want the first profile", profiles.Default)
	}
}
