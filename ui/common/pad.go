package common

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// PadRight fills s with spaces to w cells; a wider s comes back as it is.
func PadRight(s string, w int) string {
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return s + strings.Repeat(" ", pad)
	}
	return s
}
