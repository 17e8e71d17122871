package names

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dapconsole/dapconsole/model"
	"golang.org/x/text/unicode/norm"
)

// MaxBytes is the longest name in bytes: what file systems and the ZIP
// tools the backups go to hold in one path segment.
const MaxBytes = 255

// Check answers why name may not be the name of a file or folder, or nil.
// A name is UTF-8 in normalization form C (so two names never differ by
// normalization alone: two different NFC strings are different text), at
// most MaxBytes long, without leading or trailing spaces, and holds no
// slash, backslash, NUL, character a terminal acts on
// (model.IsTerminalControl) or invisible format character (Unicode Cf, such
// as zero-width spaces and joiners, and the line and paragraph separators).
// "." and ".." are no names.
func Check(name string) error {
	switch {
	case name == "":
		return errors.New("is empty")
	case name == "." || name == "..":
		return fmt.Errorf("%q is no name", name)
	case len(name) > MaxBytes:
		return fmt.Errorf("is %d bytes long, more than %d", len(name), MaxBytes)
	case !utf8.ValidString(name):
		return errors.New("is not UTF-8")
	case strings.TrimSpace(name) != name:
		return errors.New("has leading or trailing spaces")
	}
	for _, r := range name {
		switch {
		case r == '/':
			return errors.New("holds a slash")
		case r == '\\':
			return errors.New("holds a backslash")
		case model.IsTerminalControl(r):
			return fmt.Errorf("holds %U, a control character a terminal would act on", r)
		case unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("holds %U, an invisible format character", r)
		}
	}
	if !norm.NFC.IsNormalString(name) {
		return errors.New("is not in Unicode normalization form C (NFC); send it composed")
	}
	return nil
}
