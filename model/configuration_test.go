package model_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dapconsole/dapconsole/model"
)

// A workbook as the real platform writes it, with fields this package does
// not know at the top and inside its sheets.
const platformWorkbook = `{"version":"7","className":"datameer.dap.common.entity.WorkbookConfigurationImpl",` +
	`"file":{"uuid":"u-wbk","path":"/Analytics/Sales.wbk","description":"","name":"Sales"},"typeId":"das.WorkbookType",` +
	`"pullType":"NONE","minKeepCount":0,"properties":{"sql":["SELECT 1"]},"hadoopProperties":"das.job.queue=etl",` +
	`"sheets":[{"name":"Orders","datasource":{"path":"/Data/Orders.imp","uuid":"u-imp"},"sheetId":"s1","keep":true,"columnStyles":[]},` +
	`{"name":"Joined","sheetType":"FormulaSheet"}],` +
	`"advancedSchedulingInUse":false,"errorHandlingMode":"IGNORE","notificationAddresses":""}`

func TestConfigurationKeepsWhatItDoesNotKnow(t *testing.T) {
	var cfg model.Configuration
	if err := json.Unmarshal([]byte(platformWorkbook), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.PullType != "NONE" || cfg.MinKeepCount == nil || *cfg.MinKeepCount != 0 || cfg.HadoopProperties != "das.job.queue=etl" {
		t.Errorf("known fields %q %v %q", cfg.PullType, cfg.MinKeepCount, cfg.HadoopProperties)
	}
	if got := cfg.Links(); !reflect.DeepEqual(got, []model.SourceRef{{Path: "/Data/Orders.imp", UUID: "u-imp"}}) {
		t.Errorf("links %+v", got)
	}
	out, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	json.Unmarshal([]byte(platformWorkbook), &want)
	json.Unmarshal(out, &got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip changed the representation:\n got %s\nwant %s", out, platformWorkbook)
	}
}

func TestConfigurationReadsLegacySourcesNeverWritesThem(t *testing.T) {
	// encoding/json reads a member's name in any case, and so does a
	// restore's index: the configuration must read the same links.
	for _, name := range []string{"sources", "Sources", "SOURCES"} {
		t.Run(name, func(t *testing.T) {
			var cfg model.Configuration
			legacy := `{"version":"1","file":{"path":"/P/Sales.wbk"},"properties":{},"` + name + `":[{"path":"/P/Orders.imp"},{"uuid":"u-2","path":"/P/Customers.lnk"}]}`
			if err := json.Unmarshal([]byte(legacy), &cfg); err != nil {
				t.Fatal(err)
			}
			if len(cfg.Sources) != 2 || cfg.Extra != nil {
				t.Fatalf("sources %+v, extra %v", cfg.Sources, cfg.Extra)
			}
			out, _ := json.Marshal(cfg)
			if strings.Contains(strings.ToLower(string(out)), "sources") {
				t.Errorf("legacy sources written back: %s", out)
			}
		})
	}
}

func TestAdoptSources(t *testing.T) {
	conn := model.SourceRef{Path: "/P/Files.dst", UUID: "u-c"}
	imp := model.SourceRef{Path: "/P/Orders.imp", UUID: "u-i"}
	wbk := model.SourceRef{Path: "/P/Sales.wbk", UUID: "u-w"}
	tests := []struct {
		kind    model.Kind
		sources []model.SourceRef
		want    string // the links as JSON
	}{
		{model.KindImportJob, []model.SourceRef{conn}, `"dataStore":{"path":"/P/Files.dst","uuid":"u-c"}`},
		{model.KindDataLink, []model.SourceRef{{UUID: "u-c"}}, `"dataStore":{"uuid":"u-c"}`},
		{model.KindWorkbook, []model.SourceRef{imp, wbk},
			`"sheets":[{"name":"Orders","datasource":{"path":"/P/Orders.imp","uuid":"u-i"}},{"name":"Sales","datasource":{"path":"/P/Sales.wbk","uuid":"u-w"}}]`},
		{model.KindExportJob, []model.SourceRef{wbk, conn},
			`"connection":"/P/Files","sheet":{"name":"Sales","workbook":"/P/Sales.wbk"}`},
		{model.KindFileUpload, []model.SourceRef{{UUID: "u-c"}}, `"dataStore":{"uuid":"u-c"}`},
		{model.KindInfographic, []model.SourceRef{wbk}, `"sheets":[{"name":"Sales","datasource":{"path":"/P/Sales.wbk","uuid":"u-w"}}]`},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			cfg := model.Configuration{Sources: tt.sources}
			cfg.AdoptSources(tt.kind)
			out, _ := json.Marshal(cfg)
			if !strings.Contains(string(out), tt.want) || cfg.Sources != nil {
				t.Errorf("%s, want it to hold %s", out, tt.want)
			}
			if len(cfg.Links()) != len(tt.sources) {
				t.Errorf("%d links, want %d", len(cfg.Links()), len(tt.sources))
			}
		})
	}
}

func TestSetLinksFollowsLinksOrder(t *testing.T) {
	cfg := model.Configuration{
		DataStore: &model.SourceRef{Path: "/a.dst"},
		Sheet:     &model.ExportSheet{Name: "S", Workbook: &model.PathRef{Path: "/b.wbk"}},
		Sheets:    []model.Sheet{{Name: "computed"}, {Name: "c", Datasource: &model.SourceRef{Path: "/c.imp"}}},
	}
	links := cfg.Links()
	if len(links) != 3 || links[0].Path != "/a.dst" || links[1].Path != "/b.wbk" || links[2].Path != "/c.imp" {
		t.Fatalf("links %+v", links)
	}
	cfg.SetLinks([]model.SourceRef{{UUID: "1"}, {UUID: "2"}, {UUID: "3"}})
	if cfg.DataStore.UUID != "1" || cfg.Sheet.Workbook.UUID != "2" || cfg.Sheets[1].Datasource.UUID != "3" || cfg.Sheets[0].Datasource != nil {
		t.Errorf("after SetLinks %+v", cfg)
	}
}

func TestConfigurationRefusesKnownFieldsOfTheWrongType(t *testing.T) {
	for _, body := range []string{`{"pullType":7}`, `{"sheets":{}}`, `{"sheets":[{"datasource":"x"}]}`, `{"dataStore":[]}`, `{"sources":{}}`, `[]`} {
		var cfg model.Configuration
		if err := json.Unmarshal([]byte(body), &cfg); err == nil {
			t.Errorf("%s decoded without error", body)
		}
	}
}

// TestConfigurationFindsUnknownMembers: members the configuration does not
// know are kept wherever they stand, whatever the values before them hold
// (brackets and quotes in strings, nested objects) and however their
// names are written (any case, escapes, non-ASCII).
func TestConfigurationFindsUnknownMembers(t *testing.T) {
	tests := []struct {
		name, json string
		extra      []string
	}{
		{"none", `{"version":"7","properties":{"a":["{\"}","]"]},"sheets":[{"name":"x"}],"minKeepCount":0,"dataStore":null}`, nil},
		{"empty", `{}`, nil},
		{"spaces", " {\n\t\"version\" :\r\"7\" , \"file\" : { \"name\" : \"n\" } }\n", nil},
		{"known in any case", `{"VERSION":"7","ClassName":"c"}`, nil},
		{"known with an escape", `{"versio\u006e":"7"}`, nil},
		{"unknown last", `{"version":"7","properties":{"k":["v"]},"layout":{"pages":[1,{"a":"}"}]}}`, []string{"layout"}},
		{"unknown first", `{"zzz":true,"version":"7"}`, []string{"zzz"}},
		{"unknown after a string with quotes", `{"version":"a\"}\\","x":1}`, []string{"x"}},
		{"unknown with an escape", `{"version":"7","a\u0062c":1}`, []string{"abc"}},
		{"unknown non-ASCII", `{"naïve":1}`, []string{"naïve"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg model.Configuration
			if err := json.Unmarshal([]byte(tt.json), &cfg); err != nil {
				t.Fatal(err)
			}
			var got []string
			for name := range cfg.Extra {
				got = append(got, name)
			}
			if !reflect.DeepEqual(got, tt.extra) {
				t.Errorf("extra %v, want %v", got, tt.extra)
			}
		})
	}
}
