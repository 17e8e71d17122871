package uitest

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Screen is a view as plain text: escape sequences and the blanks that end
// each line dropped, every line ended by a newline.
func Screen(view string) string {
	lines := strings.Split(ansi.Strip(view), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
