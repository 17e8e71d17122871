package ui

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dapconsole/dapconsole/model"
	"github.com/dapconsole/dapconsole/ui/common"
)

// licenceWarning is how close a licence's end must be for the header to
// warn of it.
const licenceWarning = 30 * 24 * time.Hour

// platform is what the console knows of the platform it talks to: its
// release (help shows it) and when its licence ends (the header warns
// within licenceWarning). A platform without /rest/license-details leaves
// both empty and nothing is said of it.
type platform struct {
	release string
	ends    time.Time
}

// platformMsg answers the read of the licence.
type platformMsg struct {
	details model.LicenseDetails
	err     error
}

// readPlatform reads the licence quietly: any failure only leaves the
// release and the licence unknown (the panes' reads report the server's
// health), so nothing is said of it, let alone twice.
func (m *Model) readPlatform() tea.Cmd {
	client := m.ctx.Client
	if client == nil {
		return nil
	}
	return common.StartTask("reading the platform's licence", common.Quiet, func(ctx context.Context) tea.Msg {
		details, err := client.LicenseDetails(ctx)
		return platformMsg{details: details, err: err}
	})
}

func (m *Model) gotPlatform(msg platformMsg) {
	if msg.err != nil {
		m.platform = platform{}
		return
	}
	m.platform.release = common.Clean(msg.details.ProductVersion)
	m.platform.ends, _ = time.ParseInLocation(model.DateTimeLayout, msg.details.LicenseExpirationDate, time.Local)
}

// licenceText is the header's warning of a licence ending soon or ended,
// "" otherwise.
func (m *Model) licenceText() string {
	ends := m.platform.ends
	if ends.IsZero() {
		return ""
	}
	left := ends.Sub(m.ctx.Now())
	switch {
	case left <= 0:
		return "licence ended " + ends.Format("Jan 2")
	case left <= licenceWarning:
		return fmt.Sprintf("licence ends in %s", common.Plural(int(left.Hours()/24)+1, "day"))
	}
	return ""
}

// releaseText names the platform's release for help, "" when unknown.
func (m *Model) releaseText() string {
	if m.platform.release == "" {
		return ""
	}
	return " · platform " + m.platform.release
}
