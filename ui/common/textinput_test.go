package common

import (
	"testing"

	"github.com/dapconsole/dapconsole/theme"
)

// TestTextInputFollowsTheTheme: an input draws in the theme's TextInput
// styles, and one made before the root swapped the styles (the terminal
// reported a light background) draws in the new ones, as one made after.
func TestTextInputFollowsTheTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	view := func(ctx *Context) string {
		f := NewFilterField(ctx, "filter")
		f.SetWidth(40)
		f.Start()
		return f.View()
	}
	dark := NewContext(nil, "", "", "", false)
	f := NewFilterField(dark, "filter")
	f.SetWidth(40)
	f.Start()
	before := f.View()
	if before != view(dark) {
		t.Fatal("two fields alike draw differently")
	}

	dark.Styles = theme.New(false, false)
	light := NewContext(nil, "", "", "", false)
	light.Styles = dark.Styles
	want := view(light)
	if want == before {
		t.Fatal("the light and dark themes draw the same field; the test shows nothing")
	}
	if got := f.View(); got != want {
		t.Errorf("after the new styles the field still draws with the old ones:\n got %q\nwant %q", got, want)
	}
	if plain := theme.New(true, false).TextInput.Focused.Prompt.Render("/"); plain == "/" {
		t.Error("the theme's prompt style draws nothing")
	}
}
