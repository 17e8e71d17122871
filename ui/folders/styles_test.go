package folders

import (
	"testing"

	"github.com/dapconsole/dapconsole/ui/common"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// The rows and breadcrumbs follow new styles: their caches key on them.
func TestNewStylesRedrawTheRows(t *testing.T) {
	uitest.NewStylesRedraw(t, func() (func() string, *common.Context) {
		p := newTestPane(t, 60, 10)
		return p.View, p.ctx
	})
}
