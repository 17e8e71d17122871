package common

import tea "charm.land/bubbletea/v2"

// Fail is the one way a pane reports a failure: it returns a command
// delivering Failed(action, err).
func Fail(action string, err error) tea.Cmd {
	return func() tea.Msg { return Failed(action, err) }
}

// Failed is the message for a failed action: UnauthorizedMsg for a 401 (the
// root brings the login screen), else an error in the status line that says
// the action and what went wrong in plain words (Explain). It carries err,
// from which the root keeps the header's connection health current. A task
// returns it when it fails before it has a result of its own.
func Failed(action string, err error) tea.Msg {
	if IsUnauthorized(err) {
		return UnauthorizedMsg{Err: err}
	}
	return StatusMsg{Level: LevelError, Text: Explain(action, err), Err: err}
}
