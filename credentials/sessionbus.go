package credentials

import (
	"fmt"
	"os"
	"runtime"
	"sync"
)

var busAutolaunchOnce sync.Once

// preventBusAutolaunch stops godbus from starting a D-Bus daemon of its own
// (dbus-launch --autolaunch) when the host has no session bus, as over SSH:
// that daemon and the gnome-keyring it activates outlive the console, one
// pair per start, and their keyring is locked anyway. go-keyring has no
// option for it; godbus autolaunches only while DBUS_SESSION_BUS_ADDRESS is
// empty, so an address no transport accepts turns the attempt into an error.
// A desktop session has a bus address or /run/user/UID/bus; a bare X11
// session (DISPLAY set) keeps autolaunch, which is what it is for.
func preventBusAutolaunch() {
	busAutolaunchOnce.Do(func() {
		_, err := os.Stat(fmt.Sprintf("/run/user/%d/bus", os.Getuid()))
		if wouldAutolaunch(runtime.GOOS, os.Getenv("DBUS_SESSION_BUS_ADDRESS"), os.Getenv("DISPLAY"), err == nil) {
			os.Setenv("DBUS_SESSION_BUS_ADDRESS", noSessionBusAddress)
		}
	})
}

// wouldAutolaunch reports whether godbus would start a bus of its own where
// no X11 session asks for one.
func wouldAutolaunch(goos, busAddress, display string, userBusExists bool) bool {
	return goos != "darwin" && goos != "windows" && busAddress == "" && display == "" && !userBusExists
}

// noSessionBusAddress is the address preventBusAutolaunch sets; godbus
// rejects it as "invalid bus address".
const noSessionBusAddress = "none:"
