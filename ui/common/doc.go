// Package common is what every pane of the console shares and nothing else:
// the Pane, Dialog and Command interfaces the root plugs them in by, the
// Context (styles, the one KeyMap, the api client, who is logged in), the
// messages a pane sends the root (StatusMsg through Notify, Info, Problem
// and Fail; OpenDialogMsg, FocusPaneMsg by PaneID, GotoPathMsg), StartTask for work
// off the Update loop, Early for the first frame's reads started before the
// program, Requests for dropping stale results, and the list
// helpers every pane draws with (Fit, FilterField, Needle, Picker, Pager,
// ScrollOffset, PadRight, Clean).
package common
