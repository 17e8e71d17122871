package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/credentials"
	"github.com/dapconsole/dapconsole/server"
	"github.com/dapconsole/dapconsole/server/servertest"
)

// startPlatform runs the embedded platform with one user, admin, whose
// password is testPassword, and returns its URL.
func startPlatform(t *testing.T) string {
	t.Helper()
	return servertest.Start(t, server.Config{AdminPassword: testPassword}, nil).URL
}

func TestLoginChecksWithTheServer(t *testing.T) {
	url := startPlatform(t)
	down := httptest.NewServer(nil)
	down.Close() // a port where nothing answers any more

	tests := []struct {
		name, server, user, password string
		wantErr                      string
	}{
		{name: "right password", server: url, user: "admin", password: testPassword},
		{name: "wrong password", server: url, user: "admin", password: "dap-test-pw-wrong", wantErr: "the server refused this user and password"},
		{name: "unknown user", server: url, user: "nobody", password: testPassword, wantErr: "401"},
		{name: "server down", server: down.URL, user: "admin", password: testPassword, wantErr: "server unreachable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mockKeyring(t, nil)
			ta := newTestAccount(t, tt.password+"\n")
			ta.verify = credentials.CheckWithServer
			err := login([]string{"--server", tt.server, "--user", tt.user}, ta.accountIO)
			_, lookupErr := credentials.LookupPassword(strings.TrimRight(tt.server, "/"), tt.user)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
				if strings.Contains(err.Error(), tt.password) {
					t.Fatalf("the error shows the password: %v", err)
				}
				if lookupErr == nil {
					t.Fatal("a refused password reached the keyring")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if lookupErr != nil {
				t.Fatalf("the accepted password is not in the keyring: %v", lookupErr)
			}
		})
	}
}
