package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/dapconsole/dapconsole/api"
)

// progressBar draws a transfer's progress on stderr when stderr is a
// terminal, on one line rewritten in place, at most ten times a second.
type progressBar struct {
	w     io.Writer
	label string
	mu    sync.Mutex
	last  time.Time
	drawn bool
}

// newProgress returns the bar's api.ProgressFunc, nil when stderr is not a
// terminal (a script's log gets no carriage returns), and a func that ends
// the line.
func newProgress(sys System, label string) (api.ProgressFunc, func()) {
	if !sys.StderrTerminal {
		return nil, func() {}
	}
	p := &progressBar{w: sys.Stderr, label: label}
	return p.update, p.end
}

const barWidth = 30

func (p *progressBar) update(done, total int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || (total > 0 && done >= total) {
		p.last = now
		p.drawn = true
		if total <= 0 {
			fmt.Fprintf(p.w, "\r%s %s\x1b[K", p.label, humanize.IBytes(uint64(done)))
			return
		}
		filled := int(min(done, total) * barWidth / total)
		fmt.Fprintf(p.w, "\r%s [%s%s] %3d%% %s/%s\x1b[K", p.label, strings.Repeat("=", filled), strings.Repeat(" ", barWidth-filled),
			min(done, total)*100/total, humanize.IBytes(uint64(done)), humanize.IBytes(uint64(total)))
	}
}

func (p *progressBar) end() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
