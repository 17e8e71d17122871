package model

import (
	"encoding/json"
	"fmt"
	"strings"
)

// JobState is a job status as the platform sends it. Values the spec does
// not list are kept as they come, so the console can show them.
type JobState string

// The spec's six states, plus ERROR for a job that failed outright.
const (
	StateNone                  JobState = "_NONE"
	StateQueued                JobState = "QUEUED"
	StateRunning               JobState = "RUNNING"
	StateCompleted             JobState = "COMPLETED"
	StateCompletedWithWarnings JobState = "COMPLETED_WITH_WARNINGS"
	StateCanceled              JobState = "CANCELED"
	StateError                 JobState = "ERROR"
)

// Canonical folds the spellings older platforms send (`CANCELLED`,
// `COMPLETED_WITH_Warnings`) onto the known state; others come back upper-cased.
func (s JobState) Canonical() JobState {
	up := JobState(strings.ToUpper(strings.TrimSpace(string(s))))
	if up == "CANCELLED" {
		return StateCanceled
	}
	return up
}

// Known reports whether the state is one of the seven this package names.
func (s JobState) Known() bool {
	switch s.Canonical() {
	case StateNone, StateQueued, StateRunning, StateCompleted, StateCompletedWithWarnings, StateCanceled, StateError:
		return true
	}
	return false
}

// Active reports whether a job in this state is still to finish; unknown
// states that say they wait count as active.
func (s JobState) Active() bool {
	c := s.Canonical()
	return c == StateQueued || c == StateRunning || strings.HasPrefix(string(c), "WAITING")
}

// Final reports whether a job in this state has ended.
func (s JobState) Final() bool {
	switch s.Canonical() {
	case StateCompleted, StateCompletedWithWarnings, StateCanceled, StateError:
		return true
	}
	return false
}

// JobStatus is the answer of the status endpoint. Pointer fields are absent
// when nil; StartTime is null for a queued job, hence DateTime with omitzero.
type JobStatus struct {
	Status         string    `json:"status"`
	JobStatus      JobState  `json:"job-status,omitempty"`
	FileID         *int64    `json:"file-id,omitempty"`
	JobExecutionID *int64    `json:"job-execution-id,omitempty"`
	StartTime      DateTime  `json:"start-time,omitzero"`
	StopTime       DateTime  `json:"stop-time,omitzero"`
	EstimateTime   *Estimate `json:"estimate-time,omitempty"`
	JobProgress    *Progress `json:"job-progress,omitempty"`
	Reason         string    `json:"reason,omitempty"`
}

// Triggered is the answer of a trigger.
type Triggered struct {
	Status              string `json:"status"`
	JobExecutionID      int64  `json:"job-execution-id"`
	JobExecutionUser    string `json:"job-execution-user"`
	JobExecutionTrigger string `json:"job-execution-trigger"`
}

// TriggerRESTAPI is the trigger value of executions started over REST.
const TriggerRESTAPI = "RESTAPI"

// HistoryEntry is one entry of a job's history; ID is the execution id.
// The real platform sends ID and JobStatus only; the embedded one adds when
// the execution ran, who started it and whether its data was deleted, so a
// history reads without a details call per row. A client reads both.
type HistoryEntry struct {
	ID          int64    `json:"id"`
	JobStatus   JobState `json:"jobStatus"`
	StartTime   DateTime `json:"startTime,omitzero"`
	StopTime    DateTime `json:"stopTime,omitzero"`
	User        string   `json:"user,omitempty"`
	DataDeleted bool     `json:"dataDeleted,omitempty"`
}

// HistoryTotalHeader carries, in the embedded platform's history answers,
// how many executions the job has in all (the body is the spec's array).
const HistoryTotalHeader = "X-Total-Count"

// DetailsFile is the `file` object of job details.
type DetailsFile struct {
	ID   int64  `json:"id"`
	UUID string `json:"uuid"`
}

// JobDetails is the answer of job details. Counters keeps every counter the
// platform sends, not only the spec's five.
type JobDetails struct {
	StartTime          DateTime         `json:"startTime,omitzero"`
	StopTime           DateTime         `json:"stopTime,omitzero"`
	JobStatus          JobState         `json:"jobStatus"`
	JobConfigurationID int64            `json:"jobConfigurationId"`
	File               DetailsFile      `json:"file"`
	SuccessCount       int64            `json:"successCount"`
	FailureCount       int64            `json:"failureCount"`
	Counters           map[string]int64 `json:"counters"`
}

// Counter names of import and export runs.
const (
	CounterImportRecords        = "IMPORT_RECORDS"
	CounterImportBytes          = "IMPORT_BYTES" // read from the source: the volume a license counts
	CounterImportPreviewRecords = "IMPORT_PREVIEW_RECORDS"
	CounterImportOutputBytes    = "IMPORT_OUTPUT_BYTES"
	CounterImportDroppedSplits  = "IMPORT_DROPPED_SPLITS"
	CounterImportDroppedRecords = "IMPORT_DROPPED_RECORDS"
	CounterExportRecords        = "EXPORT_RECORDS"
	CounterExportBytes          = "EXPORT_BYTES"
	CounterExportDroppedRecords = "EXPORT_DROPPED_RECORDS"
)

// RunningJob is one entry of list-running. Times are epoch milliseconds;
// EstimatedTime is the estimated remaining time in milliseconds.
type RunningJob struct {
	JobStatus             JobState    `json:"jobStatus"`
	FileName              string      `json:"fileName"`
	JobName               string      `json:"jobName"`
	FileID                int64       `json:"fileId"`
	UUID                  string      `json:"uuid"`
	CreationDate          EpochMillis `json:"creationDate"`
	JobExecutionID        int64       `json:"jobExecutionId"`
	DapJobConfigurationID int64       `json:"dapJobConfigurationId"`
	EstimatedTime         int64       `json:"estimatedTime"`
	StartTime             EpochMillis `json:"startTime"`
}

// SequentialTrigger is the body of the sequential trigger.
type SequentialTrigger struct {
	Variables map[string]string `json:"variables"`
	FileIDs   []int64           `json:"fileIds"`
}

// PlanEntry is one entry of a sequential trigger's execution plan.
type PlanEntry struct {
	JobConfigurationName string `json:"job-configuration-name"`
	JobConfigurationID   int64  `json:"job-configuration-id"`
	Trigger              bool   `json:"trigger"`
	JobExecutionID       int64  `json:"job-execution-id"`
}

// ExecutionPlan is the answer of the sequential trigger.
type ExecutionPlan struct {
	Status        string      `json:"status"`
	ExecutionPlan []PlanEntry `json:"execution-plan"`
	Reason        string      `json:"reason,omitempty"`
	// Notice says what the plan left out (dependents the caller may not
	// see); the embedded server's addition, absent when nothing was.
	Notice string `json:"notice,omitempty"`
}

// DataDeletion is the answer of delete job data, whose `status` is a string
// (`"failure"` with a reason) or a boolean (`true` now marked, `false` already).
type DataDeletion struct {
	Outcome DeletionOutcome
	Reason  string
}

// DeletionOutcome tells the three answers of delete job data apart.
type DeletionOutcome int

// The three answers of delete job data.
const (
	DeletionFailed DeletionOutcome = iota
	DeletionAlreadyMarked
	DeletionMarked
)

type dataDeletionWire struct {
	Status any    `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// MarshalJSON writes the spec's three bodies.
func (d DataDeletion) MarshalJSON() ([]byte, error) {
	switch d.Outcome {
	case DeletionMarked:
		return json.Marshal(dataDeletionWire{Status: true})
	case DeletionAlreadyMarked:
		return json.Marshal(dataDeletionWire{Status: false})
	}
	return json.Marshal(dataDeletionWire{Status: StatusFailure, Reason: d.Reason})
}

// UnmarshalJSON reads any of the spec's three bodies.
func (d *DataDeletion) UnmarshalJSON(b []byte) error {
	var w dataDeletionWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	switch v := w.Status.(type) {
	case bool:
		*d = DataDeletion{Outcome: DeletionAlreadyMarked}
		if v {
			d.Outcome = DeletionMarked
		}
	case string:
		if v != StatusFailure {
			return fmt.Errorf("delete job data: status %q is neither a boolean nor %q", v, StatusFailure)
		}
		*d = DataDeletion{Outcome: DeletionFailed, Reason: w.Reason}
	default:
		return fmt.Errorf("delete job data: status %v is neither a boolean nor a string", w.Status)
	}
	return nil
}

// LegacyJobStatus is the answer of the older job-status endpoint
// (/rest/job-configuration/job-status/<configuration id>): the newest
// execution's id and state, both absent ({}) for a job that never ran.
type LegacyJobStatus struct {
	ID        int64    `json:"id,omitempty"`
	JobStatus JobState `json:"jobStatus,omitempty"`
}
