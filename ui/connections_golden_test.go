package ui

import (
	"strings"
	"testing"
)

// Golden screens of the connections pane against the embedded platform
// with demo data. Regenerate with `go test ./ui -run TestGoldenConnections -update`.
func TestGoldenConnections(t *testing.T) {
	size := consoleOpts{width: 120, height: 32}
	tests := []struct {
		name  string
		opts  consoleOpts
		drive func(c *console) string
	}{
		{"List", size, func(c *console) string {
			return c.openConnections()
		}},
		{"ListSystemHidden", size, func(c *console) string {
			c.openConnections()
			c.keys(".")
			return c.waitFor("system hidden")
		}},
		{"ListSortedByPathDescending", size, func(c *console) string {
			c.openConnections()
			c.keys("o", "o", "O")
			return c.waitFor("sorted by path")
		}},
		{"ListFilter", size, func(c *console) string {
			c.openConnections()
			c.keys("/")
			c.typeText("jdbc")
			return c.waitFor("3 of 7")
		}},
		{"DetailsMasked", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "j", "i")
			return c.waitQuiet("(secret, masked)", "reading")
		}},
		{"DetailsMaskedKeys", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "j", "j", "j", "i")
			return c.waitQuiet("secret_key", "reading")
		}},
		{"GraphLevel1", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "enter")
			return c.waitQuiet("what it reads from: none", "reading")
		}},
		{"GraphAllLevels", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "enter")
			c.waitQuiet("what it reads from: none", "reading")
			for range 9 {
				c.keys(">")
			}
			return c.waitQuiet("all levels", "reading")
		}},
		{"GraphNoEndpoint", consoleOpts{width: 120, height: 32, wrap: noDependencyEndpoint}, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "enter")
			return c.waitQuiet("no dependency endpoint", "reading")
		}},
		{"NewConnectionKind", size, func(c *console) string {
			c.openConnections()
			c.keys("n")
			return c.waitFor("which kind?")
		}},
		{"NewConnectionForm", size, fillNewConnectionForm},
		// With the server's key at hand (--demo) the form says the password
		// leaves sealed.
		{"NewConnectionFormSealed", consoleOpts{width: 120, height: 32, sealed: true}, fillNewConnectionForm},
		{"DeleteConfirm", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "j", "d") // MYSQL_QA1: nothing depends on it
			return c.waitQuiet("[y] delete", "reading")
		}},
		{"DeleteBlocked", size, func(c *console) string {
			c.openConnections()
			c.keys("j", "j", "d") // Local Files: the imports read it
			c.waitQuiet("[enter] close", "reading")
			c.keys("y") // no yes on offer: the box stays and nothing is sent
			return c.waitQuiet("Cannot delete /Data/Connections/Local Files.dst", "deleting")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startConnectionsConsole(t, tt.opts)
			c.t = t
			screen := tt.drive(c)
			for _, secret := range []string{"warehouse-reader", "s3cret-pw", "demo/secret/key", "AKIADEMO"} {
				if strings.Contains(screen, secret) {
					t.Fatalf("the screen shows the secret %q:\n%s", secret, screen)
				}
			}
			c.golden(uuidPattern.ReplaceAllString(screen, "<uuid>"))
		})
	}
}
