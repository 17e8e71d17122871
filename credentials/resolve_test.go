package credentials

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestResolve(t *testing.T) {
	const (
		prodServer = "https://dap.example.com"
		devServer  = "http://127.0.0.1:8080"
		stored     = testPasswordPrefix + "stored"
		fromEnv    = testPasswordPrefix + "env"
		typed      = testPasswordPrefix + "typed"
	)
	prod := Profile{Name: "prod", Server: prodServer, User: "admin", ReadOnly: true}
	dev := Profile{Name: "dev", Server: devServer, User: "analyst"}

	tests := []struct {
		name        string
		req         Request
		noProfiles  bool
		keyringErr  error  // nil: a working keyring holding stored for prod's and dev's accounts
		env         string // DAP_PASSWORD
		stdin       *string
		want        Session
		wantAsked   int
		wantErr     string
		wantPrinted string
	}{
		{
			name: "default profile, password from the keyring, nothing asked",
			want: Session{Profile: prod, Password: stored, Source: SourceKeyring},
		},
		{
			name: "named profile",
			req:  Request{Profile: "dev"},
			want: Session{Profile: dev, Password: stored, Source: SourceKeyring},
		},
		{
			name: "DAP_PASSWORD comes before the keyring",
			req:  Request{Profile: "dev"},
			env:  fromEnv,
			want: Session{Profile: dev, Password: fromEnv, Source: SourceEnv},
		},
		{
			name:       "keyring unavailable, DAP_PASSWORD set: silent",
			keyringErr: errNoSessionBus,
			env:        fromEnv,
			want:       Session{Profile: prod, Password: fromEnv, Source: SourceEnv},
		},
		{
			name:        "keyring unavailable: one sentence, then the prompt",
			keyringErr:  errNoSessionBus,
			stdin:       ptr(typed + "\n"),
			want:        Session{Profile: prod, Password: typed, Source: SourcePrompt},
			wantAsked:   1,
			wantPrinted: "The OS keyring is unavailable (no D-Bus session bus",
		},
		{
			name:       "keyring unavailable and no prompt: incomplete, for the login screen",
			keyringErr: errNoSessionBus,
			want:       Session{Profile: prod, Source: SourceNone},
		},
		{
			name:      "nothing stored for these flags: the prompt",
			req:       Request{Server: devServer + "/", User: "viewer"},
			stdin:     ptr(typed + "\n"),
			want:      Session{Profile: Profile{Server: devServer, User: "viewer"}, Password: typed, Source: SourcePrompt},
			wantAsked: 1,
		},
		{
			name: "--server and --user are the account, even where a read-only profile has it (issue 30)",
			req:  Request{Server: prodServer, User: "admin"},
			want: Session{Profile: Profile{Server: prodServer, User: "admin"}, Password: stored, Source: SourceKeyring},
		},
		{
			name: "--server alone finds the profile of that server",
			req:  Request{Server: devServer},
			want: Session{Profile: dev, Password: stored, Source: SourceKeyring},
		},
		{
			name: "--user overrides the default profile's user and drops its name",
			req:  Request{User: "viewer"},
			env:  fromEnv,
			want: Session{Profile: Profile{Server: prodServer, User: "viewer"}, Password: fromEnv, Source: SourceEnv},
		},
		{
			name: "--read-only on a writable profile",
			req:  Request{Profile: "dev", ReadOnly: true},
			want: Session{Profile: Profile{Name: "dev", Server: devServer, User: "analyst", ReadOnly: true}, Password: stored, Source: SourceKeyring},
		},
		{
			name:       "first start: no profile, everything asked",
			noProfiles: true,
			stdin:      ptr("not a url\nhttp://127.0.0.1:8080/\n\nviewer\n" + typed + "\n"),
			want:       Session{Profile: Profile{Server: devServer, User: "viewer"}, Password: typed, Source: SourcePrompt},
			wantAsked:  5, wantPrinted: `server "not a url": want a URL`,
		},
		{
			name:       "first start without a prompt: empty, for the login screen",
			noProfiles: true,
			want:       Session{},
		},
		{
			name:    "unknown profile names the known ones",
			req:     Request{Profile: "qa"},
			wantErr: `profile "qa" not found (profiles: prod, dev)`,
		},
		{
			name:    "bad --server",
			req:     Request{Server: "dap.example.com"},
			wantErr: "want a URL",
		},
		{
			name:       "prompt on a closed stdin says what to do",
			keyringErr: errNoSessionBus,
			stdin:      ptr(""),
			wantErr:    "set DAP_PASSWORD or run dapconsole login",
			wantAsked:  1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keyring.MockInit()
			if err := StorePassword(prodServer, "admin", stored); err != nil {
				t.Fatal(err)
			}
			if err := StorePassword(devServer, "analyst", stored); err != nil {
				t.Fatal(err)
			}
			if tt.keyringErr != nil {
				keyring.MockInitWithError(tt.keyringErr)
			}
			profiles, err := LoadProfiles(filepath.Join(t.TempDir(), "profiles.json"))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.noProfiles {
				profiles.Put(prod)
				profiles.Put(dev)
			}
			env := Env{Profiles: profiles, Getenv: func(name string) string {
				if name == PasswordEnv {
					return tt.env
				}
				return ""
			}}
			var printed strings.Builder
			if tt.stdin != nil {
				env.Prompt = NewPrompter(strings.NewReader(*tt.stdin), &printed)
			}

			got, err := Resolve(tt.req, env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tt.wantErr == "" {
				if tt.keyringErr != nil && tt.env == "" && tt.stdin == nil {
					if !strings.HasPrefix(got.Notice, "The OS keyring is unavailable") {
						t.Errorf("Notice = %q, want the keyring advice", got.Notice)
					}
					got.Notice = ""
				}
				if got != tt.want {
					t.Errorf("session\n got %+v\nwant %+v", got, tt.want)
				}
				if got.Complete() != (tt.want.Source != SourceNone) {
					t.Errorf("Complete() = %v for source %v", got.Complete(), got.Source)
				}
			}
			if env.Prompt != nil && env.Prompt.Asked() != tt.wantAsked {
				t.Errorf("asked %d questions, want %d; printed %q", env.Prompt.Asked(), tt.wantAsked, printed.String())
			}
			if !strings.Contains(printed.String(), tt.wantPrinted) {
				t.Errorf("printed %q, want it to contain %q", printed.String(), tt.wantPrinted)
			}
			if strings.Contains(printed.String(), testPasswordPrefix) {
				t.Errorf("a password was echoed: %q", printed.String())
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestIncompleteOffersWhatWorksHere: with no terminal and no password, the
// error offers dapconsole login only where the keyring could store one.
func TestIncompleteOffersWhatWorksHere(t *testing.T) {
	tests := []struct {
		name       string
		keyringErr error // nil: a working, empty keyring
		want       string
		wantNot    string
	}{
		{"keyring works", nil, "set DAP_PASSWORD, or store it with dapconsole login", "unavailable"},
		{"keyring unavailable", errNoSessionBus, "set DAP_PASSWORD (the OS keyring is unavailable here, so dapconsole login cannot store it)", "store it with"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.keyringErr != nil {
				keyring.MockInitWithError(tt.keyringErr)
			} else {
				keyring.MockInit()
			}
			session, err := Resolve(Request{Server: "http://127.0.0.1:8080", User: "admin"}, Env{})
			if err != nil || session.Complete() {
				t.Fatalf("Resolve: %+v, %v", session, err)
			}
			msg := Incomplete(session).Error()
			if !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.wantNot) {
				t.Errorf("Incomplete: %q, want %q and not %q", msg, tt.want, tt.wantNot)
			}
		})
	}
}
