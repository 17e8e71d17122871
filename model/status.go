package model

import "encoding/json"

// Status values of the `status` field.
const (
	StatusSuccess = "success"
	StatusFailure = "failure"
)

// Failure is the body of every failed request: `{"status":"failure","reason":"..."}`.
// Paths names the files a failure is about (restore conflicts, dependents
// that block a delete or an overwrite, dependencies outside a backup).
type Failure struct {
	Status string   `json:"status"`
	Reason string   `json:"reason"`
	Paths  []string `json:"paths,omitempty"`
}

// Success is the body `{"status":"success"}` of connection update and delete.
type Success struct {
	Status string `json:"status"`
}

// ParseFailure reads a failure body in either envelope the platform has
// sent: `{"status":"failure","reason":…}`, and `{"error":…}` of older
// releases (whose text becomes Reason). It reports false for any other
// body, a `status` that is not "failure" included (delete job data sends
// booleans there).
func ParseFailure(body []byte) (Failure, bool) {
	var f struct {
		Failure
		Status any     `json:"status"`
		Error  *string `json:"error"`
	}
	if json.Unmarshal(body, &f) != nil {
		return Failure{}, false
	}
	switch {
	case f.Status == StatusFailure:
		return Failure{Status: StatusFailure, Reason: f.Reason, Paths: f.Paths}, true
	case f.Status == nil && f.Error != nil:
		return Failure{Status: StatusFailure, Reason: *f.Error}, true
	}
	return Failure{}, false
}
