package ui

import (
	"strings"
	"testing"
	"time"
)

// A file is deleted from the tree through its kind's own endpoint, against
// the platform: asked first, then gone from the tree; one that others read
// from is refused with the platform's reason, naming them (issue 30: files
// could not be deleted in the tree).
func TestDeleteFilesFromTheTree(t *testing.T) {
	c := startConsole(t, consoleOpts{width: 120, height: 40})
	c.waitFor("Exports/")
	c.keys(":")
	c.typeText("cd /Exports")
	c.keys("enter")
	c.waitFor("at /Exports")
	c.keys("l") // open /Exports
	c.waitFor("Customers per Region.exp")
	c.keys("l") // onto its first file
	c.waitFor("› Exports › Customers per Region.exp")
	c.keys("d")
	c.waitFor("Delete /Exports/Customers per Region.exp?")
	c.keys("y")
	c.waitFor("deleted /Exports/Customers per Region.exp")
	// The tree drops the file once its folder's list is read again after
	// the write, which may come a frame after the status line says so.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		screen := c.screen()
		if !strings.Contains(screen, "  Customers per Region.exp") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted file is still in the tree:\n%s", screen)
		}
	}

	// One that others read from: the platform's refusal, with what reads it.
	c.keys(":")
	c.typeText("cd /Analytics")
	c.keys("enter")
	c.waitFor("at /Analytics")
	c.keys("l")
	c.waitFor("Sales by Region.wbk")
	c.keys("/")
	c.typeText("Sales by Region.wbk")
	c.keys("enter", "G")
	c.waitFor("› Analytics › Sales by Region.wbk")
	c.keys("d")
	c.waitFor("Delete /Analytics/Sales by Region.wbk?")
	c.keys("y")
	c.waitFor("the server refused (409)")
	c.keys("L")
	c.waitFor("/Exports/Sales by Region.exp")
}
