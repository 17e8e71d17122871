package login

import (
	"testing"

	"github.com/dapconsole/dapconsole/api"
	"github.com/dapconsole/dapconsole/ui/uitest"
)

// BenchmarkScreenView renders the login screen as the root does on every
// frame while it is open.
func BenchmarkScreenView(b *testing.B) {
	ctx := newContext(api.New("http://127.0.0.1:8080", "admin", "x"), "http://127.0.0.1:8080", "admin", "local")
	s := New(ctx, Config{}, "")
	s.SetSize(100, 30)
	uitest.Type(s, testPassword)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View()
	}
}
