package jobs

import (
	"strings"
	"testing"
)

// TestFilterCountsAndNegates: the filter line counts what the filter left,
// and a leading ! keeps the rows that do not match.
func TestFilterCountsAndNegates(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	press(p, "/", "!", "r", "u", "n", "enter")
	for _, r := range p.table.view {
		if strings.Contains(r.haystack, "run") {
			t.Errorf("!run kept %s (%s)", r.label(), r.state)
		}
	}
	if len(p.table.view) != 3 {
		t.Errorf("!run left %d rows, want 3 (completed, queued, waiting)", len(p.table.view))
	}
	if view := screen(p.View()); !strings.Contains(view, "/!run  3 of 5") {
		t.Errorf("the filter line does not count:\n%s", view)
	}
}
