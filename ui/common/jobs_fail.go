package common

import tea "charm.land/bubbletea/v2"

// ReportExplained is ReportError in plain words (see Explain): a 401 still
// brings the login screen, anything else is said in the status line.
func ReportExplained(action string, err error) tea.Msg {
	if IsUnauthorized(err) {
		return UnauthorizedMsg{Err: err}
	}
	return StatusMsg{Level: LevelError, Text: Explain(action, err)}
}

// FailExplained returns a command reporting err in plain words (see
// ReportExplained).
func FailExplained(action string, err error) tea.Cmd {
	return func() tea.Msg { return ReportExplained(action, err) }
}
