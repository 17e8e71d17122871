package jobs

import (
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The dashboard's rows follow new styles: their caches key on them.
func TestNewStylesRedrawTheRows(t *testing.T) {
	uitest.NewStylesRedraw(t, func() (func() string, *common.Context) {
		p := dashboardAt(t, 100, 12)
		return p.View, p.ctx
	})
}
