package restoreplan

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// Given secrets leave as a new connection's password does: a SECURE: value
// as typed, else sealed when the client has the target's key, else plain
// for the target to seal; a secret none was given for is needs-secret.
func TestResealSealsWhatLeaves(t *testing.T) {
	var src bytes.Buffer
	zw := zip.NewWriter(&src)
	for _, name := range []string{"a", "b", "c"} {
		w, _ := zw.Create(name + ".dst")
		w.Write([]byte(`{"file":{"path":"/Data/` + name + `.dst","name":"` + name + `"},"properties":{"password":["c2VhbGVk\r\n"],"user_name":["u"]}}`))
	}
	zw.Close()
	archive, _ := zip.NewReader(bytes.NewReader(src.Bytes()), int64(src.Len()))
	secrets := Secrets{"/Data/a.dst": {"password": "plain-a"}, "/Data/b.dst": {"password": "SECURE:0:typed"}}
	seal := func(plain string) string { return "SECURE:0:sealed(" + plain + ")" }
	for _, tc := range []struct {
		name  string
		seal  Seal
		wantA string
	}{{"with the target's key", seal, "SECURE:0:sealed(plain-a)"}, {"without", nil, "plain-a"}} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			needs, needed, err := Reseal(&out, archive, secrets, tc.seal, "/Copied")
			if err != nil {
				t.Fatal(err)
			}
			if len(needs) != 1 || needs[0].Path != "/Copied/c.dst" || needs[0].Action != NeedsSecret || strings.Join(needed["/Data/c.dst"], ",") != "password" {
				t.Fatalf("needs %+v, needed %v", needs, needed)
			}
			got := map[string]string{}
			zr, _ := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
			for _, f := range zr.File {
				r, _ := f.Open()
				var conf model.Configuration
				json.NewDecoder(r).Decode(&conf)
				r.Close()
				got[f.Name] = conf.Properties["password"][0]
			}
			if got["a.dst"] != tc.wantA || got["b.dst"] != "SECURE:0:typed" || got["c.dst"] != "c2VhbGVk\r\n" {
				t.Errorf("passwords sent: %q", got)
			}
		})
	}
}
