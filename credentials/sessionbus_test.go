package credentials

import "testing"

func TestWouldAutolaunch(t *testing.T) {
	tests := []struct {
		name, goos, busAddress, display string
		userBus                         bool
		want                            bool
	}{
		{name: "ssh session, no bus", goos: "linux", want: true},
		{name: "desktop with DBUS_SESSION_BUS_ADDRESS", goos: "linux", busAddress: "unix:path=/run/user/1000/bus"},
		{name: "systemd user bus", goos: "linux", userBus: true},
		{name: "bare X11 session", goos: "linux", display: ":0"},
		{name: "freebsd, no bus", goos: "freebsd", want: true},
		{name: "macOS keychain", goos: "darwin"},
		{name: "windows credential manager", goos: "windows"},
	}
	for _, tt := range tests {
		if got := wouldAutolaunch(tt.goos, tt.busAddress, tt.display, tt.userBus); got != tt.want {
			t.Errorf("%s: wouldAutolaunch = %v, want %v", tt.name, got, tt.want)
		}
	}
}
