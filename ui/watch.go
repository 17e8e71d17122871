package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// defaultWatch is how often the folders and connections panes read again
// what they show, so that changes made elsewhere appear without r.
const defaultWatch = 30 * time.Second

// watch schedules common.WatchTickMsg; ticks drops those of an older
// schedule.
type watch struct {
	every time.Duration // 0 is off
	ticks common.Requests
}

// watchTimerMsg is the watch's timer going off; the root passes it on to
// the panes as common.WatchTickMsg unless an older schedule set it.
type watchTimerMsg struct{ ticket common.Ticket }

// watchRequest is `:watch DURATION|off`.
type watchRequest struct{ every time.Duration }

func (m *Model) scheduleWatch() tea.Cmd {
	if m.watch.every <= 0 {
		m.watch.ticks.Reset()
		return nil
	}
	ticket := m.watch.ticks.Next()
	return tea.Tick(m.watch.every, func(time.Time) tea.Msg { return watchTimerMsg{ticket: ticket} })
}

// watchTick tells the panes to read again, then schedules the next tick.
func (m *Model) watchTick(msg watchTimerMsg) tea.Cmd {
	if !m.watch.ticks.Current(msg.ticket) || m.ctx.Client == nil {
		return nil
	}
	return tea.Batch(m.broadcast(common.WatchTickMsg{}), m.scheduleWatch())
}

func (m *Model) setWatch(every time.Duration) tea.Cmd {
	m.watch.every = every
	text := "folders and connections are read again every " + every.String()
	if every <= 0 {
		text = "watch off: folders and connections are read again with r"
	}
	return tea.Batch(m.scheduleWatch(), common.Info(text))
}

// watchCommand is `:watch`: an interval (5s, 1m, a number of seconds) or off.
func watchCommand() common.Command {
	return common.Command{Name: "watch", Args: "DURATION|off", Help: "read folders and connections again every DURATION (default 30s; off stops)",
		Run: func(args string) tea.Cmd {
			args = strings.TrimSpace(args)
			switch args {
			case "off", "0":
				return common.Send(watchRequest{})
			case "":
				return common.Send(watchRequest{every: defaultWatch})
			}
			d, err := time.ParseDuration(args)
			if secs, atoiErr := strconv.Atoi(args); atoiErr == nil {
				d, err = time.Duration(secs)*time.Second, nil
			}
			if err != nil || d < time.Second {
				return common.Problem(fmt.Sprintf(":watch %s: give an interval of a second or more (10s, 1m) or off", args))
			}
			return common.Send(watchRequest{every: d})
		}}
}
