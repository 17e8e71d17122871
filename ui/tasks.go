package ui

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/common"
)

// task is a piece of background work the status line shows.
type task struct {
	label    string
	transfer bool
	// done and total are a transfer's bytes so far (total -1: not known),
	// for the header.
	done, total int64
	quiet       bool
	started     time.Time
	cancel      context.CancelFunc
}

// tasks are the running tasks, by id.
type tasks struct {
	running map[int64]task
}

// start records a task started at now; the first shown one starts the
// spinner.
func (t *tasks) start(msg common.TaskStartedMsg, now time.Time, tick tea.Cmd) tea.Cmd {
	first := t.shown() == 0
	t.running[msg.ID] = task{label: msg.Label, transfer: msg.Transfer, quiet: msg.Quiet, started: now, cancel: msg.Cancel}
	if first && !msg.Quiet {
		return tick
	}
	return nil
}

func (t *tasks) done(id int64) { delete(t.running, id) }

// progress notes how far the transfer named by msg's label is.
func (t *tasks) progress(msg common.TransferProgressMsg) {
	for id, tk := range t.running {
		if tk.transfer && tk.label == msg.Label {
			tk.done, tk.total = msg.Done, msg.Total
			t.running[id] = tk
		}
	}
}

// transferText says how far the oldest running transfer is, for the
// header: "⇅ backup of /Data 42%", "" when none runs.
func (t *tasks) transferText() string {
	var oldest *task
	for _, tk := range t.running {
		if tk.transfer && (oldest == nil || tk.started.Before(oldest.started)) {
			tk := tk
			oldest = &tk
		}
	}
	if oldest == nil {
		return ""
	}
	label := ansi.Truncate(oldest.label, 28, "…")
	if oldest.total > 0 {
		return fmt.Sprintf("⇅ %s %.0f%%", label, 100*float64(oldest.done)/float64(oldest.total))
	}
	return fmt.Sprintf("⇅ %s %s", label, humanize.IBytes(uint64(oldest.done)))
}

// shown counts the tasks the status line shows.
func (t *tasks) shown() int {
	n := 0
	for _, tk := range t.running {
		if !tk.quiet {
			n++
		}
	}
	return n
}

// oldest returns the shown task running longest, for the status line.
func (t *tasks) oldest() (task, bool) {
	var best task
	found := false
	for _, tk := range t.running {
		if tk.quiet {
			continue
		}
		if !found || tk.started.Before(best.started) {
			best, found = tk, true
		}
	}
	return best, found
}

// transfers returns the labels of running transfers, sorted.
func (t *tasks) transfers() []string {
	var out []string
	for _, tk := range t.running {
		if tk.transfer {
			out = append(out, tk.label)
		}
	}
	sort.Strings(out)
	return out
}

func (t *tasks) cancelAll() {
	for _, tk := range t.running {
		tk.cancel()
	}
}

// Connection health as the header shows it.
type healthState int

const (
	healthUnknown healthState = iota
	healthUp
	healthDown
	healthUnauthorized
)

// slowAfter is how long a task runs before the header calls the server slow.
const slowAfter = 2 * time.Second

// heartbeatEvery is the interval of the health check while nothing else
// talks to the server; a check never overlaps the previous one.
const heartbeatEvery = 20 * time.Second

type health struct {
	state healthState
}

// healthMsg is the outcome of a heartbeat.
type healthMsg struct{ err error }

func (h healthMsg) Failure() error { return h.err }

type heartbeatMsg struct{}

// observe reads the outcome of any result that carries one (a
// common.Failer).
func (h *health) observe(msg tea.Msg) {
	if f, ok := msg.(common.Failer); ok {
		h.observeErr(f.Failure())
	}
}

// observeErr reads an outcome: a server that answered, even with a
// refusal, is up; no answer (refused, timed out) means down. The client
// wraps both in *api.Error, so the HTTP status tells them apart: 0 when no
// answer came. An error the client did not return (a local file, an
// argument), or one it never sent (api.IsNotSent: a read-only session's
// write), says nothing of the server.
func (h *health) observeErr(err error) {
	var apiErr *api.Error
	switch {
	case err == nil:
		h.state = healthUp
	case common.IsUnauthorized(err):
		h.state = healthUnauthorized
	case errors.Is(err, context.Canceled), api.IsNotSent(err), !errors.As(err, &apiErr):
	case apiErr.Status != 0:
		h.state = healthUp
	default:
		h.state = healthDown
	}
}

func (m *Model) scheduleHeartbeat() tea.Cmd {
	return tea.Tick(heartbeatEvery, func(time.Time) tea.Msg { return heartbeatMsg{} })
}

// heartbeat reads the root folder, the cheapest authenticated call.
func (m *Model) heartbeat() tea.Cmd {
	client := m.ctx.Client
	if client == nil {
		return m.scheduleHeartbeat()
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), heartbeatEvery/2)
		defer cancel()
		_, err := client.RootFolder(ctx)
		return healthMsg{err: err}
	}
}
