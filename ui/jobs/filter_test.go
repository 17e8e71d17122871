package jobs

import (
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/ui/uitest"
)

// TestFilterCountsAndNegates: the filter line counts what the filter left,
// and a leading ! keeps the rows that do not match.
func TestFilterCountsAndNegates(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	uitest.Press(p, "/", "!", "r", "u", "n", "enter")
	for _, r := range p.table.view {
		if strings.Contains(r.haystack, "run") {
			t.Errorf("!run kept %s (%s)", r.label(), r.state)
		}
	}
	if len(p.table.view) != 3 {
		t.Errorf("!run left %d rows, want 3 (completed, queued, waiting)", len(p.table.view))
	}
	if view := uitest.Screen(p.View()); !strings.Contains(view, "/!run  3 of 5") {
		t.Errorf("the filter line does not count:\n%s", view)
	}
}

// TestDirectSortKeys: shift+letter sorts by the column it names; the same
// key again reverses the order.
func TestDirectSortKeys(t *testing.T) {
	p := dashboardAt(t, 100, 12)
	uitest.Press(p, "S")
	if p.table.sortBy != colState || p.table.reverse {
		t.Fatalf("S: sort %s reverse %v", columnNames[p.table.sortBy], p.table.reverse)
	}
	uitest.Press(p, "S")
	if p.table.sortBy != colState || !p.table.reverse {
		t.Errorf("S again: sort %s reverse %v, want state reversed", columnNames[p.table.sortBy], p.table.reverse)
	}
	uitest.Press(p, "U")
	if p.table.sortBy != colUser || p.table.reverse {
		t.Errorf("U: sort %s reverse %v", columnNames[p.table.sortBy], p.table.reverse)
	}
	if view := uitest.Screen(p.View()); !strings.Contains(view, "sorted by user") || !strings.Contains(view, "user▲") {
		t.Errorf("the header does not show the sort:\n%s", view)
	}
}
