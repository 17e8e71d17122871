package credentials

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/dapconsole/dapconsole/credentials/credtest"
)

// testPasswordPrefix starts every password these tests use, so the leak scan
// (leak_test.go) can look for all of them at once.
const testPasswordPrefix = credtest.PasswordPrefix

// errNoSessionBus is what godbus says on a host with no desktop session.
var errNoSessionBus = errors.New("dbus: couldn't determine address of session bus")

func TestPasswordStoreLookupDelete(t *testing.T) {
	keyring.MockInit()
	const server, user, password = "https://dap.example.com", "admin", testPasswordPrefix + "store"

	if _, err := LookupPassword(server, user); !errors.Is(err, ErrNoPassword) {
		t.Fatalf("lookup before store: want ErrNoPassword, got %v", err)
	}
	if err := StorePassword(server, user, password); err != nil {
		t.Fatal(err)
	}
	if got, err := keyring.Get(Service, "admin@https://dap.example.com"); err != nil || got != password {
		t.Fatalf("keyring entry under service %q, key user@server: got %q, %v", Service, got, err)
	}
	if got, err := LookupPassword(server, user); err != nil || got != password {
		t.Fatalf("lookup: got %q, %v", got, err)
	}
	if _, err := LookupPassword(server, "viewer"); !errors.Is(err, ErrNoPassword) {
		t.Fatalf("another user's lookup: want ErrNoPassword, got %v", err)
	}
	if err := DeletePassword(server, user); err != nil {
		t.Fatal(err)
	}
	if err := DeletePassword(server, user); !errors.Is(err, ErrNoPassword) {
		t.Fatalf("second delete: want ErrNoPassword, got %v", err)
	}
}

func TestUnavailableKeyring(t *testing.T) {
	tests := []struct {
		name        string
		cause       error
		wantMissing string
	}{
		{"no session bus", errNoSessionBus, "no D-Bus session bus"},
		{"autolaunch prevented", errors.New("dbus: invalid bus address (invalid or unsupported transport)"), "no D-Bus session bus"},
		{"autolaunch without X11", errors.New("exec: dbus-launch: Autolaunch requested, but X11 support not compiled in"), "no D-Bus session bus"},
		{"no secret service", errors.New("The name org.freedesktop.secrets was not provided by any .service files"), "no Secret Service"},
		{"locked", errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"), "locked"},
		{"unsupported platform", keyring.ErrUnsupportedPlatform, "no keyring on this platform"},
		{"something else", errors.New("disk on fire"), "disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keyring.MockInitWithError(tt.cause)
			for op, err := range map[string]error{
				"lookup": second(LookupPassword("https://dap.example.com", "admin")),
				"store":  StorePassword("https://dap.example.com", "admin", testPasswordPrefix+"x"),
				"delete": DeletePassword("https://dap.example.com", "admin"),
			} {
				var unavailable *UnavailableError
				if !errors.As(err, &unavailable) {
					t.Fatalf("%s: want *UnavailableError, got %v", op, err)
				}
				if !errors.Is(err, tt.cause) {
					t.Errorf("%s: the cause is lost: %v", op, err)
				}
				if got := unavailable.Missing(); !strings.Contains(got, tt.wantMissing) {
					t.Errorf("%s: Missing() = %q, want it to say %q", op, got, tt.wantMissing)
				}
				advice := unavailable.Advice()
				for _, must := range []string{"unlock a keyring", "DAP_PASSWORD", "type the password at each start", "memory only"} {
					if !strings.Contains(advice, must) {
						t.Errorf("%s: advice %q does not say %q", op, advice, must)
					}
				}
				if strings.Count(advice, ". ") > 0 || !strings.HasSuffix(advice, ".") {
					t.Errorf("%s: advice must be one sentence: %q", op, advice)
				}
			}
		})
	}
}

func TestKeyringCallThatHangsTimesOut(t *testing.T) {
	defer func(old time.Duration) { keyringTimeout = old }(keyringTimeout)
	keyringTimeout = 10 * time.Millisecond
	unblock := make(chan struct{})
	defer close(unblock)

	err := withTimeout(func() error { <-unblock; return nil })
	if !errors.Is(err, errKeyringTimeout) {
		t.Fatalf("want a timeout, got %v", err)
	}
	if got := (&UnavailableError{Cause: err}).Missing(); !strings.Contains(got, "locked") {
		t.Errorf("a timeout should read as a locked keyring, got %q", got)
	}
}

func second[T any](_ T, err error) error { return err }
