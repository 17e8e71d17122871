package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// lifetimes is how long a message of each level stays in the status line,
// k9s's flash levels: every one fades, an error last (esc dismisses it
// sooner); all stay whole in the message log (L), so none is lost.
var lifetimes = map[common.Level]time.Duration{
	common.LevelInfo:   4 * time.Second,
	common.LevelNotice: 6 * time.Second,
	common.LevelError:  15 * time.Second,
}

// status is the status line's message.
type status struct {
	level common.Level
	text  string
	seq   int
}

type statusExpiredMsg struct{ seq int }

func (s *status) set(msg common.StatusMsg) tea.Cmd {
	s.seq++
	s.level, s.text = msg.Level, common.Clean(msg.Text) // errors quote what a server said
	seq := s.seq
	return tea.Tick(lifetimes[msg.Level], func(time.Time) tea.Msg { return statusExpiredMsg{seq: seq} })
}

// expire clears the message the tick was set for, not a newer one.
func (s *status) expire(msg statusExpiredMsg) {
	if msg.seq == s.seq {
		s.clear()
	}
}

func (s *status) clear() {
	s.seq++
	s.level, s.text = common.LevelInfo, ""
}
