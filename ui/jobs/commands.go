package jobs

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// Commands implements common.Commander.
func (p *Pane) Commands() []common.Command {
	return []common.Command{
		{Name: "trigger", Args: "PATH|ID|UUID", Help: "trigger a job", Run: refCommand("trigger", func(args string) tea.Msg {
			return triggerRequest{ref: parseRef(args)}
		})},
		{Name: "stop", Args: "PATH|ID|UUID", Help: "stop a job (asks first)", Run: refCommand("stop", func(args string) tea.Msg {
			return stopAsk{ref: parseRef(args), label: args}
		})},
		{Name: "seq", Args: "ID|PATH… [name=value…]", Help: "trigger jobs and their dependents in sequence", Run: parsed(func(args string) tea.Msg {
			req, err := parseSequence(args)
			if err != nil {
				return common.Failed("seq", err)
			}
			return req
		})},
		{Name: "history", Args: "PATH|ID|UUID", Help: "history of a job", Run: refCommand("history", func(args string) tea.Msg {
			return historyLookup{ref: parseRef(args)}
		})},
		{Name: "details", Args: "EXECUTION-ID", Help: "details of a job execution", Run: parsed(func(args string) tea.Msg {
			id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(args), "#"), 10, 64)
			if err != nil || id <= 0 {
				return usage("details: give an execution id, e.g. :details 42")
			}
			return detailsRequest{execID: id}
		})},
		{Name: "interval", Args: "DURATION|0", Help: "poll jobs every DURATION (0 turns polling off)", Run: parsed(func(args string) tea.Msg {
			every, err := parseInterval(args)
			if err != nil {
				return common.Failed("interval", err)
			}
			return intervalRequest{every: every}
		})},
	}
}

// parsed turns a parser of a command's arguments into its Run: the pane's
// message, or the usage error, delivered as they are.
func parsed(parse func(args string) tea.Msg) func(string) tea.Cmd {
	return func(args string) tea.Cmd { return common.Send(parse(args)) }
}

func refCommand(name string, build func(args string) tea.Msg) func(string) tea.Cmd {
	return parsed(func(args string) tea.Msg {
		args = strings.TrimSpace(args)
		if args == "" {
			return usage(name + ": give a job's path or file id, e.g. :" + name + " /Data/ImportJobs/Orders.imp")
		}
		return build(args)
	})
}

func usage(text string) tea.Msg { return common.StatusMsg{Level: common.LevelError, Text: text} }

// parseInterval reads "5s", "500ms", a bare number of seconds, or 0.
func parseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil && n >= 0 {
		return time.Duration(n * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errInterval(s)
	}
	return d, nil
}

type errInterval string

func (e errInterval) Error() string {
	return strconv.Quote(string(e)) + " is not a duration: write 5s, 500ms or 0 for off"
}
