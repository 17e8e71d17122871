package credentials

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service every dapconsole password is stored under.
const Service = "dapconsole"

// Key is the keyring entry of one account: <user>@<server>.
func Key(user, server string) string { return user + "@" + server }

// keyringTimeout bounds each keyring call: a locked Secret Service waits for an
// unlock prompt that never appears over SSH, and the console must carry on.
var keyringTimeout = 5 * time.Second

// ErrNoPassword means the keyring works but holds no password for the account.
var ErrNoPassword = errors.New("no password stored")

// UnavailableError means the OS keyring cannot be used at all; the console
// then carries on with DAP_PASSWORD or a password typed at each start.
type UnavailableError struct {
	Cause error
}

func (e *UnavailableError) Error() string {
	return "the OS keyring is unavailable (" + e.Missing() + ")"
}

func (e *UnavailableError) Unwrap() error { return e.Cause }

// Missing says in a few words what is missing, from the errors go-keyring and
// D-Bus give on hosts without a desktop session.
func (e *UnavailableError) Missing() string {
	msg := e.Cause.Error()
	switch {
	case errors.Is(e.Cause, errKeyringTimeout):
		return "the keyring did not answer: probably locked, waiting for an unlock prompt"
	case errors.Is(e.Cause, keyring.ErrUnsupportedPlatform):
		return "no keyring on this platform"
	case strings.Contains(msg, "org.freedesktop.secrets"), strings.Contains(msg, "ServiceUnknown"):
		return "no Secret Service on the D-Bus session bus"
	case strings.Contains(msg, "session bus"), strings.Contains(msg, "bus address"), strings.Contains(msg, "DBUS_SESSION_BUS_ADDRESS"),
		strings.Contains(msg, "dbus-launch"), strings.Contains(msg, "X11"):
		return "no D-Bus session bus, as usual over SSH"
	case strings.Contains(msg, "unlock"), strings.Contains(msg, "dismissed"):
		return "the keyring is locked"
	}
	first, _, _ := strings.Cut(msg, ". ") // the advice stays one sentence
	return first
}

// Advice is the one sentence shown when the keyring is unavailable: what is
// missing and what to do instead.
func (e *UnavailableError) Advice() string {
	return "The OS keyring is unavailable (" + e.Missing() + "): unlock a keyring such as gnome-keyring, " +
		"or set DAP_PASSWORD, or type the password at each start (kept in memory only)."
}

var errKeyringTimeout = errors.New("keyring call timed out")

// LookupPassword returns the stored password of user on server: ErrNoPassword
// when there is none, an *UnavailableError when the keyring cannot be used.
func LookupPassword(server, user string) (string, error) {
	var password string
	err := withTimeout(func() error {
		var err error
		password, err = keyring.Get(Service, Key(user, server))
		return err
	})
	switch {
	case err == nil:
		return password, nil
	case errors.Is(err, keyring.ErrNotFound):
		return "", fmt.Errorf("%s: %w", Key(user, server), ErrNoPassword)
	}
	return "", &UnavailableError{Cause: err}
}

// StorePassword stores the password of user on server, replacing any older one.
func StorePassword(server, user, password string) error {
	err := withTimeout(func() error { return keyring.Set(Service, Key(user, server), password) })
	if err != nil {
		return &UnavailableError{Cause: err}
	}
	return nil
}

// DeletePassword removes the stored password of user on server; ErrNoPassword
// when there was none.
func DeletePassword(server, user string) error {
	err := withTimeout(func() error { return keyring.Delete(Service, Key(user, server)) })
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return fmt.Errorf("%s: %w", Key(user, server), ErrNoPassword)
	}
	return &UnavailableError{Cause: err}
}

// withTimeout runs a keyring call and gives up after keyringTimeout. The call's
// goroutine may outlive it, blocked on D-Bus; it ends with the process.
func withTimeout(call func() error) error {
	preventBusAutolaunch()
	done := make(chan error, 1)
	go func() { done <- call() }()
	timer := time.NewTimer(keyringTimeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return errKeyringTimeout
	}
}
