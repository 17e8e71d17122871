package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/ui/common"
)

// noticeLifetime is how long a notice stays; errors stay until replaced or
// dismissed with esc, so none is missed.
const noticeLifetime = 6 * time.Second

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
	if msg.Level == common.LevelError {
		return nil
	}
	seq := s.seq
	return tea.Tick(noticeLifetime, func(time.Time) tea.Msg { return statusExpiredMsg{seq: seq} })
}

// expire clears the message the tick was set for, not a newer one.
func (s *status) expire(msg statusExpiredMsg) {
	if msg.seq == s.seq && s.level != common.LevelError {
		s.clear()
	}
}

func (s *status) clear() {
	s.seq++
	s.level, s.text = common.LevelInfo, ""
}
