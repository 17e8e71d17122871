package jobs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// Commands implements common.Commander.
func (p *Pane) Commands() []common.Command {
	return []common.Command{
		{Name: "trigger", Args: "PATH|ID|UUID", Help: "trigger a job", Run: refCommand("trigger", func(args string) tea.Msg {
			return triggerRequest{ref: api.ParseRef(args)}
		})},
		{Name: "stop", Args: "PATH|ID|UUID", Help: "stop a job (asks first)", Run: refCommand("stop", func(args string) tea.Msg {
			return stopAsk{ref: api.ParseRef(args), label: args}
		})},
		{Name: "seq", Args: "ID|PATH… [name=value…]", Help: "trigger jobs and their dependents in sequence", Run: func(args string) tea.Cmd {
			req, err := parseSequence(args)
			if err != nil {
				return common.Problem("seq: " + err.Error())
			}
			return common.Send(req)
		}},
		{Name: "history", Args: "PATH|ID|UUID", Help: "history of a job", Run: refCommand("history", func(args string) tea.Msg {
			return historyLookup{ref: api.ParseRef(args)}
		})},
		{Name: "details", Args: "EXECUTION-ID", Help: "details of a job execution", Run: func(args string) tea.Cmd {
			id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(args), "#"), 10, 64)
			if err != nil || id <= 0 {
				return common.Problem("details: give an execution id, e.g. :details 42")
			}
			return common.Send(detailsRequest{execID: id})
		}},
		{Name: "interval", Args: "DURATION|0", Help: "poll jobs every DURATION (0 turns polling off)", Run: func(args string) tea.Cmd {
			every, err := parseInterval(args)
			if err != nil {
				return common.Problem("interval: " + err.Error())
			}
			return common.Send(intervalRequest{every: every})
		}},
	}
}

// refCommand is the Run of a command that takes a job: the message build
// makes of its reference, or the problem of a missing one.
func refCommand(name string, build func(ref string) tea.Msg) func(string) tea.Cmd {
	return func(args string) tea.Cmd {
		args = strings.TrimSpace(args)
		if args == "" {
			return common.Problem(name + ": give a job's path or file id, e.g. :" + name + " /Data/ImportJobs/Orders.imp")
		}
		return common.Send(build(args))
	}
}

// parseInterval reads "5s", "500ms", a bare number of seconds, or 0; a
// duration under the floor (intervals[0]) is refused.
func parseInterval(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.ParseFloat(s, 64); nerr == nil && n >= 0 {
		d, err = time.Duration(n*float64(time.Second)), nil
	}
	switch {
	case err != nil || d < 0:
		return 0, errInterval(s)
	case d > 0 && d < intervals[0]:
		return 0, fmt.Errorf("%q is shorter than %s, the shortest poll interval", s, shortDuration(intervals[0]))
	}
	return d, nil
}

type errInterval string

func (e errInterval) Error() string {
	return strconv.Quote(string(e)) + " is not a duration: write 5s, 500ms or 0 for off"
}
