package common

import "strconv"

// Plural counts what in English: "1 file", "3 files".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
