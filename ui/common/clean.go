package common

import "github.com/dapconsole/dapconsole/model"

// Clean makes a string from a server safe to draw (see model.Clean, which
// the command line shares).
func Clean(s string) string { return model.Clean(s) }
