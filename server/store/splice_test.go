package store

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// decoded is the representation the long way: decoded, secrets encoded,
// encoded again; what spliceRepresentation must match byte for byte.
func decoded(stored string, f File) ([]byte, error) {
	cfg, err := configurationOf(f, stored, nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(EncodeSecrets(cfg))
}

var spliceFile = File{Path: "/Data/Connections/Ware <house>.dst", Name: "Ware <house>.dst", Kind: model.KindConnection,
	UUID: "0b0e3f39-5f34-4f0a-9d55-5d2c1f6b8a11", Description: "replica & \"spare\"\nline two"}

// storedSamples are configurations as storedJSON keeps them: a database
// connection with a sealed secret, one with fields the model does not know,
// text that json.Marshal escapes, and the fewest members a file has.
func storedSamples(t testing.TB) []string {
	return storedSamplesSealedBy(t, sampleSecrets(t))
}

func sampleSecrets(t testing.TB) *Secrets {
	secrets, err := OpenSecrets(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return secrets
}

func storedSamplesSealedBy(t testing.TB, secrets *Secrets) []string {
	q := Queries{secrets: secrets}
	keep := 3
	configs := []model.Configuration{
		{Version: "2.1", ClassName: "datameer.dap.common.entity.DataBaseConnection", TypeID: "das.JdbcDataStoreType",
			Properties: map[string][]string{model.PropConnectionURL: {"jdbc:postgresql://db:5432/w"}, model.PropUserName: {"reader"},
				model.PropPassword: {"s3cret"}, "ssh_key": {"k1", "k2"}, "empty": {}},
			DBType: &model.DBType{Name: "PostgreSQL"}},
		{Version: "1", ClassName: "c", TypeID: "t", PullType: "FULL", MinKeepCount: &keep, HadoopProperties: "a=b\nc=d",
			Properties: map[string][]string{"query": {"SELECT \"x\" FROM t WHERE a < 3 & b > 2\t-- é ✓ \u2028"}},
			Extra:      map[string]json.RawMessage{"zeta": json.RawMessage(`{"a":[1,2.5e3,-0.5,true,null,"\u0041"]}`), "alpha": json.RawMessage(`"x"`)}},
		{Version: "1", Properties: map[string][]string{}},
		{Version: "ünïcode", ClassName: "<b>", Properties: map[string][]string{"k<": {"v"}}},
	}
	var out []string
	for _, cfg := range configs {
		stored, err := q.storedJSON(cfg)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, stored)
	}
	return out
}

func TestSpliceMatchesDecoding(t *testing.T) {
	for i, stored := range storedSamples(t) {
		want, err := decoded(stored, spliceFile)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := spliceRepresentation(stored, spliceFile)
		switch {
		case !ok && i < 3: // the last sample has an escaped property name: decoded, as it may be
			t.Errorf("sample %d not spliced: %s", i, stored)
		case ok && string(got) != string(want):
			t.Errorf("sample %d spliced\n%s\nwant\n%s", i, got, want)
		}
	}
}

func TestSpliceLeavesOtherFormsToDecoding(t *testing.T) {
	for name, stored := range map[string]string{
		"legacy sources":       `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"sources":[{"path":"/a.dst"}]}`,
		"link":                 `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"dataStore":{"path":"/a.dst"}}`,
		"member in other case": `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"PullType":"x"}`,
		"out of order":         `{"className":"","version":"1","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{}}`,
		"not compact":          `{"version": "1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{}}`,
		"missing member":       `{"version":"1","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{}}`,
		"null properties":      `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":null}`,
		"unsorted extras":      `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"b":1,"a":2}`,
		"Kelvin sign":          "{\"version\":\"1\",\"className\":\"\",\"file\":{\"uuid\":\"\",\"path\":\"\",\"description\":\"\",\"name\":\"\"},\"typeId\":\"\",\"properties\":{},\"min\u212aeepCount\":2}",
		"escaped differently":  `{"version":"\u0031","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{}}`,
	} {
		if got, ok := spliceRepresentation(stored, spliceFile); ok {
			t.Errorf("%s: spliced %s", name, got)
		}
	}
}

// TestSplicedMembersAreTheModels: storedMembers and the links follow
// model.Configuration's JSON fields in order; a field added to the model
// must be added there, or spliced backups would lose it.
func TestSplicedMembersAreTheModels(t *testing.T) {
	var want []string
	typ := reflect.TypeFor[model.Configuration]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			want = append(want, strings.ToLower(name))
		}
	}
	if !reflect.DeepEqual(configurationFields, want) {
		t.Errorf("spliced members %v, model.Configuration's %v", configurationFields, want)
	}
	if b, _ := json.Marshal(model.DBType{Name: "x"}); string(b) != `{"name":"x"}` {
		t.Errorf("model.DBType encodes as %s; the splicer copies only {\"name\":...}", b)
	}
}

func FuzzSpliceMatchesDecoding(f *testing.F) {
	for _, stored := range storedSamples(f) {
		f.Add(stored, spliceFile.Path, spliceFile.Description)
	}
	f.Fuzz(func(t *testing.T, stored, path, description string) {
		file := File{Path: path, Name: path[strings.LastIndexByte(path, '/')+1:], Kind: model.KindConnection,
			UUID: spliceFile.UUID, Description: description}
		got, ok := spliceRepresentation(stored, file)
		if !ok {
			return
		}
		want, err := decoded(stored, file)
		if err != nil {
			t.Fatalf("spliced %q, which does not decode: %v", stored, err)
		}
		if string(got) != string(want) {
			t.Fatalf("stored %q\nspliced %s\nwant    %s", stored, got, want)
		}
	})
}

// representationSamples are storedSamples as a backup writes them, and
// the secrets that sealed them.
func representationSamples(t testing.TB) ([]string, *Secrets) {
	secrets := sampleSecrets(t)
	var out []string
	for _, stored := range storedSamplesSealedBy(t, secrets) {
		representation, err := decoded(stored, spliceFile)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(representation))
	}
	return out, secrets
}

// storedByDecoding is a representation's stored form the long way, as a
// restore of it makes it without storedRepresentation.
func storedByDecoding(representation string, secrets *Secrets) (string, model.FileInfo, error) {
	var cfg model.Configuration
	if err := json.Unmarshal([]byte(representation), &cfg); err != nil {
		return "", model.FileInfo{}, err
	}
	if len(cfg.Links()) > 0 || cfg.Sources != nil {
		return "", model.FileInfo{}, errors.New("has links")
	}
	stored, err := Queries{secrets: secrets}.storedJSON(cfg)
	return stored, cfg.File, err
}

func TestStoredRepresentationMatchesDecoding(t *testing.T) {
	samples, secrets := representationSamples(t)
	for i, representation := range samples {
		want, wantFile, err := storedByDecoding(representation, secrets)
		if err != nil {
			t.Fatal(err)
		}
		got, file, ok := storedRepresentation(nil, []byte(representation), secrets.acceptSealed)
		switch {
		case !ok && i < 3: // the last sample has an escaped property name: decoded, as it may be
			t.Errorf("sample %d not spliced: %s", i, representation)
		case ok && (string(got) != want || file != wantFile):
			t.Errorf("sample %d spliced\n%s %+v\nwant\n%s %+v", i, got, file, want, wantFile)
		}
	}
}

func TestStoredRepresentationLeavesOtherFormsToDecoding(t *testing.T) {
	samples, secrets := representationSamples(t)
	plain := strings.Replace(samples[0], `"password":["`, `"password":["plain`, 1)
	foreign := strings.Replace(samples[0], `"password":["`, `"password":["AAAA`, 1)
	for name, representation := range map[string]string{
		"plain secret":        plain,
		"another key's":       foreign,
		"file out of order":   `{"version":"1","className":"","file":{"path":"","uuid":"","description":"","name":""},"typeId":"","properties":{}}`,
		"file member missing": `{"version":"1","className":"","file":{"uuid":"","path":"","description":""},"typeId":"","properties":{}}`,
		"link":                `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"dataStore":{"path":"/a.dst"}}`,
		"legacy sources":      `{"version":"1","className":"","file":{"uuid":"","path":"","description":"","name":""},"typeId":"","properties":{},"sources":[{"path":"/a.dst"}]}`,
	} {
		if representation == samples[0] {
			t.Fatalf("%s: the sample has no password to change", name)
		}
		if got, _, ok := storedRepresentation(nil, []byte(representation), secrets.acceptSealed); ok {
			t.Errorf("%s: spliced %s", name, got)
		}
	}
}

// FuzzStoredRepresentationMatchesDecoding: whatever storedRepresentation
// takes, decoding and encoding makes the same stored bytes of, and reads
// the same file member from.
func FuzzStoredRepresentationMatchesDecoding(f *testing.F) {
	samples, secrets := representationSamples(f)
	for _, representation := range samples {
		f.Add(representation)
	}
	f.Fuzz(func(t *testing.T, representation string) {
		got, file, ok := storedRepresentation(nil, []byte(representation), secrets.acceptSealed)
		if !ok {
			return
		}
		want, wantFile, err := storedByDecoding(representation, secrets)
		if err != nil {
			t.Fatalf("spliced %q, which does not decode: %v", representation, err)
		}
		if string(got) != want || file != wantFile {
			t.Fatalf("representation %q\nspliced %s %+v\nwant    %s %+v", representation, got, file, want, wantFile)
		}
	})
}
