package credentials

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/zalando/go-keyring"
)

// BenchmarkResolve is what a console start spends on credentials besides
// the keyring itself: reading a profiles file of 50 profiles and resolving.
func BenchmarkResolve(b *testing.B) {
	keyring.MockInit()
	path := filepath.Join(b.TempDir(), "profiles.json")
	profiles, err := LoadProfiles(path)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		profiles.Put(Profile{Name: fmt.Sprintf("p%02d", i), Server: fmt.Sprintf("https://dap%02d.example.com", i), User: "admin"})
	}
	if err := profiles.Save(); err != nil {
		b.Fatal(err)
	}
	if err := StorePassword("https://dap49.example.com", "admin", testPasswordPrefix+"bench"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		loaded, err := LoadProfiles(path)
		if err != nil {
			b.Fatal(err)
		}
		session, err := Resolve(Request{Profile: "p49"}, Env{Profiles: loaded})
		if err != nil || session.Source != SourceKeyring {
			b.Fatalf("%v %v", session.Source, err)
		}
	}
}
