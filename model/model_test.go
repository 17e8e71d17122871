package model_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dapconsole/dapconsole/model"
)

func mustTime(t *testing.T, layout, value string) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation(layout, value, time.Local)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// sameJSON compares two JSON texts as values, ignoring key order and spacing.
func sameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("not JSON: %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad test JSON: %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON\n%s\nwant\n%s", got, want)
	}
}

// TestRoundTripRecordedBodies decodes bodies the real platform sends (from
// spec/platform-examples.md) and encodes them again: nothing is lost or added.
func TestRoundTripRecordedBodies(t *testing.T) {
	tests := []struct {
		name string
		body string
		into func() any
	}{
		{"job status never run", `{"status":"success","job-status":"_NONE"}`, func() any { return new(model.JobStatus) }},
		{"job status running", `{"status":"success","file-id":48,"job-execution-id":3,"job-status":"RUNNING","start-time":"Sep 28, 2018 6:44:56 PM","estimate-time":"11s","job-progress":"0"}`, func() any { return new(model.JobStatus) }},
		{"job status completed", `{"status":"success","file-id":48,"job-execution-id":3,"job-status":"COMPLETED","start-time":"Sep 28, 2018 6:44:56 PM","stop-time":"Sep 28, 2018 6:44:58 PM"}`, func() any { return new(model.JobStatus) }},
		{"job status queued", `{"status":"success","file-id":48,"job-execution-id":4,"job-status":"QUEUED","start-time":null}`, func() any { return new(model.JobStatus) }},
		{"job status canceled", `{"status":"success","file-id":48,"job-execution-id":4,"job-status":"CANCELED","start-time":null,"stop-time":"Sep 28, 2018 6:58:41 PM"}`, func() any { return new(model.JobStatus) }},
		{"job status failure", `{"status":"failure","reason":"File doesn't exist or isn't accessible with current permissions"}`, func() any { return new(model.JobStatus) }},
		{"triggered", `{"status":"success","job-execution-id":3,"job-execution-user":"analyst","job-execution-trigger":"RESTAPI"}`, func() any { return new(model.Triggered) }},
		{"history", `[{"id":30,"jobStatus":"COMPLETED"},{"id":27,"jobStatus":"COMPLETED"},{"id":23,"jobStatus":"ERROR"}]`, func() any { return new([]model.HistoryEntry) }},
		{"running", `[{"jobStatus":"RUNNING","fileName":"Cities.imp","jobName":"Cities","fileId":48,"uuid":"0c1d","creationDate":1538160296000,"jobExecutionId":3,"dapJobConfigurationId":12,"estimatedTime":11000,"startTime":1538160297000}]`, func() any { return new([]model.RunningJob) }},
		{"plan", `{"status":"success","execution-plan":[{"job-configuration-name":"Cities","job-configuration-id":12,"trigger":true,"job-execution-id":31}]}`, func() any { return new(model.ExecutionPlan) }},
		{"root folder", `{"name":"/","uuid":"f81eeb96-…","_links":{"self":{"href":"/api/filesystem/root-folder"},"permission":{"href":"/api/filesystem/folders/1/permission"}},"_embedded":{"folders":[{"name":"Users","_links":{"self":{"href":"/api/filesystem/folders/3"}}}]}}`, func() any { return new(model.Folder) }},
		{"permission with file link", `{"others":{"executable":true,"readable":true,"writable":true},"owner":"system","_links":{"others":{"href":"o"},"file":{"href":"f"},"owner":{"href":"w"},"self":{"href":"s"},"groups":{"href":"g"}}}`, func() any { return new(model.Permission) }},
		{"groups", `{"_links":{"self":{"href":"s"},"permission":{"href":"p"}},"_embedded":{"groups":[{"flags":{"executable":true,"readable":true,"writable":true},"name":"dasuser","_links":{"self":{"href":"…/permission/groups/dasuser"},"permission":{"href":"p"}}}]}}`, func() any { return new(model.GroupPermissions) }},
		{"connection", `{"version":"2.1","className":"datameer.dap.common.entity.DataBaseConnection","file":{"uuid":"23905938-…","path":"/Data/Connections/MYSQL_QA1.dst","description":"MySQL Connection","name":"MYSQL_QA1"},"typeId":"das.JdbcDataStoreType","properties":{"user_name":["extuser"],"password":["L5lhAwwiuHjl/h08r0pVAg==\r\n"],"key.connectionUrl":["jdbc:mysql://…:3306/world"],"dataStoreTemplate":["false"],"dataStoreUsage":["IMPORT_EXPORT"]},"dbType":{"name":"MySQL"}}`, func() any { return new(model.Connection) }},
		{"connection list", `[{"description":"hidden datastore to upload files: FileUploadDataStore","id":1,"name":"FileUploadDataStore","path":"/.system/FileUploadDataStore.dst","uuid":"708d54ed-…"}]`, func() any { return new([]model.ConnectionEntry) }},
		{"connection created", `{"configuration-id":8,"status":"success"}`, func() any { return new(model.ConnectionCreated) }},
		{"dependencies", `{"dependencies":[{"id":12,"file":{"path":"/Data/ImportJobs/Cities.imp","name":"Cities","type":"import-job","description":"","uuid":"0c1d"}}]}`, func() any { return new(model.Dependencies) }},
		{"failure with paths", `{"status":"failure","reason":"in use","paths":["/a.imp"]}`, func() any { return new(model.Failure) }},
		{"failure without paths", `{"status":"failure","reason":"no"}`, func() any { return new(model.Failure) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.into()
			if err := json.Unmarshal([]byte(tt.body), v); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, out, tt.body)
		})
	}
}

// TestJobDetailsLegacyForm reads the older platform's details: its date
// form and counters beyond the spec's five. Re-encoding writes the spec's form.
func TestJobDetailsLegacyForm(t *testing.T) {
	body := `{"counters":{"IMPORT_RECORDS":494400,"IMPORT_BYTES":23911522,"IMPORT_DROPPED_RECORDS":0,"IMPORT_PREVIEW_RECORDS":5000,"IMPORT_OUTPUT_BYTES":24444883,"IMPORT_DROPPED_SPLITS":0,"IMPORT_OUTPUT_PARTITIONS":0},"failureCount":0,"jobStatus":"COMPLETED","startTime":"2012-07-06 18:19:09.0","stopTime":"2012-07-06 18:21:07.0","successCount":494400}`
	var d model.JobDetails
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatal(err)
	}
	if !d.StartTime.Time.Equal(mustTime(t, "2006-01-02 15:04:05", "2012-07-06 18:19:09")) || d.StopTime.Time.Sub(d.StartTime.Time) != 118*time.Second {
		t.Errorf("times = %v, %v", d.StartTime, d.StopTime)
	}
	if len(d.Counters) != 7 || d.Counters["IMPORT_BYTES"] != 23911522 || d.Counters[model.CounterImportPreviewRecords] != 5000 {
		t.Errorf("counters = %v", d.Counters)
	}
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"startTime":"Jul 6, 2012 6:19:09 PM"`) {
		t.Errorf("re-encoded %s, want the spec's date form", out)
	}
}

// TestDateTimeAbsentNullSet checks the three states of a DateTime field
// tagged omitzero, on the raw JSON both ways.
func TestDateTimeAbsentNullSet(t *testing.T) {
	type holder struct {
		At model.DateTime `json:"at,omitzero"`
	}
	set := mustTime(t, model.DateTimeLayout, "Sep 28, 2018 6:44:56 PM")
	tests := []struct {
		name  string
		value model.DateTime
		json  string
		valid bool
	}{
		{"absent", model.DateTime{}, `{}`, false},
		{"null", model.Null, `{"at":null}`, false},
		{"at the zero time is null", model.At(time.Time{}), `{"at":null}`, false},
		{"set", model.At(set), `{"at":"Sep 28, 2018 6:44:56 PM"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(holder{At: tt.value})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.json {
				t.Errorf("encoded %s, want %s", out, tt.json)
			}
			var back holder
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatal(err)
			}
			if back.At.Present != tt.value.Present || !back.At.Time.Equal(tt.value.Time) || back.At.Valid() != tt.valid {
				t.Errorf("decoded %+v, want %+v (valid %v)", back.At, tt.value, tt.valid)
			}
		})
	}
}

func TestParseDateTime(t *testing.T) {
	tests := []struct {
		in      string
		want    string // in model.DateTimeLayout
		wantErr bool
	}{
		{"Sep 28, 2018 6:44:56 PM", "Sep 28, 2018 6:44:56 PM", false},
		{"Jan 2, 2006 11:04:05 AM", "Jan 2, 2006 11:04:05 AM", false},
		{"  Sep 28, 2018 6:44:56 PM ", "Sep 28, 2018 6:44:56 PM", false},
		{"2012-07-06 18:19:09.0", "Jul 6, 2012 6:19:09 PM", false},
		{"2012-07-06 18:19:09", "Jul 6, 2012 6:19:09 PM", false},
		{"", "", true},
		{"yesterday", "", true},
		{"2018-09-28T18:44:56Z", "Sep 28, 2018 6:44:56 PM", false},
		{"2019-04-02T15:07:15.120+02:00", "Apr 2, 2019 3:07:15 PM", false},
		{"2019-04-02T15:07:15", "", true},
	}
	for _, tt := range tests {
		got, err := model.ParseDateTime(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseDateTime(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && got.Format(model.DateTimeLayout) != tt.want {
			t.Errorf("ParseDateTime(%q) = %s, want %s", tt.in, got.Format(model.DateTimeLayout), tt.want)
		}
	}
	for _, bad := range []string{`true`, `4.5`, `{}`, `"yesterday"`} {
		var d model.DateTime
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("%s decoded as a date-time: %v", bad, d.Time)
		}
		var m model.EpochMillis
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s decoded as epoch milliseconds: %d", bad, m)
		}
	}
}

// TestTimeForms reads every form the platform sends a time in, into both
// time types: the three date-time forms, epoch milliseconds, "" and null.
func TestTimeForms(t *testing.T) {
	at := time.Date(2019, 4, 2, 15, 7, 15, 0, time.Local)
	tests := []struct {
		json string
		want time.Time
	}{
		{`"Apr 2, 2019 3:07:15 PM"`, at},
		{`"2019-04-02 15:07:15.0"`, at},
		{`"2019-04-02T13:07:15.000Z"`, time.Date(2019, 4, 2, 13, 7, 15, 0, time.UTC)},
		{`1554217635120`, time.UnixMilli(1554217635120)},
		{`""`, time.Time{}},
		{`"  "`, time.Time{}},
		{`null`, time.Time{}},
	}
	for _, tt := range tests {
		var d model.DateTime
		if err := json.Unmarshal([]byte(tt.json), &d); err != nil || !d.Time.Equal(tt.want) || !d.Present {
			t.Errorf("DateTime from %s = %v (present %v), %v; want %v", tt.json, d.Time, d.Present, err, tt.want)
		}
		var m model.EpochMillis
		if err := json.Unmarshal([]byte(tt.json), &m); err != nil || !m.Time().Equal(tt.want) {
			t.Errorf("EpochMillis from %s = %v, %v; want %v", tt.json, m.Time(), err, tt.want)
		}
	}
	iso := model.ISODateTime{DateTime: model.At(time.Date(2019, 4, 2, 15, 7, 15, 120e6, time.FixedZone("", 2*3600)))}
	if out, err := json.Marshal(iso); err != nil || string(out) != `"2019-04-02T15:07:15.120+02:00"` {
		t.Errorf("ISODateTime encoded %s, %v", out, err)
	}
}

func TestEstimate(t *testing.T) {
	decode := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{`"11s"`, 11 * time.Second, false},
		{`"0s"`, 0, false},
		{`"1m5s"`, 65 * time.Second, false},
		{`"11"`, 11 * time.Second, false},
		{`11`, 11 * time.Second, false},
		{`2.5`, 2500 * time.Millisecond, false},
		{`"soon"`, 0, true},
		{`""`, 0, true},
	}
	for _, tt := range decode {
		var e model.Estimate
		err := json.Unmarshal([]byte(tt.in), &e)
		if (err != nil) != tt.wantErr || err == nil && time.Duration(e) != tt.want {
			t.Errorf("Estimate from %s = %v, %v; want %v, error %v", tt.in, time.Duration(e), err, tt.want, tt.wantErr)
		}
	}
	encode := []struct {
		in   time.Duration
		want string
	}{
		{11 * time.Second, `"11s"`},
		{0, `"0s"`},
		{65 * time.Second, `"65s"`},
		{1500 * time.Millisecond, `"2s"`},
	}
	for _, tt := range encode {
		out, err := json.Marshal(model.Estimate(tt.in))
		if err != nil || string(out) != tt.want {
			t.Errorf("Estimate(%v) encodes %s, %v; want %s", tt.in, out, err, tt.want)
		}
	}
	var st model.JobStatus
	if err := json.Unmarshal([]byte(`{"status":"success","estimate-time":null,"job-progress":null}`), &st); err != nil || st.EstimateTime != nil || st.JobProgress != nil {
		t.Errorf("null estimate and progress = %v, %v, %v; want nil pointers", st.EstimateTime, st.JobProgress, err)
	}
}

func TestProgress(t *testing.T) {
	decode := []struct {
		in      string
		want    float64
		wantErr bool
	}{
		{`"0"`, 0, false},
		{`"42"`, 42, false},
		{`"42.5"`, 42.5, false},
		{`" 7 "`, 7, false},
		{`42`, 42, false},
		{`"half"`, 0, true},
		{`""`, 0, true},
	}
	for _, tt := range decode {
		var p model.Progress
		err := json.Unmarshal([]byte(tt.in), &p)
		if (err != nil) != tt.wantErr || err == nil && float64(p) != tt.want {
			t.Errorf("Progress from %s = %v, %v; want %v, error %v", tt.in, p, err, tt.want, tt.wantErr)
		}
	}
	for in, want := range map[float64]string{0: `"0"`, 42: `"42"`, 42.5: `"42.5"`} {
		out, err := json.Marshal(model.Progress(in))
		if err != nil || string(out) != want {
			t.Errorf("Progress(%v) encodes %s, want %s", in, out, want)
		}
	}
}

func TestJobStatusRawJSON(t *testing.T) {
	start := mustTime(t, model.DateTimeLayout, "Sep 28, 2018 6:44:56 PM")
	id := func(v int64) *int64 { return &v }
	estimate, progress := model.Estimate(11*time.Second), model.Progress(0)
	tests := []struct {
		name   string
		status model.JobStatus
		want   string
	}{
		{"never run: only status and state", model.JobStatus{Status: model.StatusSuccess, JobStatus: model.StateNone},
			`{"status":"success","job-status":"_NONE"}`},
		{"queued: start-time null, stop-time absent", model.JobStatus{Status: model.StatusSuccess, JobStatus: model.StateQueued, FileID: id(48), JobExecutionID: id(4), StartTime: model.Null},
			`{"status":"success","job-status":"QUEUED","file-id":48,"job-execution-id":4,"start-time":null}`},
		{"running: estimate and progress as strings", model.JobStatus{Status: model.StatusSuccess, JobStatus: model.StateRunning, FileID: id(48), JobExecutionID: id(3),
			StartTime: model.At(start), EstimateTime: &estimate, JobProgress: &progress},
			`{"status":"success","job-status":"RUNNING","file-id":48,"job-execution-id":3,"start-time":"Sep 28, 2018 6:44:56 PM","estimate-time":"11s","job-progress":"0"}`},
		{"failure: status and reason only", model.JobStatus{Status: model.StatusFailure, Reason: "File doesn't exist"},
			`{"status":"failure","reason":"File doesn't exist"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(tt.status)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("encoded\n%s\nwant\n%s", out, tt.want)
			}
		})
	}
}

func TestDataDeletion(t *testing.T) {
	tests := []struct {
		body string
		want model.DataDeletion
	}{
		{`{"status":true}`, model.DataDeletion{Outcome: model.DeletionMarked}},
		{`{"status":false}`, model.DataDeletion{Outcome: model.DeletionAlreadyMarked}},
		{`{"status":"failure","reason":"DataEntity with id 99 not found"}`, model.DataDeletion{Outcome: model.DeletionFailed, Reason: "DataEntity with id 99 not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			var d model.DataDeletion
			if err := json.Unmarshal([]byte(tt.body), &d); err != nil {
				t.Fatal(err)
			}
			if d != tt.want {
				t.Errorf("decoded %+v, want %+v", d, tt.want)
			}
			out, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.body {
				t.Errorf("encoded %s, want %s", out, tt.body)
			}
		})
	}
	for _, bad := range []string{`{}`, `{"status":null}`, `{"status":1}`, `{"status":"success"}`, `[]`, `"true"`} {
		var d model.DataDeletion
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("%s decoded as %+v, want an error", bad, d)
		}
	}
}

func TestJobState(t *testing.T) {
	tests := []struct {
		state                model.JobState
		canonical            model.JobState
		known, active, final bool
	}{
		{model.StateNone, model.StateNone, true, false, false},
		{model.StateQueued, model.StateQueued, true, true, false},
		{model.StateRunning, model.StateRunning, true, true, false},
		{model.StateCompleted, model.StateCompleted, true, false, true},
		{model.StateCompletedWithWarnings, model.StateCompletedWithWarnings, true, false, true},
		{"COMPLETED_WITH_Warnings", model.StateCompletedWithWarnings, true, false, true},
		{model.StateCanceled, model.StateCanceled, true, false, true},
		{"CANCELLED", model.StateCanceled, true, false, true},
		{"cancelled", model.StateCanceled, true, false, true},
		{model.StateError, model.StateError, true, false, true},
		{" running ", model.StateRunning, true, true, false},
		{"WAITING_FOR_OTHER_JOB", "WAITING_FOR_OTHER_JOB", false, true, false},
		{"PAUSED", "PAUSED", false, false, false},
		{"", "", false, false, false},
	}
	for _, tt := range tests {
		if c := tt.state.Canonical(); c != tt.canonical {
			t.Errorf("%q.Canonical() = %q, want %q", tt.state, c, tt.canonical)
		}
		if tt.state.Known() != tt.known || tt.state.Active() != tt.active || tt.state.Final() != tt.final {
			t.Errorf("%q: Known, Active, Final = %v, %v, %v; want %v, %v, %v", tt.state,
				tt.state.Known(), tt.state.Active(), tt.state.Final(), tt.known, tt.active, tt.final)
		}
		if tt.state.Active() && tt.state.Final() {
			t.Errorf("%q is both active and final", tt.state)
		}
	}
	var h model.HistoryEntry
	if err := json.Unmarshal([]byte(`{"id":1,"jobStatus":"WAITING_FOR_OTHER_JOB"}`), &h); err != nil || h.JobStatus != "WAITING_FOR_OTHER_JOB" {
		t.Errorf("an unknown state decoded as %q, %v; want it kept", h.JobStatus, err)
	}
}

func TestEpochMillis(t *testing.T) {
	at := time.UnixMilli(1538160296123)
	if m := model.Millis(at); m != 1538160296123 || !m.Time().Equal(at) {
		t.Errorf("Millis round trip = %d, %v", m, m.Time())
	}
	if model.Millis(time.Time{}) != 0 || !model.EpochMillis(0).Time().IsZero() {
		t.Error("the zero time and 0 do not map onto each other")
	}
}

func TestHrefsAndIDs(t *testing.T) {
	hrefs := map[string]int64{
		"/api/filesystem/folders/4":            4,
		"/api/filesystem/folders/4/":           4,
		"/api/filesystem/folders/4/permission": 0,
		"/api/filesystem/root-folder":          0,
		"42":                                   42,
		"":                                     0,
	}
	for href, want := range hrefs {
		if got := model.IDFromHref(href); got != want {
			t.Errorf("IDFromHref(%q) = %d, want %d", href, got, want)
		}
	}
	root := model.Folder{Links: model.Links{"self": {Href: "/api/filesystem/root-folder"}, "permission": {Href: "/api/filesystem/folders/1/permission"}}}
	if root.ID() != 1 || root.ParentID() != 0 {
		t.Errorf("root ID, ParentID = %d, %d; want 1, 0", root.ID(), root.ParentID())
	}
	data := model.Folder{Links: model.Links{"self": {Href: "/api/filesystem/folders/4"}, "parent": {Href: "/api/filesystem/folders/1"}}}
	if data.ID() != 4 || data.ParentID() != 1 {
		t.Errorf("Data ID, ParentID = %d, %d; want 4, 1", data.ID(), data.ParentID())
	}
	if (model.FolderEntry{Links: model.Links{"self": {Href: "/api/filesystem/folders/12"}}}).ID() != 12 {
		t.Error("FolderEntry.ID does not read its self link")
	}
	if (model.Links{}).Href("missing") != "" || (model.Links(nil)).Href("self") != "" {
		t.Error("a missing link has an href")
	}
}

func TestKinds(t *testing.T) {
	tests := []struct {
		path     string
		kind     model.Kind
		ok       bool
		runnable bool
	}{
		{"/Data/Connections/MYSQL_QA1.dst", model.KindConnection, true, false},
		{"/Data/ImportJobs/Orders.imp", model.KindImportJob, true, true},
		{"/Data/DataLinks/Orders With Errors.lnk", model.KindDataLink, true, true},
		{"/Analytics/Sales.wbk", model.KindWorkbook, true, true},
		{"/Exports/Sales.exp", model.KindExportJob, true, true},
		{"/Visualization/Dashboard.gra", model.KindInfographic, true, false},
		{"/Data/upload.upl", model.KindFileUpload, true, false},
		{"/Data/notes.json", "", false, false},
		{"/Data", "", false, false},
	}
	for _, tt := range tests {
		kind, ok := model.KindOfPath(tt.path)
		if kind != tt.kind || ok != tt.ok || kind.Runnable() != tt.runnable {
			t.Errorf("KindOfPath(%q) = %q, %v (runnable %v); want %q, %v (%v)", tt.path, kind, ok, kind.Runnable(), tt.kind, tt.ok, tt.runnable)
		}
		if ok && !strings.HasSuffix(tt.path, kind.Extension()) {
			t.Errorf("%q: Extension() = %q", tt.path, kind.Extension())
		}
	}
	if model.KindFolder.Extension() != "" {
		t.Error("folders have an extension")
	}
}

func TestConfigurationHelpers(t *testing.T) {
	c := model.Configuration{Properties: map[string][]string{model.PropUserName: {"extuser", "second"}, "empty": {}}}
	if c.Property(model.PropUserName) != "extuser" || c.Property("empty") != "" || c.Property("missing") != "" {
		t.Errorf("Property gives %q, %q, %q", c.Property(model.PropUserName), c.Property("empty"), c.Property("missing"))
	}
	for key, secret := range map[string]bool{
		model.PropPassword: true, "sshKey": true, "tableau.password": true, "ssh_key": true, "secret_key": true,
		"db.PASSWORD": true, "clientSecret": true, "accessKey": true, "api.Key": true,
		"fs.s3a.secret.key": true, "fs.s3a.session.token": true, "fs.azure.account.key.acct.blob.core.windows.net": true,
		"privateKey": true, "private_key.pem": true, "user_pwd": true, "gcp.credentials": true, "AccessKey.ID": true,
		"hadoop.security.credential.provider.path": false, "tokenizer": false, "fs.s3a.endpoint": false,
		model.PropUserName: false, model.PropConnectionURL: false, model.PropDataStoreTemplate: false, "keyspace": false, "passwordHint": false,
	} {
		if model.IsSecretProperty(key) != secret {
			t.Errorf("IsSecretProperty(%q) = %v", key, !secret)
		}
	}
}

func TestFlagLists(t *testing.T) {
	if len(model.BackupFlags) != 6 || len(model.RestoreFlags) != 8 {
		t.Errorf("%d backup and %d restore flags, want the spec's 6 and 8", len(model.BackupFlags), len(model.RestoreFlags))
	}
	sel, err := json.Marshal(model.BackupSelection{IDs: []any{48, "0c1d", "/Data/My Folder"}})
	if err != nil || string(sel) != `{"ids":[48,"0c1d","/Data/My Folder"]}` {
		t.Errorf("selection = %s, %v", sel, err)
	}
}
